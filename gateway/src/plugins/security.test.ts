import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import security from './security.js';
import { loadGatewayConfig } from '../config.js';

let app: FastifyInstance;

beforeAll(async () => {
  // As the gateway with TRUST_PROXY=127.0.0.1: that proxy's X-Forwarded-Proto says whether the browser used TLS.
  app = Fastify({ trustProxy: ['127.0.0.1'] });
  await app.register(security, {
    allowedOrigins: [],
    scriptSources: ["'sha256-abc='"],
    identityProviderOrigin: 'https://idp.example',
    rateLimits: loadGatewayConfig({ NODE_ENV: 'test' }).rateLimits,
    development: false,
  });
  app.get('/assets/heic-preview.worker.js', async () => 'self.onmessage = () => {};');
  await app.ready();
});

afterAll(() => app.close());

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('content security policy', () => {
  it("lets our own WebAssembly compile ('wasm-unsafe-eval'), still no eval of JavaScript or scripts from elsewhere", async () => {
    // A worker's script response carries the policy the worker runs under: the HEIC decoder compiles there.
    const response = await app.inject({ method: 'GET', url: '/assets/heic-preview.worker.js' });
    const csp = directives(String(response.headers['content-security-policy']));
    expect(csp.get('script-src')).toEqual(["'self'", "'sha256-abc='", "'wasm-unsafe-eval'"]);
    expect(csp.get('script-src')).not.toContain("'unsafe-eval'");
    expect(csp.get('script-src')).not.toContain("'unsafe-inline'");
    // Workers fall back to script-src: same-origin worker files only, no blob: or data: workers.
    expect(csp.has('worker-src')).toBe(false);
    expect(csp.get('default-src')).toEqual(["'self'"]);
    expect(csp.get('object-src')).toEqual(["'none'"]);
  });
});

describe('transport and framing headers', () => {
  const page = (headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: '/assets/heic-preview.worker.js', headers });

  it('sends HSTS only when the request came over TLS, here through a trusted proxy', async () => {
    const overHttps = await page({ 'x-forwarded-proto': 'https' });
    expect(overHttps.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    const overHttp = await page();
    expect(overHttp.headers['strict-transport-security']).toBeUndefined();
    expect((await page({ 'x-forwarded-proto': 'http' })).headers['strict-transport-security']).toBeUndefined();
  });

  it("denies framing in both headers: frame-ancestors 'none' and X-Frame-Options DENY, never SAMEORIGIN", async () => {
    for (const response of [await page(), await page({ 'x-forwarded-proto': 'https' })]) {
      expect(directives(String(response.headers['content-security-policy'])).get('frame-ancestors')).toEqual(["'none'"]);
      expect(response.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('a proxy the gateway does not trust', () => {
  it('cannot switch HSTS on with X-Forwarded-Proto', async () => {
    const untrusting = Fastify();
    await untrusting.register(security, {
      allowedOrigins: [],
      scriptSources: [],
      identityProviderOrigin: 'https://idp.example',
      rateLimits: loadGatewayConfig({ NODE_ENV: 'test' }).rateLimits,
      development: false,
    });
    untrusting.get('/', async () => 'ok');
    const response = await untrusting.inject({ method: 'GET', url: '/', headers: { 'x-forwarded-proto': 'https' } });
    await untrusting.close();
    expect(response.headers['strict-transport-security']).toBeUndefined();
  });
});
