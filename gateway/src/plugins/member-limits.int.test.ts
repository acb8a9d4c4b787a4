import { ERRORS } from '@snapcracks/http-contract';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { Redis } from 'ioredis';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import security from './security.js';
import errors from './errors.js';
import { BUSY_RETRY_AFTER_SECONDS, IN_FLIGHT_RETRY_AFTER_SECONDS, MEMBER_LIMIT_MESSAGES, UPLOADS_IN_FLIGHT_MESSAGE, memberLimit, type MemberLimitName } from './member-limits.js';
import { loadGatewayConfig, type RateLimits } from '../config.js';
import { HttpError } from '../http-errors.js';
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

const ROUTES: Record<MemberLimitName, string> = {
  uploads: '/api/photos',
  votes: '/api/photos/1/vote',
  avatars: '/api/profile/avatar',
  faceSuggestions: '/api/photos/face-suggestions',
  reports: '/api/photos/1/reports',
};

/**
 * A gateway replica's edge: the security plugin, the error answers, and the limited routes, whose member an
 * `x-member` header names (the session and current-user plugins' part). An upload waits until `release()`.
 */
async function replica(options: { rateLimits: RateLimits; redis?: Redis; prefix: string }) {
  const app = Fastify();
  app.decorateRequest('requireMember', async function (this: FastifyRequest) {
    const member = this.headers['x-member'];
    if (typeof member !== 'string') throw new HttpError(401, ERRORS.unauthorized);
    return { userId: member, isAdmin: false, hasAcceptedTerms: true };
  });
  await app.register(errors);
  await app.register(security, {
    allowedOrigins: [],
    scriptSources: [],
    identityProviderOrigin: 'https://idp.example',
    rateLimits: options.rateLimits,
    redis: options.redis,
    redisKeyPrefix: options.prefix,
    development: false,
  });
  const waiting: Array<() => void> = [];
  let holdUploads = false;
  await app.register(async (scope) => {
    for (const [name, url] of Object.entries(ROUTES) as [MemberLimitName, string][]) {
      scope.post(url, { ...memberLimit(scope, name) }, async (request) => {
        if (name === 'uploads' && holdUploads) await new Promise<void>((resolve) => waiting.push(resolve));
        if (request.headers['x-busy']) throw new HttpError(503, ERRORS.unavailable);
        return { ok: true };
      });
    }
  });
  await app.ready();
  opened.push(app);
  return {
    app,
    hold: () => (holdUploads = true),
    release: () => {
      holdUploads = false;
      for (const resolve of waiting.splice(0)) resolve();
    },
    waiting: () => waiting.length,
  };
}

/** A connected client: the rate limits' client fails commands rather than queueing them while it connects. */
const redisClient = async () => {
  const { logger } = createRecordingLogger();
  const client = openRateLimitRedis(REDIS_URL, logger);
  clients.push(client);
  if (client.status !== 'ready') await once(client, 'ready');
  return client;
};
const post = (app: FastifyInstance, name: MemberLimitName, member?: string) =>
  app.inject({ method: 'POST', url: ROUTES[name], headers: member ? { 'x-member': member } : {} });

describe('per-member limits', () => {
  it.each(['uploads', 'votes', 'avatars', 'faceSuggestions', 'reports'] as const)('%s: a member over their setting gets a 429 with Retry-After; another member is unaffected', async (name) => {
    const setting = { uploads: 'RATE_LIMIT_UPLOADS', votes: 'RATE_LIMIT_VOTES', avatars: 'RATE_LIMIT_AVATARS', faceSuggestions: 'RATE_LIMIT_FACE_SUGGESTIONS', reports: 'RATE_LIMIT_REPORTS' }[name];
    const { app } = await replica({ rateLimits: limits({ [setting]: '3/1m' }), redis: await redisClient(), prefix: `${PREFIX}${randomUUID()}:` });
    for (let i = 0; i < 3; i++) expect((await post(app, name, 'alice')).statusCode).toBe(200);
    const refused = await post(app, name, 'alice');
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ message: MEMBER_LIMIT_MESSAGES[name] });
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect((await post(app, name, 'bob')).statusCode).toBe(200);
  });

  it('counts by member, not by address: two members behind one address each have their own', async () => {
    const { app } = await replica({ rateLimits: limits({ RATE_LIMIT_VOTES: '1/1m' }), prefix: `${PREFIX}${randomUUID()}:` });
    expect((await post(app, 'votes', 'alice')).statusCode).toBe(200);
    expect((await post(app, 'votes', 'bob')).statusCode).toBe(200);
    expect((await post(app, 'votes', 'alice')).statusCode).toBe(429);
  });

  it('is shared through Redis: replicas count one member together', async () => {
    const prefix = `${PREFIX}${randomUUID()}:`;
    const rateLimits = limits({ RATE_LIMIT_UPLOADS: '2/1m' });
    const a = await replica({ rateLimits, redis: await redisClient(), prefix });
    const b = await replica({ rateLimits, redis: await redisClient(), prefix });
    expect((await post(a.app, 'uploads', 'alice')).statusCode).toBe(200);
    expect((await post(b.app, 'uploads', 'alice')).statusCode).toBe(200);
    expect((await post(a.app, 'uploads', 'alice')).statusCode).toBe(429);
    expect((await post(b.app, 'uploads', 'alice')).statusCode).toBe(429);
  });

  it('lets a signed-out caller through to the route’s own 401, uncounted', async () => {
    const { app } = await replica({ rateLimits: limits({ RATE_LIMIT_VOTES: '1/1m' }), prefix: `${PREFIX}${randomUUID()}:` });
    for (let i = 0; i < 3; i++) expect((await post(app, 'votes')).statusCode).toBe(401);
  });

  it('refuses an upload while the member has RATE_LIMIT_UPLOADS_IN_FLIGHT others in progress, and not another member’s', async () => {
    const edge = await replica({ rateLimits: limits({ RATE_LIMIT_UPLOADS_IN_FLIGHT: '2', RATE_LIMIT_UPLOADS: '100/1m' }), prefix: `${PREFIX}${randomUUID()}:` });
    edge.hold();
    const first = [post(edge.app, 'uploads', 'alice'), post(edge.app, 'uploads', 'alice')];
    await expect.poll(() => edge.waiting()).toBe(2);

    const third = await post(edge.app, 'uploads', 'alice');
    expect(third.statusCode).toBe(429);
    expect(third.json()).toEqual({ message: UPLOADS_IN_FLIGHT_MESSAGE });
    expect(third.headers['retry-after']).toBe(String(IN_FLIGHT_RETRY_AFTER_SECONDS));

    const bob = post(edge.app, 'uploads', 'bob');
    await expect.poll(() => edge.waiting()).toBe(3);
    edge.release();
    expect((await Promise.all([...first, bob])).map((r) => r.statusCode)).toEqual([200, 200, 200]);
    // Finished uploads leave the count.
    expect((await post(edge.app, 'uploads', 'alice')).statusCode).toBe(200);
  });

  it('adds Retry-After to a 503 (the image queue full), keeping the gateway’s message', async () => {
    const { app } = await replica({ rateLimits: limits({}), prefix: `${PREFIX}${randomUUID()}:` });
    const busy = await app.inject({ method: 'POST', url: ROUTES.uploads, headers: { 'x-member': 'alice', 'x-busy': '1' } });
    expect(busy.statusCode).toBe(503);
    expect(busy.headers['retry-after']).toBe(String(BUSY_RETRY_AFTER_SECONDS));
    expect(busy.json()).toEqual({ message: ERRORS.unavailable });
  });
});
