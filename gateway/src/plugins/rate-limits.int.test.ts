import { randomUUID } from 'node:crypto';
import Fastify, { type FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import security, { routeRateLimit } from './security.js';
import { loadGatewayConfig, type RateLimits } from '../config.js';
import { MESSAGES } from '../http-errors.js';
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

/** A gateway's edge as one replica has it: the security plugin, an API route, a vote route counted per member. */
async function replica(options: { rateLimits: RateLimits; redis?: Redis; prefix?: string }): Promise<FastifyInstance> {
  const app = Fastify();
  // The session plugin's part: the member a request comes from (here a header says it).
  app.decorateRequest('session', null as never);
  app.addHook('onRequest', async (request) => {
    const member = request.headers['x-member'];
    (request as unknown as { session: { userId?: string } }).session = typeof member === 'string' ? { userId: member } : {};
  });
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
    scope.post('/api/photos/:id/vote', { config: routeRateLimit(scope, 'votes', { perMember: true }) }, async () => ({ ok: true }));
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
const vote = (app: FastifyInstance, member?: string) =>
  app.inject({ method: 'POST', url: '/api/photos/1/vote', headers: member ? { 'x-member': member } : {}, payload: { rating: 5 } });

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
    expect(refused.json()).toMatchObject({ message: MESSAGES.tooMany });
  });

  it('counts votes per member: members behind one address have a budget each, and share none with the API limit', async () => {
    const rateLimits = limits({ RATE_LIMIT_API: '2/1m', RATE_LIMIT_VOTES: '3/1m' });
    const prefix = `${PREFIX}votes:`;
    const a = await replica({ rateLimits, redis: redisClient().client, prefix });
    const b = await replica({ rateLimits, redis: redisClient().client, prefix });
    await new Promise((resolve) => setTimeout(resolve, 200));
    const ann = [await vote(a, 'ann'), await vote(b, 'ann'), await vote(a, 'ann'), await vote(b, 'ann')].map((r) => r.statusCode);
    expect(ann).toEqual([200, 200, 200, 429]);
    expect((await vote(b, 'bob')).statusCode).toBe(200);
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
