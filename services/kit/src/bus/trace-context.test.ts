import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpanKind, context, propagation, trace } from '@opentelemetry/api';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { UserDeleted } from '@snapcracks/proto/events/v1';
import { makeEvent } from './event-types.js';
import { handleInEventContext } from './trace-context.js';

describe('handleInEventContext', () => {
  const exporter = new InMemorySpanExporter();
  const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
  beforeAll(() => provider.register());
  afterAll(async () => {
    await provider.shutdown();
    trace.disable();
    context.disable();
    propagation.disable();
  });

  function eventInTrace() {
    const producer = trace.getTracer('test').startSpan('change');
    const event = context.with(trace.setSpan(context.active(), producer), () =>
      makeEvent('auth.user.deleted', UserDeleted, { userId: 'u1' }, { source: 'auth' }),
    );
    producer.end();
    return { event, producer: producer.spanContext() };
  }

  it('runs the handler in a consumer span that continues the producer trace', async () => {
    const { event, producer } = eventInTrace();
    let handlerSpan: ReturnType<typeof trace.getActiveSpan>;
    await handleInEventContext(event, async () => {
      handlerSpan = trace.getActiveSpan();
    });
    const span = exporter.getFinishedSpans().find((s) => s.name === 'consume auth.user.deleted')!;
    expect(span.kind).toBe(SpanKind.CONSUMER);
    expect(span.spanContext().traceId).toBe(producer.traceId);
    expect(span.parentSpanContext?.spanId).toBe(producer.spanId);
    expect(handlerSpan!.spanContext().spanId).toBe(span.spanContext().spanId);
  });

  it('marks the span failed and rethrows when the handler throws', async () => {
    const { event } = eventInTrace();
    await expect(handleInEventContext(event, () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    const span = exporter.getFinishedSpans().at(-1)!;
    expect(span.status.code).toBe(2);
    expect(span.events[0]?.name).toBe('exception');
  });

  it('starts a new trace for an event without trace context', async () => {
    const { event } = eventInTrace();
    await handleInEventContext({ ...event, traceparent: '' }, async () => undefined);
    expect(exporter.getFinishedSpans().at(-1)!.parentSpanContext).toBeUndefined();
  });
});
