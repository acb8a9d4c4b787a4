import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PrometheusSerializer } from '@opentelemetry/exporter-prometheus';
import type { MetricData, ResourceMetrics } from '@opentelemetry/sdk-metrics';
import type { Logger } from '../logger.js';
import { processMetrics } from './provider.js';

/** The port every component serves /metrics on (Prometheus's registered default for OpenTelemetry exporters). */
export const DEFAULT_METRICS_PORT = 9464;

export type MetricsRoute = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

const PROMETHEUS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

/**
 * The internal HTTP server of a component (never routed by the Ingress): GET /metrics in Prometheus text, the extra
 * `routes` given (exact paths, e.g. the gateway's /readyz/detail), 404 otherwise. Port 0 picks a free one.
 */
export async function startMetricsServer(options: {
  port: number;
  host?: string;
  logger: Logger;
  routes?: Record<string, MetricsRoute>;
}): Promise<MetricsServer> {
  const { logger } = options;
  const routes: Record<string, MetricsRoute> = { '/metrics': (_request, response) => serveMetrics(response, logger), ...options.routes };
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
    if (!route) return answer(response, 404, 'Not found\n');
    if (request.method !== 'GET' && request.method !== 'HEAD') return answer(response, 405, 'Method not allowed\n', { allow: 'GET, HEAD' });
    Promise.resolve()
      .then(() => route(request, response))
      .catch((error: unknown) => {
        logger.warn({ err: error, path }, 'internal endpoint failed');
        if (!response.headersSent) answer(response, 500, 'Internal error\n');
        else response.destroy();
      });
  });
  // Scrapes come every few seconds over a kept-alive connection; nothing here may hold a shutdown.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '0.0.0.0', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function answer(response: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers });
  response.end(body);
}

async function serveMetrics(response: ServerResponse, logger: Logger): Promise<void> {
  const state = processMetrics();
  if (!state) return answer(response, 503, '# metrics are not started in this process\n');
  const { resourceMetrics, errors } = await state.prometheus.collect();
  if (errors.length > 0) logger.warn({ errors: errors.map(String) }, 'some metrics could not be collected');
  response.writeHead(200, { 'content-type': PROMETHEUS_CONTENT_TYPE });
  response.end(renderPrometheus(resourceMetrics));
}

const serializer = new PrometheusSerializer(undefined, false, undefined, false, true);

/**
 * Prometheus text of the collected metrics, named as the OpenTelemetry-to-Prometheus rules (and the collector's
 * Prometheus exporter) name them: dots become underscores, the unit is a suffix (`s` → `_seconds`, `By` → `_bytes`;
 * dimensionless and annotation units add nothing), monotonic sums end in `_total`.
 */
export function renderPrometheus(resourceMetrics: ResourceMetrics): string {
  const renamed: ResourceMetrics = {
    resource: resourceMetrics.resource,
    scopeMetrics: resourceMetrics.scopeMetrics.map((scope) => ({ ...scope, metrics: scope.metrics.map(withUnitSuffix) })),
  };
  return serializer.serialize(renamed);
}

const UNIT_SUFFIXES: Record<string, string> = { s: '_seconds', ms: '_milliseconds', By: '_bytes' };

/** The name with its unit's suffix; the unit itself is left out (a `# UNIT` line is OpenMetrics, not this format). */
function withUnitSuffix(metric: MetricData): MetricData {
  const suffix = UNIT_SUFFIXES[metric.descriptor.unit] ?? '';
  const name = metric.descriptor.name.endsWith(suffix) ? metric.descriptor.name : metric.descriptor.name + suffix;
  return { ...metric, descriptor: { ...metric.descriptor, name, unit: '' } } as MetricData;
}
