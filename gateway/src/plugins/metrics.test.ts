import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processMetrics, renderPrometheus, startMetrics, telemetryResource } from '@snapcracks/kit';
import tracing from './tracing.js';
import security, { routeRateLimit } from './security.js';
import { loadGatewayConfig } from '../config.js';
import { PublicPageCache } from '../public-page-cache.js';

let app: FastifyInstance;
let telemetry: { shutdown(): Promise<void> };

beforeAll(async () => {
  telemetry = startMetrics({ component: 'gateway', resource: telemetryResource('gateway') });
  app = Fastify();
  await app.register(tracing);
  await app.register(security, {
    allowedOrigins: [],
    scriptSources: [],
    identityProviderOrigin: 'https://idp.example',
    rateLimits: loadGatewayConfig({ NODE_ENV: 'test', RATE_LIMIT_API: '3/1m', RATE_LIMIT_CONTACT: '1/1m' }).rateLimits,
    development: false,
  });
  app.get('/api/photos/:id', async (request) => ({ id: (request.params as { id: string }).id }));
  app.register(async (scoped) => {
    scoped.post('/api/contact', { config: routeRateLimit(scoped, 'contact') }, async () => ({ ok: true }));
  });
  await app.ready();
});

afterAll(async () => {
  await app.close();
  await telemetry.shutdown();
});

async function scrape(): Promise<string> {
  const { resourceMetrics } = await processMetrics()!.prometheus.collect();
  return renderPrometheus(resourceMetrics);
}

const count = (text: string, series: string): number | undefined => {
  const line = text.split('\n').find((l) => l.startsWith(series + ' '));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

describe('gateway metrics', () => {
  it('times requests by route template, never the URL, with method and status code', async () => {
    for (const id of ['41', '42', '43']) expect((await app.inject({ method: 'GET', url: `/api/photos/${id}?from=gallery` })).statusCode).toBe(200);
    expect((await app.inject({ method: 'GET', url: '/no/such/page/9f8e' })).statusCode).toBe(404);

    const text = await scrape();
    expect(count(text, 'http_server_request_duration_seconds_count{component="gateway",method="GET",route="/api/photos/:id",status_code="200"}')).toBe(3);
    expect(count(text, 'http_server_request_duration_seconds_count{component="gateway",method="GET",route="unmatched",status_code="404"}')).toBe(1);
    expect(text).not.toMatch(/route="[^"]*(42|9f8e|from=)/);
  });

  it('counts rate-limit refusals under the limit that refused: the API’s, or the route’s own by its name', async () => {
    // 3 a minute per address for the API, 1 for contact messages.
    const reads = [];
    for (let i = 0; i < 4; i++) reads.push((await app.inject({ method: 'GET', url: '/api/photos/44', remoteAddress: '10.0.0.1' })).statusCode);
    expect(reads).toEqual([200, 200, 200, 429]);
    const sent = [];
    for (let i = 0; i < 3; i++) sent.push((await app.inject({ method: 'POST', url: '/api/contact', remoteAddress: '10.0.0.2' })).statusCode);
    expect(sent).toEqual([200, 429, 429]);

    const text = await scrape();
    expect(count(text, 'snapcracks_rate_limit_refusals_total{component="gateway",limit="api"}')).toBe(1);
    expect(count(text, 'snapcracks_rate_limit_refusals_total{component="gateway",limit="contact"}')).toBe(2);
  });

  it('counts public page cache hits and misses', async () => {
    const cache = new PublicPageCache();
    let loads = 0;
    const load = async () => ({ page: (loads += 1) });
    await cache.get('gallery:1', load);
    await cache.get('gallery:1', load);
    await Promise.all([cache.get('gallery:2', load), cache.get('gallery:2', load)]);
    expect(loads).toBe(2);

    const text = await scrape();
    expect(count(text, 'snapcracks_public_page_cache_total{component="gateway",result="miss"}')).toBe(2);
    expect(count(text, 'snapcracks_public_page_cache_total{component="gateway",result="hit"}')).toBe(2);
  });
});
