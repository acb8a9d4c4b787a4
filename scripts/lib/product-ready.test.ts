import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { notReady, waitUntilProductReady } from './product-ready.js';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** A local HTTP server answering `routes` (path → status and body), 404 otherwise; its base URL. */
async function serve(routes: () => Record<string, [number, unknown]>): Promise<string> {
  const server = createServer((request, response) => {
    const [status, body] = routes()[request.url ?? ''] ?? [404, {}];
    response.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

/** A port nothing listens on. */
async function closedPort(): Promise<string> {
  const url = await serve(() => ({}));
  await new Promise((resolve) => servers.pop()!.close(resolve));
  return url;
}

describe('notReady', () => {
  it('is empty when the gateway, every internal port and the gateway’s view of every service answer', async () => {
    const gateway = await serve(() => ({ '/readyz': [200, { status: 'ready' }] }));
    const internal = await serve(() => ({ '/metrics': [200, ''], '/readyz/detail': [200, { services: { auth: 'SERVING', vote: 'SERVING' } }] }));
    const vote = await serve(() => ({ '/metrics': [200, ''] }));
    expect(await notReady({ readyz: `${gateway}/readyz`, gatewayInternal: internal, internals: { gateway: internal, 'vote-1': vote } })).toEqual([]);
  });

  it('names a replica not serving yet and a service the gateway cannot reach, though the gateway itself is ready', async () => {
    const gateway = await serve(() => ({ '/readyz': [200, { status: 'ready' }] }));
    const internal = await serve(() => ({ '/metrics': [200, ''], '/readyz/detail': [200, { services: { auth: 'UNREACHABLE', vote: 'SERVING' } }] }));
    const missing = await notReady({ readyz: `${gateway}/readyz`, gatewayInternal: internal, internals: { gateway: internal, 'vote-2': await closedPort() } });
    expect(missing).toEqual(['vote-2 (not serving yet)', 'auth from the gateway (UNREACHABLE)']);
  });

  it('names the gateway when its readiness fails, and its view of the services when that cannot be read', async () => {
    const gateway = await serve(() => ({ '/readyz': [503, { status: 'not ready' }] }));
    expect(await notReady({ readyz: `${gateway}/readyz`, gatewayInternal: await closedPort(), internals: {} })).toEqual([
      'the gateway',
      "the gateway's view of the services",
    ]);
  });
});

describe('waitUntilProductReady', () => {
  it('waits until the last service comes up', async () => {
    let auth = 'UNREACHABLE';
    const gateway = await serve(() => ({ '/readyz': [200, {}], '/metrics': [200, ''], '/readyz/detail': [200, { services: { auth } }] }));
    setTimeout(() => (auth = 'SERVING'), 600);
    const started = Date.now();
    await waitUntilProductReady({ readyz: `${gateway}/readyz`, gatewayInternal: gateway, internals: { gateway } }, { timeoutMs: 10_000 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(500);
  });

  it('says what is still missing when the time is up', async () => {
    const gateway = await serve(() => ({ '/readyz': [200, {}], '/readyz/detail': [200, { services: { auth: 'NOT_SERVING' } }] }));
    await expect(waitUntilProductReady({ readyz: `${gateway}/readyz`, gatewayInternal: gateway, internals: {} }, { timeoutMs: 300 })).rejects.toThrow(
      'not ready after 0.3 s: auth from the gateway (NOT_SERVING)',
    );
  });
});
