import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { BatchSpanProcessor, AlwaysOffSampler, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { detectResources, envDetector, resourceFromAttributes, type Resource } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME, ATTR_SERVICE_VERSION } from '@opentelemetry/semantic-conventions';
import { startMetrics } from './metrics/provider.js';
import { snapcracksVersion } from './version.js';

let provider: NodeTracerProvider | undefined;
let metrics: { shutdown(): Promise<void> } | undefined;
let recording = false;

export { snapcracksVersion };

/**
 * What every span and metric says about its process: service.name (the component, or OTEL_SERVICE_NAME) and
 * service.version, then OTEL_RESOURCE_ATTRIBUTES (the chart passes the pod's Kubernetes attributes there), which wins.
 */
export function telemetryResource(serviceName: string): Resource {
  const own = resourceFromAttributes({ [ATTR_SERVICE_NAME]: serviceName, [ATTR_SERVICE_VERSION]: snapcracksVersion() });
  return own.merge(detectResources({ detectors: [envDetector] }));
}

/**
 * A tracer provider as the process runs it. With no OTLP endpoint, nothing is recorded (trace context still propagates:
 * W3C traceparent across gRPC and the bus, trace ids in logs); with one, the SDK samples as OTEL_TRACES_SAMPLER and
 * OTEL_TRACES_SAMPLER_ARG say (parentbased_always_on by default) and exports over OTLP.
 */
export function createTracerProvider(serviceName: string, options: { spanProcessors?: SpanProcessor[] } = {}): NodeTracerProvider {
  const exporting = tracesExported() || Boolean(options.spanProcessors?.length);
  return new NodeTracerProvider({
    resource: telemetryResource(serviceName),
    // Left out, the SDK builds the sampler from OTEL_TRACES_SAMPLER(_ARG) itself.
    ...(exporting ? {} : { sampler: new AlwaysOffSampler() }),
    spanProcessors: options.spanProcessors ?? (exporting ? [new BatchSpanProcessor(new OTLPTraceExporter())] : []),
  });
}

function tracesExported(): boolean {
  return Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT);
}

/**
 * False when no span can be recorded in this process: instrumentation on a hot path (each database statement) checks it
 * before doing anything else.
 */
export function tracingRecords(): boolean {
  return recording;
}

/**
 * Starts tracing and metrics once per process. The exporters read the standard OTEL_* variables themselves; metrics
 * are served by the component's internal metrics server (startMetricsServer) and pushed over OTLP when an endpoint is set.
 * `spanProcessors` replace the OTLP export (tests record spans in memory).
 */
export function startTelemetry(serviceName: string, options: { spanProcessors?: SpanProcessor[] } = {}): { shutdown(): Promise<void> } {
  const name = process.env.OTEL_SERVICE_NAME || serviceName;
  if (!provider) {
    provider = createTracerProvider(name, options);
    provider.register();
    recording = tracesExported() || Boolean(options.spanProcessors?.length);
    metrics = startMetrics({ component: serviceName, resource: telemetryResource(name) });
  }
  const current = provider;
  const currentMetrics = metrics;
  return {
    shutdown: async () => {
      await Promise.all([current.shutdown(), currentMetrics?.shutdown()]);
    },
  };
}
