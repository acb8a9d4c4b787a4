import { afterEach, describe, expect, it } from 'vitest';
import { credentials, Metadata, status } from '@grpc/grpc-js';
import { VoteServiceClient, VoteServiceService, type VoteServiceServer } from '@snapcracks/proto/vote/v1';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@snapcracks/proto/health/v1';
import { pino } from 'pino';
import { GrpcServer } from './server.js';
import { createServiceClient } from './client.js';
import { stubHandlers } from '../testing/stub-handlers.js';
import { IdentityKeyring, IdentitySigner } from './identity.js';
import { InvalidArgumentError } from '../errors.js';
import { requireMember } from './authorize.js';
import { ROOT_CONTEXT, context, trace } from '@opentelemetry/api';
import { startTelemetry } from '../telemetry.js';

const keys = IdentityKeyring.generate();
const logger = pino({ level: 'silent' });
const member = { userId: 'u1', isAdmin: false, hasAcceptedTerms: true };
let seenTraceId: string | undefined;

function voteServer() {
  const handlers = stubHandlers<VoteServiceServer>(VoteServiceService, {
    async castVote(request, ctx) {
      const caller = requireMember(ctx);
      if (request.rating < 1 || request.rating > 5) throw new InvalidArgumentError('Rating must be between 1 and 5');
      return { rating: request.rating, averageRating: request.rating, voteCount: caller.userId === 'u1' ? 1 : 0 };
    },
    async getMyVote(request) {
      if (request.photoId === 42) {
        seenTraceId = trace.getActiveSpan()?.spanContext().traceId;
        return {};
      }
      throw new Error('database exploded: password=hunter2');
    },
  });
  return new GrpcServer({ name: 'vote', signer: new IdentitySigner(keys, 'vote'), logger }).add<VoteServiceServer>(VoteServiceService, handlers);
}

const servers: GrpcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(100)));
});

async function start() {
  const server = voteServer();
  servers.push(server);
  const port = await server.start('127.0.0.1', 0);
  return { server, address: `127.0.0.1:${port}` };
}

describe('GrpcServer', () => {
  it('serves a call carrying a correctly signed identity', async () => {
    const { address } = await start();
    const client = createServiceClient(VoteServiceClient, address, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    await expect(client.call.castVote({ photoId: 1, rating: 4 }, { caller: member })).resolves.toEqual({ rating: 4, averageRating: 4, voteCount: 1 });
    client.close();
  });

  it('refuses a forged identity with UNAUTHENTICATED', async () => {
    const { address } = await start();
    const forger = createServiceClient(VoteServiceClient, address, { signer: new IdentitySigner(IdentityKeyring.generate(), 'gateway'), peer: 'vote' });
    await expect(forger.call.castVote({ photoId: 1, rating: 4 }, { caller: { ...member, isAdmin: true } })).rejects.toMatchObject({
      code: status.UNAUTHENTICATED,
    });
    forger.close();
  });

  it('refuses a call without any identity', async () => {
    const { address } = await start();
    const raw = new VoteServiceClient(address, credentials.createInsecure());
    const error = await new Promise((resolve) => raw.castVote({ photoId: 1, rating: 4 }, new Metadata(), (e) => resolve(e)));
    expect(error).toMatchObject({ code: status.UNAUTHENTICATED });
    raw.close();
  });

  it('maps domain errors to their status and hides unexpected ones', async () => {
    const { address } = await start();
    const client = createServiceClient(VoteServiceClient, address, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    await expect(client.call.castVote({ photoId: 1, rating: 9 }, { caller: member })).rejects.toMatchObject({
      code: status.INVALID_ARGUMENT,
      details: 'Rating must be between 1 and 5',
    });
    await expect(client.call.castVote({ photoId: 1, rating: 3 }, { caller: null })).rejects.toMatchObject({ code: status.UNAUTHENTICATED });
    await expect(client.call.getMyVote({ photoId: 1 }, { caller: member })).rejects.toMatchObject({ code: status.INTERNAL, details: 'Internal error' });
    client.close();
  });

  it('continues the caller\'s trace on the server', async () => {
    startTelemetry('test');
    const { address } = await start();
    const client = createServiceClient(VoteServiceClient, address, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const parent = trace.setSpanContext(ROOT_CONTEXT, { traceId, spanId: '00f067aa0ba902b7', traceFlags: 1 });
    await context.with(parent, () => client.call.getMyVote({ photoId: 42 }, { caller: member }));
    expect(seenTraceId).toBe(traceId);
    client.close();
  });

  it('reports health NOT_SERVING until started and again while draining', async () => {
    const server = voteServer();
    const port = await server.start('127.0.0.1', 0);
    const health = new HealthClient(`127.0.0.1:${port}`, credentials.createInsecure());
    const check = (service: string) =>
      new Promise<number>((resolve, reject) => health.check({ service }, (error, response) => (error ? reject(error) : resolve(response.status))));
    expect(await check('')).toBe(HealthCheckResponse_ServingStatus.SERVING);
    expect(await check('snapcracks.vote.v1.VoteService')).toBe(HealthCheckResponse_ServingStatus.SERVING);
    server.setServing(false);
    expect(await check('')).toBe(HealthCheckResponse_ServingStatus.NOT_SERVING);
    health.close();
    await server.shutdown(100);
  });
});
