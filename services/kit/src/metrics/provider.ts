import { metrics, type Meter } from '@opentelemetry/api';
import { MeterProvider, PeriodicExportingMetricReader, type IMetricReader } from '@opentelemetry/sdk-metrics';
import { PrometheusExporter } from '@opentelemetry/exporter-prometheus';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import type { Resource } from '@opentelemetry/resources';
import { getNumberFromEnv } from '@opentelemetry/core';
import { startRuntimeMetrics } from './runtime.js';

interface ProcessMetrics {
  provider: MeterProvider;
  /** Read by the internal /metrics endpoint; it never listens on a port of its own. */
  prometheus: PrometheusExporter;
  /** The component this process runs, on series that belong to the process rather than to one component. */
  component: string;
  stopRuntime: () => void;
}

let current: ProcessMetrics | undefined;

/** True when OTLP export is configured (for metrics or for every signal). */
function otlpMetricsConfigured(): boolean {
  return Boolean(process.env.OTEL_EXPORTER_OTLP_ENDPOINT || process.env.OTEL_EXPORTER_OTLP_METRICS_ENDPOINT);
}

/**
 * Starts the process's one MeterProvider (telemetry.ts calls this beside tracing): a Prometheus reader that the internal
 * metrics server asks at each scrape, and an OTLP reader every OTEL_METRIC_EXPORT_INTERVAL (60 s) when an OTLP endpoint
 * is set. A second call keeps the first provider.
 */
export function startMetrics(options: { component: string; resource: Resource }): { shutdown(): Promise<void> } {
  // The standard switch: every instrument stays a no-op, /metrics answers 503.
  if (process.env.OTEL_METRICS_EXPORTER?.trim() === 'none') return { shutdown: async () => undefined };
  if (!current) {
    const prometheus = new PrometheusExporter({ preventServerStart: true });
    const readers: IMetricReader[] = [prometheus];
    if (otlpMetricsConfigured()) {
      // The reader takes no OTEL_* variables itself (the exporter does: endpoint, headers, temporality).
      const exportIntervalMillis = getNumberFromEnv('OTEL_METRIC_EXPORT_INTERVAL') ?? 60_000;
      const exportTimeoutMillis = Math.min(getNumberFromEnv('OTEL_METRIC_EXPORT_TIMEOUT') ?? 30_000, exportIntervalMillis);
      readers.push(new PeriodicExportingMetricReader({ exporter: new OTLPMetricExporter(), exportIntervalMillis, exportTimeoutMillis }));
    }
    const provider = new MeterProvider({ resource: options.resource, readers });
    metrics.setGlobalMeterProvider(provider);
    current = { provider, prometheus, component: options.component, stopRuntime: () => undefined };
    const meter = meterOf(current);
    for (const install of installers) install(meter);
    current.stopRuntime = startRuntimeMetrics(meter, options.component);
  }
  const started = current;
  return {
    async shutdown() {
      if (current !== started) return;
      current = undefined;
      started.stopRuntime();
      metrics.disable();
      await started.provider.shutdown();
    },
  };
}

/** The process's metrics, or undefined before startMetrics (then every instrument is a no-op). */
export function processMetrics(): Readonly<ProcessMetrics> | undefined {
  return current;
}

/** The component named at start, for series about the whole process. */
export function processComponent(): string {
  return current?.component ?? 'unknown';
}

/** Observable instruments of the kit's modules: each reports the sources registered with it at collection time. */
const installers: ((meter: Meter) => void)[] = [];

/**
 * Registers observable instruments on the running provider and on any started later (a module calls this once, when it
 * loads; its callbacks read a registry of sources that objects add themselves to and remove themselves from).
 */
export function onEveryProvider(install: (meter: Meter) => void): void {
  installers.push(install);
  if (current) install(meterOf(current));
}

const NO_PROVIDER = {};

/**
 * Instruments made once per provider and shared: looked up per use (cheap), so code that made its objects before
 * metrics started, or a test that starts them late, still records into the running provider.
 */
export function memoisedPerProvider<T>(create: (meter: Meter) => T): () => T {
  let made: { owner: object; value: T } | undefined;
  return () => {
    const owner = current?.provider ?? NO_PROVIDER;
    if (made?.owner !== owner) made = { owner, value: create(meterOf(current)) };
    return made.value;
  };
}

function meterOf(state: ProcessMetrics | undefined): Meter {
  return state ? state.provider.getMeter('snapcracks') : metrics.getMeter('snapcracks');
}
