import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { pino } from 'pino';
import { startMetrics } from './provider.js';
import { instruments } from './instruments.js';
import { startMetricsServer, type MetricsServer } from './server.js';

const logger = pino({ level: 'silent' });
let telemetry: { shutdown(): Promise<void> };
let server: MetricsServer;

beforeAll(async () => {
  telemetry = startMetrics({ component: 'vote', resource: resourceFromAttributes({ 'service.name': 'vote', 'service.version': '1.2.3' }) });
  server = await startMetricsServer({
    port: 0,
    host: '127.0.0.1',
    logger,
    routes: { '/readyz/detail': (_request, response) => void response.writeHead(200, { 'content-type': 'application/json' }).end('{"database":"ok"}') },
  });
});

afterAll(async () => {
  await server.close();
  await telemetry.shutdown();
});

const get = (path: string, method = 'GET') => fetch(`http://127.0.0.1:${server.port}${path}`, { method });

describe('the metrics server', () => {
  it('serves what was recorded in Prometheus text, named with units and _total, each series with its component', async () => {
    const attributes = { component: 'vote', 'rpc.service': 'snapcracks.vote.v1.VoteService', 'rpc.method': 'CastVote', 'rpc.grpc.status_code': 0 };
    instruments().rpcServerDuration.record(0.003, attributes);
    instruments().rpcServerDuration.record(0.2, attributes);
    instruments().deadLetters.add(2, { component: 'vote', consumer: 'vote-tallies' });

    const response = await get('/metrics');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await response.text();

    const labels = 'component="vote",rpc_service="snapcracks.vote.v1.VoteService",rpc_method="CastVote",rpc_grpc_status_code="0"';
    expect(text).toContain('# TYPE rpc_server_duration_seconds histogram');
    // Latency buckets in seconds: 3 ms falls in the first (5 ms), 200 ms in the 250 ms one.
    expect(text).toContain(`rpc_server_duration_seconds_bucket{${labels},le="0.005"} 1`);
    expect(text).toContain(`rpc_server_duration_seconds_bucket{${labels},le="0.1"} 1`);
    expect(text).toContain(`rpc_server_duration_seconds_bucket{${labels},le="0.25"} 2`);
    expect(text).toContain(`rpc_server_duration_seconds_bucket{${labels},le="10"} 2`);
    expect(text).toContain(`rpc_server_duration_seconds_count{${labels}} 2`);
    expect(text).toContain('# TYPE snapcracks_dead_letters_total counter');
    expect(text).toContain('snapcracks_dead_letters_total{component="vote",consumer="vote-tallies"} 2');
    // The process's own gauges, under the component the process runs.
    expect(text).toMatch(/^snapcracks_process_heap_used_bytes\{component="vote"\} \d+/m);
    expect(text).toMatch(/^snapcracks_process_resident_memory_bytes\{component="vote"\} \d+/m);
    expect(text).toMatch(/^snapcracks_nodejs_eventloop_utilization\{component="vote"\} [\d.e-]+$/m);
    // The resource once, on target_info, not on every series.
    expect(text).toMatch(/^target_info\{.*service_name="vote".*service_version="1\.2\.3"/m);
    expect(text).not.toContain('otel_scope_name');
  });

  it('reports event-loop delay percentiles once the loop has been measured', async () => {
    // The histogram fills one tick at a time (every 50 ms) and each collection empties it: on a busy machine a
    // collection can come before the next tick, so this asks until a tick has been measured.
    await vi.waitFor(
      async () => {
        const text = await (await get('/metrics')).text();
        for (const stat of ['p50', 'p99', 'max']) {
          expect(text).toMatch(new RegExp(`^snapcracks_nodejs_eventloop_delay_seconds\\{component="vote",stat="${stat}"\\} [\\d.e-]+$`, 'm'));
        }
      },
      { timeout: 2_000, interval: 60 },
    );
  });

  it('serves the routes it was given, and nothing else', async () => {
    const detail = await get('/readyz/detail');
    expect(detail.status).toBe(200);
    expect(await detail.json()).toEqual({ database: 'ok' });
    expect((await get('/')).status).toBe(404);
    expect((await get('/metrics/extra')).status).toBe(404);
    expect((await get('/metrics', 'POST')).status).toBe(405);
    // A query string does not change the route.
    expect((await get('/metrics?name=x')).status).toBe(200);
  });
});
