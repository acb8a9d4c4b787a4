import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry } from '@snapcracks/kit';
import { startTestSystem } from './test-system.js';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let metricsPort: number;

beforeAll(async () => {
  // As main.ts does for the process: this thread's meters (the services' thread starts its own).
  startTelemetry('snapcracks');
  system = await startTestSystem({}, { metrics: true, telemetry: true });
  metricsPort = system.metricsPort!;
});
afterAll(() => system?.stop());

const scrape = async (port: number) => (await fetch(`http://127.0.0.1:${port}/metrics`)).text();

describe('metrics of the all-in-one process (METRICS_PORT)', () => {
  it('serves the gateway thread’s metrics on the port, and the services thread’s on the next one', async () => {
    expect((await fetch(`${system.url}/api/stats/gallery`)).status).toBe(200);
    const gateway = await scrape(metricsPort);
    expect(gateway).toMatch(/http_server_request_duration_seconds_count\{[^}]*route="\/api\/stats\/gallery"[^}]*\} [1-9]/);
    expect(gateway).toMatch(/rpc_client_duration_seconds_count\{[^}]*component="gateway"/);
    const services = await scrape(metricsPort + 1);
    expect(services).toMatch(/rpc_server_duration_seconds_count\{[^}]*component="stats"[^}]*rpc_method="GetGalleryStats"/);
    expect(services).toMatch(/snapcracks_db_pool_max\{component="vote"\}/);
  });

  it('answers the gateway’s readiness detail beside its metrics, never on the public port', async () => {
    const detail = await fetch(`http://127.0.0.1:${metricsPort}/readyz/detail`);
    expect(detail.status).toBe(200);
    expect(await detail.json()).toMatchObject({ status: 'ready', database: 'ok' });
    // The public port has no such route: what answers there is the web app's page, not the detail.
    const outside = await fetch(`${system.url}/readyz/detail`);
    expect(outside.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await outside.text()).not.toContain('"database"');
  });
});
