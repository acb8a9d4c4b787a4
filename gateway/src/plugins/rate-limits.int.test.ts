import { ERRORS } from '@snapcracks/http-contract';
import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import security, { routeRateLimit } from './security.js';
import { loadGatewayConfig, type RateLimits } from '../config.js';
import { openRateLimitRedis } from '../rate-limit-redis.js';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** This run's keys only: runs sharing the machine's Redis never count each other's requests. */
const PREFIX = `test:${randomUUID()}:`;

const opened: FastifyInstance[] = [];
const clients: Redis[] = [];
afterEach(async () => {
  for (const app of opened.splice(0)) await app.close();
  for (const client of clients.splice(0)) client.disconnect();
});
afterAll(async () => {
  const admin = new Redis(REDIS_URL);
  const keys = await admin.keys(`${PREFIX}*`);
  if (keys.length) await admin.del(...keys);
  admin.disconnect();
});

const limits = (env: Record<string, string>): RateLimits => loadGatewayConfig({ NODE_ENV: 'test', ...env }).rateLimits;

/** A gateway's edge as one replica has it: the security plugin, an API route and a route with a limit of its own. (Per-member limits: member-limits.int.test.ts.) */
async function replica(options: { rateLimits: RateLimits; redis?: Redis; prefix?: string }): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(security, {
    allowedOrigins: [],
    scriptSources: [],
    identityProviderOrigin: 'https://idp.example',
    rateLimits: options.rateLimits,
    redis: options.redis,
    ...(options.prefix ? { redisKeyPrefix: options.prefix } : {}),
    development: false,
  });
  app.get('/api/photos', async () => ({ photos: [] }));
  await app.register(async (scope) => {
    scope.post('/api/contact', { config: routeRateLimit(scope, 'contact') }, async () => ({ ok: true }));
  });
  await app.ready();
  opened.push(app);
  return app;
}

const redisClient = (url = REDIS_URL) => {
  const { logger, records } = createRecordingLogger();
  const client = openRateLimitRedis(url, logger);
  clients.push(client);
  return { client, records };
};
const get = (app: FastifyInstance) => app.inject({ method: 'GET', url: '/api/photos' });
const contact = (app: FastifyInstance) => app.inject({ method: 'POST', url: '/api/contact', payload: {} });

describe('rate limits shared through Redis', () => {
  it('counts the requests of one client across two replicas against one limit', async () => {
    const rateLimits = limits({ RATE_LIMIT_API: '5/1m' });
    const prefix = `${PREFIX}shared:`;
    const a = await replica({ rateLimits, redis: redisClient().client, prefix });
    const b = await replica({ rateLimits, redis: redisClient().client, prefix });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await get(a)).statusCode, (await get(b)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await get(a);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ message: ERRORS.tooMany });
  });

  it('counts a route’s own limit across replicas, apart from the API limit', async () => {
    const rateLimits = limits({ RATE_LIMIT_API: '2/1m', RATE_LIMIT_CONTACT: '3/1m' });
    const prefix = `${PREFIX}contact:`;
    const a = await replica({ rateLimits, redis: redisClient().client, prefix });
    const b = await replica({ rateLimits, redis: redisClient().client, prefix });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const sent = [await contact(a), await contact(b), await contact(a), await contact(b)].map((r) => r.statusCode);
    expect(sent).toEqual([200, 200, 200, 429]);
    expect((await get(a)).statusCode).toBe(200);
  });

  it('lets requests through while Redis is unreachable, and says so once', async () => {
    const { client, records } = redisClient('redis://127.0.0.1:1');
    const app = await replica({ rateLimits: limits({ RATE_LIMIT_API: '2/1m' }), redis: client, prefix: `${PREFIX}down:` });
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await get(app)).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200]);
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(records.filter((r) => r.level === 40 && String(r.msg).includes('Redis is unreachable'))).toHaveLength(1);
  });
});

describe('rate limits in memory (no REDIS_URL)', () => {
  it('counts per replica', async () => {
    const rateLimits = limits({ RATE_LIMIT_API: '2/1m' });
    const a = await replica({ rateLimits });
    const b = await replica({ rateLimits });
    expect([(await get(a)).statusCode, (await get(a)).statusCode, (await get(a)).statusCode]).toEqual([200, 200, 429]);
    expect((await get(b)).statusCode).toBe(200);
  });
});
