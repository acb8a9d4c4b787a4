import { afterEach, describe, expect, it, vi } from 'vitest';
import { ROOT_CONTEXT, TraceFlags, trace } from '@opentelemetry/api';
import { createTracerProvider, snapcracksVersion, telemetryResource } from './telemetry.js';

afterEach(() => {
  vi.unstubAllEnvs();
});

/** Whether a root span (or a child of a remote parent sampled or not) would be recorded under the current env. */
function sampled(parent?: { sampled: boolean }): boolean {
  const provider = createTracerProvider('vote', { spanProcessors: [] });
  const tracer = provider.getTracer('test');
  const context = parent
    ? trace.setSpanContext(ROOT_CONTEXT, {
        traceId: '0af7651916cd43dd8448eb211c80319c',
        spanId: 'b7ad6b7169203331',
        traceFlags: parent.sampled ? TraceFlags.SAMPLED : TraceFlags.NONE,
        isRemote: true,
      })
    : ROOT_CONTEXT;
  const span = tracer.startSpan('call', {}, context);
  const recorded = span.isRecording();
  span.end();
  return recorded;
}

const ENDPOINT = 'http://127.0.0.1:4318';

describe('tracing configuration from the standard environment', () => {
  it('records nothing without an OTLP endpoint, whatever the sampler says', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', '');
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_on');
    expect(sampled()).toBe(false);
    expect(sampled({ sampled: true })).toBe(false);
  });

  it('samples every root span and follows the parent by default (parentbased_always_on)', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', ENDPOINT);
    vi.stubEnv('OTEL_TRACES_SAMPLER', '');
    expect(sampled()).toBe(true);
    expect(sampled({ sampled: false })).toBe(false);
  });

  it('honours always_off, always_on and parentbased_always_off', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', ENDPOINT);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_off');
    expect(sampled()).toBe(false);
    expect(sampled({ sampled: true })).toBe(false);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'always_on');
    expect(sampled({ sampled: false })).toBe(true);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'parentbased_always_off');
    expect(sampled()).toBe(false);
    expect(sampled({ sampled: true })).toBe(true);
  });

  it('samples by trace id at the ratio OTEL_TRACES_SAMPLER_ARG gives', () => {
    vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', ENDPOINT);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0');
    expect(sampled()).toBe(false);
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '1');
    expect(sampled()).toBe(true);
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'parentbased_traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0');
    expect(sampled()).toBe(false);
    expect(sampled({ sampled: true })).toBe(true);
    // A ratio of 0.25 keeps about a quarter of 400 root spans (the ids are random).
    vi.stubEnv('OTEL_TRACES_SAMPLER', 'traceidratio');
    vi.stubEnv('OTEL_TRACES_SAMPLER_ARG', '0.25');
    const kept = Array.from({ length: 400 }, () => sampled()).filter(Boolean).length;
    expect(kept).toBeGreaterThan(40);
    expect(kept).toBeLessThan(160);
  });
});

describe('the resource of spans and metrics', () => {
  it('names the component and its version, then adds OTEL_RESOURCE_ATTRIBUTES (the pod), which may override them', () => {
    vi.stubEnv('SNAPCRACKS_VERSION', '2.4.0');
    vi.stubEnv('OTEL_SERVICE_NAME', '');
    vi.stubEnv('OTEL_RESOURCE_ATTRIBUTES', 'k8s.pod.name=snapcracks-vote-7d9f,k8s.namespace.name=prod,k8s.node.name=node-1');
    expect(telemetryResource('vote').attributes).toEqual({
      'service.name': 'vote',
      'service.version': '2.4.0',
      'k8s.pod.name': 'snapcracks-vote-7d9f',
      'k8s.namespace.name': 'prod',
      'k8s.node.name': 'node-1',
    });
    vi.stubEnv('OTEL_SERVICE_NAME', 'vote-canary');
    expect(telemetryResource('vote').attributes['service.name']).toBe('vote-canary');
  });

  it('takes the packages’ version when the image sets none', () => {
    vi.stubEnv('SNAPCRACKS_VERSION', '');
    expect(snapcracksVersion()).toMatch(/^\d+\.\d+\.\d+/);
  });
});
