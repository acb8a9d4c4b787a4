import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { BatchSpanProcessor, AlwaysOffSampler, ParentBasedSampler, AlwaysOnSampler } from '@opentelemetry/sdk-trace-base';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';

let provider: NodeTracerProvider | undefined;

/**
 * Starts tracing once per process. Trace context always propagates (W3C traceparent across gRPC and the
 * bus, trace ids in logs); spans are exported over OTLP only when OTEL_EXPORTER_OTLP_ENDPOINT is set, and
 * are not recorded otherwise. The exporter reads the standard OTEL_* variables itself.
 */
export function startTelemetry(serviceName: string): { shutdown(): Promise<void> } {
  if (!provider) {
    const exporting = Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT);
    provider = new NodeTracerProvider({
      resource: resourceFromAttributes({ [ATTR_SERVICE_NAME]: process.env.OTEL_SERVICE_NAME ?? serviceName }),
      sampler: exporting ? new ParentBasedSampler({ root: new AlwaysOnSampler() }) : new AlwaysOffSampler(),
      spanProcessors: exporting ? [new BatchSpanProcessor(new OTLPTraceExporter())] : [],
    });
    provider.register();
  }
  const current = provider;
  return { shutdown: () => current.shutdown() };
}
