import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { processMetrics, renderPrometheus, startMetrics, telemetryResource } from '@snapcracks/kit';
import { ERRORS } from '@snapcracks/http-contract';
import { gatewayHarness, type GatewayHarness } from '../testing/gateway-harness.js';

let telemetry: { shutdown(): Promise<void> };
let harness: GatewayHarness | undefined;
let pages = 0;

beforeAll(() => {
  telemetry = startMetrics({ component: 'gateway', resource: telemetryResource('gateway') });
});
afterAll(async () => {
  await telemetry.shutdown();
});
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** The gateway before a photo service that answers an empty top-rated page, numbered by how often it was asked. */
async function gateway(env: Record<string, string> = {}): Promise<GatewayHarness> {
  harness = await gatewayHarness({
    env,
    services: {
      photo: { getGalleryPage: () => ({ photos: [], total: (pages += 1), totalPages: 0 }) },
      stats: { getGalleryStats: () => ({ photoCount: 1, totalVotes: 2, ratedFourOrHigher: 0, distinctUploaders: 1 }) },
    },
  });
  return harness;
}

const get = (url: string, headers: Record<string, string> = {}) => harness!.inject({ method: 'GET', url, headers });
const backendCalls = () => harness!.calls.filter((call) => call.service !== 'auth').length;

/** Headers that differ between any two answers, whoever writes them. */
function comparable(response: LightMyRequestResponse): Record<string, unknown> {
  const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-ratelimit-remaining': _remaining, 'x-ratelimit-reset': _reset, ...rest } = response.headers;
  return rest;
}

async function scrape(): Promise<string> {
  const { resourceMetrics } = await processMetrics()!.prometheus.collect();
  return renderPrometheus(resourceMetrics);
}

const TOP_RATED = '/api/gallery/top-rated?page=1&limit=9';

describe('cached public pages answered at the front of the gateway', () => {
  it('answers a URL the route answered from the cache with the same bytes and headers, calling nothing', async () => {
    await gateway();
    const first = await get(TOP_RATED);
    const second = await get(TOP_RATED);
    const third = await get(TOP_RATED);
    expect(first.statusCode).toBe(200);
    expect(backendCalls()).toBe(1);
    for (const again of [second, third]) {
      expect(again.statusCode).toBe(200);
      expect(again.body).toBe(first.body);
      expect(comparable(again)).toEqual(comparable(first));
    }
    expect(first.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.headers['content-length']).toBe(String(Buffer.byteLength(first.body)));
    expect(second.headers['cache-control']).toBe('no-cache');
  });

  it('answers 304 to the page’s ETag as the route does', async () => {
    await gateway();
    const page = await get(TOP_RATED);
    const etag = String(page.headers.etag);
    const routed = await get('/api/gallery/top-rated?limit=9&page=1', { 'if-none-match': etag });
    await get('/api/gallery/top-rated?limit=9&page=1');
    const front = await get(TOP_RATED, { 'if-none-match': etag });
    expect([routed.statusCode, front.statusCode]).toEqual([304, 304]);
    expect(front.body).toBe('');
    expect(comparable(front)).toEqual(comparable(routed));
    expect((await get(TOP_RATED, { 'if-none-match': '"another"' })).statusCode).toBe(200);
  });

  it('goes the route’s way again once the pages change, and for a URL it has not seen', async () => {
    const { publicPages } = await gateway();
    await get(TOP_RATED);
    expect(backendCalls()).toBe(1);
    publicPages.invalidate();
    const after = await get(TOP_RATED);
    expect(backendCalls()).toBe(2);
    expect(JSON.parse(after.body)).toMatchObject({ total: pages });
    expect((await get('/api/gallery/top-rated?page=0&limit=9')).statusCode).toBe(400);
    expect((await get('/api/gallery/no-such-filter')).statusCode).toBe(404);
  });

  it('counts hits against the API’s rate limit, and a hit over it is refused by the route', async () => {
    await gateway({ RATE_LIMIT_API: '3/1m' });
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await get(TOP_RATED));
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 429]);
    expect(answers.map((a) => a.headers['x-ratelimit-remaining'])).toEqual(['2', '1', '0', '0']);
    expect(JSON.parse(answers[3]!.body)).toEqual({ message: ERRORS.tooMany });
  });

  it('refuses a Host that is not a host, hit or not', async () => {
    await gateway();
    await get(TOP_RATED);
    expect((await get(TOP_RATED, { host: 'a b' })).statusCode).toBe(400);
  });

  it('records a hit’s duration under the route’s template and counts it as a hit', async () => {
    await gateway();
    const series = async (name: string) => Number((await scrape()).split('\n').find((line) => line.startsWith(`${name} `))?.split(' ')[1] ?? 0);
    const DURATION = 'http_server_request_duration_seconds_count{component="gateway",method="GET",route="/api/stats/gallery",status_code="200"}';
    const HITS = 'snapcracks_public_page_cache_total{component="gateway",result="hit"}';
    const MISSES = 'snapcracks_public_page_cache_total{component="gateway",result="miss"}';
    const before = [await series(DURATION), await series(HITS), await series(MISSES)];
    for (let i = 0; i < 3; i++) expect((await get('/api/stats/gallery')).statusCode).toBe(200);
    const after = [await series(DURATION), await series(HITS), await series(MISSES)];
    expect(after.map((value, i) => value - before[i]!)).toEqual([3, 2, 1]);
  });
});
