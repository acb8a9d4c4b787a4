import { afterEach, describe, expect, it } from 'vitest';
import { VoteServiceClient, VoteServiceService, type VoteServiceServer } from '@snapcracks/proto/vote/v1';
import { pino } from 'pino';
import { GrpcServer } from './server.js';
import { createServiceClient } from './client.js';
import { stubHandlers } from '../testing/stub-handlers.js';
import { IdentityKeyring, IdentitySigner } from './identity.js';

const keys = IdentityKeyring.generate();
const logger = pino({ level: 'silent' });
const member = { userId: 'u1', isAdmin: false, hasAcceptedTerms: true };
const servers: GrpcServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.shutdown(100)));
});

/** A vote replica that counts the calls it serves. */
async function replica(options: { maxConnectionAgeMs?: number } = {}) {
  const served = { calls: 0 };
  const handlers = stubHandlers<VoteServiceServer>(VoteServiceService, {
    async castVote(request) {
      served.calls += 1;
      return { rating: request.rating, averageRating: request.rating, voteCount: 1 };
    },
  });
  const server = new GrpcServer({ name: 'vote', signer: new IdentitySigner(keys, 'vote'), logger, ...options }).add<VoteServiceServer>(VoteServiceService, handlers);
  servers.push(server);
  const port = await server.start('127.0.0.1', 0);
  return { served, port };
}

describe('calls over several replicas', () => {
  it('spreads one client’s calls over every address its target resolves to', async () => {
    const [a, b] = await Promise.all([replica(), replica()]);
    const client = createServiceClient(VoteServiceClient, `ipv4:127.0.0.1:${a.port},127.0.0.1:${b.port}`, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    for (let i = 0; i < 40; i++) await client.call.castVote({ photoId: 1, rating: 3 }, { caller: member });
    client.close();
    expect(a.served.calls + b.served.calls).toBe(40);
    // Round-robin: each replica gets its turn, not all calls on the first connection.
    expect(a.served.calls).toBeGreaterThanOrEqual(15);
    expect(b.served.calls).toBeGreaterThanOrEqual(15);
  });

  it('keeps serving a client across the server’s maximum connection age', async () => {
    const a = await replica({ maxConnectionAgeMs: 200 });
    const client = createServiceClient(VoteServiceClient, `127.0.0.1:${a.port}`, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    const deadline = Date.now() + 1_000;
    let calls = 0;
    // Calls straddle several connection ends (GOAWAY every 200 ms); none may fail.
    while (Date.now() < deadline) {
      await client.call.castVote({ photoId: 1, rating: 2 }, { caller: member });
      calls += 1;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    client.close();
    expect(a.served.calls).toBe(calls);
  });
});
