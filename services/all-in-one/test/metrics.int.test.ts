import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTelemetry } from '@snapcracks/kit';
import { freePort } from '../src/free-port.js';
import { startTestSystem } from './test-system.js';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let metricsPort: number;

/** Whether nothing listens on `port` (on every address, as the services thread's metrics server listens). */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer().once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });

/** A free port whose next one is free too: the services thread takes METRICS_PORT + 1. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
}

beforeAll(async () => {
  // As main.ts does for the process: this thread's meters (the services' thread starts its own).
  startTelemetry('snapcracks');
  // Probed ports may be taken by the time the system listens (another test file, an outgoing connection's local
  // port): a start that fails so stops whole, and goes again on another pair.
  for (let attempt = 1; ; attempt += 1) {
    metricsPort = await freePortPair();
    try {
      system = await startTestSystem({}, { metricsPort, telemetry: true });
      break;
    } catch (error) {
      if (!String(error).includes('EADDRINUSE') || attempt === 3) throw error;
    }
  }
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
