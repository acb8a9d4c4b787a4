import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import security from './security.js';
import { loadGatewayConfig } from '../config.js';

let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
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
