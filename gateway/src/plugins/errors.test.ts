import { ERRORS } from '@snapcracks/http-contract';
import { Writable } from 'node:stream';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import errors from './errors.js';

/** A refusal as the gRPC client raises it. */
function serviceError(code: status, details: string): ServiceError {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: new Metadata() });
}

const logLines: Record<string, unknown>[] = [];
let app: FastifyInstance;

beforeAll(async () => {
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(JSON.parse(chunk.toString()) as Record<string, unknown>);
      done();
    },
  });
  app = Fastify({ loggerInstance: pino({ level: 'info' }, sink) as FastifyBaseLogger });
  await app.register(errors);
  app.get<{ Querystring: { code: string; details: string } }>('/refuse', async (request) => {
    throw serviceError(Number(request.query.code) as status, request.query.details);
  });
  // What pg raises when the gateway's own database (sessions) restarts or refuses connections.
  app.get<{ Querystring: { code: string } }>('/database', async (request) => {
    throw Object.assign(new Error('terminating connection due to administrator command'), { code: request.query.code });
  });
  app.get('/bug', async () => {
    throw new TypeError('x is undefined');
  });
  await app.ready();
});
afterAll(() => app.close());

const refuse = (code: status, details: string) => app.inject({ method: 'GET', url: '/refuse', query: { code: String(code), details } });

describe('refusals from services', () => {
  it('never show a browser why a service did not believe the caller: the generic text, the reason in the log', async () => {
    const unauthenticated = await refuse(status.UNAUTHENTICATED, 'stale caller identity');
    expect(unauthenticated.statusCode).toBe(401);
    expect(unauthenticated.json()).toEqual({ message: ERRORS.unauthorized });

    const denied = await refuse(status.PERMISSION_DENIED, 'Only gateway or photo may call this');
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ message: ERRORS.forbidden });
    expect(denied.body).not.toContain('gateway');

    const bare = await refuse(status.UNAUTHENTICATED, 'Refused');
    expect(bare.json()).toEqual({ message: ERRORS.unauthorized });

    const logged = logLines.map((line) => line.details);
    expect(logged).toEqual(expect.arrayContaining(['stale caller identity', 'Only gateway or photo may call this', 'Refused']));
  });

  it("keep the product's own refusals, which a person can act on", async () => {
    for (const text of [ERRORS.termsRequired, ERRORS.adminOnly, 'You cannot vote on your own photo', 'Admin accounts cannot be deleted']) {
      const response = await refuse(status.PERMISSION_DENIED, text);
      expect(response.statusCode).toBe(403);
      expect(response.json()).toEqual({ message: text });
    }
  });

  it("keep other 4xx texts as the service gave them (validation, not found)", async () => {
    const invalid = await refuse(status.INVALID_ARGUMENT, 'Description must be 500 characters or less');
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toEqual({ message: 'Description must be 500 characters or less' });
  });
});

describe('the gateway’s own failures', () => {
  it('answer 503, try again, while its database is unreachable for a moment (restart, refused connection)', async () => {
    for (const code of ['57P01', '57P03', 'ECONNREFUSED']) {
      const response = await app.inject({ method: 'GET', url: '/database', query: { code } });
      expect(response.statusCode).toBe(503);
      expect(response.json()).toEqual({ message: ERRORS.unavailable });
    }
  });

  it('answer 500 with the generic text for anything else', async () => {
    const response = await app.inject({ method: 'GET', url: '/bug' });
    expect(response.statusCode).toBe(500);
    expect(response.json()).toEqual({ message: ERRORS.internal });
  });
});
