import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { startMetrics } from './provider.js';
import { instruments } from './instruments.js';

const received: { path: string; contentType: string | undefined; body: Buffer }[] = [];
let collector: Server;
let telemetry: { shutdown(): Promise<void> };

beforeAll(async () => {
  collector = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ path: request.url ?? '', contentType: request.headers['content-type'], body: Buffer.concat(chunks) });
      response.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
    });
  });
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  vi.stubEnv('OTEL_EXPORTER_OTLP_ENDPOINT', `http://127.0.0.1:${(collector.address() as AddressInfo).port}`);
  vi.stubEnv('OTEL_METRIC_EXPORT_INTERVAL', '200');
  telemetry = startMetrics({ component: 'vote', resource: resourceFromAttributes({ 'service.name': 'vote' }) });
});

afterAll(async () => {
  await telemetry.shutdown();
  vi.unstubAllEnvs();
  await new Promise((resolve) => collector.close(resolve));
});

describe('OTLP export', () => {
  it('pushes the metrics to OTEL_EXPORTER_OTLP_ENDPOINT over http/protobuf, every OTEL_METRIC_EXPORT_INTERVAL', async () => {
    instruments().deadLetters.add(1, { component: 'vote', consumer: 'vote-tallies' });
    await expect.poll(() => received.filter((r) => r.body.includes('snapcracks.dead_letters')).length, { timeout: 5_000 }).toBeGreaterThanOrEqual(2);
    const push = received.find((r) => r.body.includes('snapcracks.dead_letters'))!;
    expect(push.path).toBe('/v1/metrics');
    expect(push.contentType).toBe('application/x-protobuf');
    // OpenTelemetry's own names over OTLP (the collector renders Prometheus names), with the resource.
    expect(push.body.includes('vote-tallies')).toBe(true);
    expect(push.body.includes('service.name')).toBe(true);
  });
});
