import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

let system: Awaited<ReturnType<typeof startTestSystem>>;

beforeAll(async () => {
  // One proxy (the ingress) in front; short timeouts and a small rate limit so the test sees them act.
  system = await startTestSystem({ TRUST_PROXY: '1', REQUEST_TIMEOUT_MS: '1500', RATE_LIMIT_PER_MINUTE: '8' });
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

/** Writes raw bytes to the gateway and reads whatever comes back until the server closes the connection. */
function raw(request: string, { holdOpenMs = 0 } = {}): Promise<{ response: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(system.url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(request));
    let response = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (response += chunk));
    socket.on('error', reject);
    socket.on('close', () => resolve({ response, closedAfterMs: Date.now() - started }));
    if (holdOpenMs) setTimeout(() => socket.destroy(), holdOpenMs).unref();
  });
}

describe('the gateway at its edge', () => {
  it('answers a URL that cannot be decoded with its own JSON 400 and the security headers', async () => {
    const response = await fetch(`${system.url}/api/photos/%E0%A4%A/vote`);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Bad request' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers a malformed Host header with a 400, never a 500', async () => {
    for (const host of ['exa mple', 'a/b', 'user@host', 'host:99999x']) {
      const { response } = await raw(`GET /api/login HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      expect(response, host).toMatch(/^HTTP\/1\.1 400/);
    }
  });

  it('marks personal answers no-store', async () => {
    const { browser } = await signIn(system.url, 'edge@example.com', 'Edge Case');
    const response = await browser.request(`${system.url}/api/auth/user`, {});
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('closes a connection whose request body stalls', async () => {
    const { response, closedAfterMs } = await raw(
      'POST /api/contact HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"name":',
      { holdOpenMs: 20_000 },
    );
    expect(closedAfterMs).toBeLessThan(10_000);
    expect(response === '' || /^HTTP\/1\.1 408/.test(response)).toBe(true);
  });

  it('believes only the address its one trusted proxy adds, so X-Forwarded-For cannot escape the rate limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 12; i++) {
      // The client claims a new address each time; the ingress appends the address it really saw.
      const response = await fetch(`${system.url}/api/photos?limit=1`, { headers: { 'x-forwarded-for': `203.0.113.${i}, 198.51.100.7` } });
      statuses.push(response.status);
    }
    expect(statuses.filter((s) => s === 429).length).toBeGreaterThan(0);
    // The web app's files and images do not count: a page fetches dozens of them.
    for (let i = 0; i < 12; i++) {
      const response = await fetch(`${system.url}/brand/snapcracks-icon.svg`, { headers: { 'x-forwarded-for': '198.51.100.7' } });
      expect(response.status).toBe(200);
    }
    // Another client behind the same ingress has its own budget.
    expect((await fetch(`${system.url}/api/photos?limit=1`, { headers: { 'x-forwarded-for': '198.51.100.8' } })).status).toBe(200);
  });
});
