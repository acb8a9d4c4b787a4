import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VoteServiceClient, VoteServiceService, type VoteServiceServer } from '@snapcracks/proto/vote/v1';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { status } from '@grpc/grpc-js';
import { defineService } from '../service-module.js';
import { createNatsEventBus } from '../bus/nats-event-bus.js';
import { makeEvent } from '../bus/event-types.js';
import type { EventBus } from '../bus/event-bus.js';
import type { RunningComponent } from '../component.js';
import { NotFoundError } from '../errors.js';
import { createServiceClient, type ServiceClient } from '../grpc/client.js';
import { IdentityKeyring, IdentitySigner } from '../grpc/identity.js';
import { stubHandlers } from '../testing/stub-handlers.js';
import { inTransaction, poolSqlClient } from '../outbox/pg-sql-client.js';
import { outboxTable } from '../outbox/outbox-table.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, openTestPool, type TestDatabase } from '../testing/postgres.js';
import { createTestStream, type TestStream } from '../testing/nats.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { startMetrics } from './provider.js';
import { startMetricsServer, type MetricsServer } from './server.js';
import { observeOutbox } from './outbox.js';

const SCHEMA = 'vote';
const keys = IdentityKeyring.generate();
const member = { userId: 'u1', isAdmin: false, hasAcceptedTerms: true };
const eventually = { timeout: 15_000, interval: 100 };

/**
 * A service as defineService runs it in production (its pool, outbox relay, gRPC server and a durable consumer on
 * NATS), with metrics on; each test scrapes /metrics and reads the series its calls should have moved.
 */
describe('metrics of a running service', () => {
  const { logger } = createRecordingLogger('error');
  let db: TestDatabase;
  let nats: TestStream;
  let bus: EventBus;
  let service: RunningComponent;
  let client: ServiceClient<VoteServiceClient>;
  let server: MetricsServer;
  let telemetry: { shutdown(): Promise<void> };
  /** Events the consumer fails once each, to be delivered again. */
  const failOnce = new Set<number>([7]);

  beforeAll(async () => {
    telemetry = startMetrics({ component: 'vote', resource: resourceFromAttributes({ 'service.name': 'vote' }) });
    db = await createTestDatabase('metrics');
    await createOutboxTables(db.url, SCHEMA);
    nats = await createTestStream('metrics');
    bus = await createNatsEventBus({ servers: nats.url, stream: nats.stream, subjectPrefix: nats.subjectPrefix, logger, identity: keys, retry: { initialDelayMs: 50, maxDelayMs: 100 } });
    const module = defineService({
      name: 'vote',
      database: { schema: SCHEMA, migrationsDir: '/nonexistent', PrismaClient, poolSize: 3 },
      async setup({ server: grpc, outbox, pool, consume }) {
        grpc.add<VoteServiceServer>(VoteServiceService, stubHandlers<VoteServiceServer>(VoteServiceService, {
          async castVote(request) {
            if (request.photoId === 0) throw new NotFoundError('No such photo');
            await inTransaction(pool, (tx) => outbox.enqueue(tx, makeEvent('vote.vote.cast', VoteCast, { photoId: request.photoId, userId: 'u1', rating: request.rating }, { source: 'vote' })));
            outbox.nudge();
            return { rating: request.rating, averageRating: request.rating, voteCount: 1 };
          },
        }));
        consume('tallies', ['vote.vote.cast'], async (event) => {
          if (failOnce.delete(event.payload.photoId)) throw new Error('not yet');
        });
      },
    });
    service = await module.start(
      { nodeEnv: 'test', logger, bus, databaseUrl: db.url, dataDir: '/tmp', identity: keys, addresses: {} },
      { host: '127.0.0.1', port: 0 },
    );
    service.activate?.();
    client = createServiceClient(VoteServiceClient, `127.0.0.1:${service.port}`, { signer: new IdentitySigner(keys, 'gateway'), peer: 'vote' });
    server = await startMetricsServer({ port: 0, host: '127.0.0.1', logger });
  });

  afterAll(async () => {
    client?.close();
    await server?.close();
    await service?.stop();
    await bus?.close();
    await nats?.delete();
    await db?.drop();
    await telemetry?.shutdown();
  });

  async function scrape(): Promise<string> {
    const response = await fetch(`http://127.0.0.1:${server.port}/metrics`);
    expect(response.status).toBe(200);
    return response.text();
  }

  /** The value of the one series named `name` whose labels include `labels` (in the order the exporter writes them). */
  function value(text: string, name: string, labels: string): number | undefined {
    const line = text.split('\n').find((l) => l.startsWith(`${name}{`) && l.includes(labels));
    return line === undefined ? undefined : Number(line.slice(line.lastIndexOf(' ') + 1));
  }

  it('counts gRPC calls by method and status code, served and made, and the events they caused, delivered and redelivered', async () => {
    for (const photoId of [5, 6, 7]) await client.call.castVote({ photoId, rating: 4 }, { caller: member });
    await expect(client.call.castVote({ photoId: 0, rating: 4 }, { caller: member })).rejects.toMatchObject({ code: status.NOT_FOUND });

    const method = 'rpc_service="snapcracks.vote.v1.VoteService",rpc_method="CastVote"';
    await expect.poll(async () => value(await scrape(), 'snapcracks_events_delivered_total', 'component="vote",consumer="vote-tallies",outcome="ok"'), eventually).toBe(3);
    const text = await scrape();
    expect(value(text, 'rpc_server_duration_seconds_count', `component="vote",${method},rpc_grpc_status_code="0"`)).toBe(3);
    expect(value(text, 'rpc_server_duration_seconds_count', `component="vote",${method},rpc_grpc_status_code="5"`)).toBe(1);
    // The caller's side, under the calling component.
    expect(value(text, 'rpc_client_duration_seconds_count', `component="gateway",${method},rpc_grpc_status_code="0"`)).toBe(3);
    expect(value(text, 'rpc_client_duration_seconds_count', `component="gateway",${method},rpc_grpc_status_code="5"`)).toBe(1);
    // Photo 7's event failed once: handed back for a retry, then delivered again and handled.
    expect(value(text, 'snapcracks_events_delivered_total', 'component="vote",consumer="vote-tallies",outcome="retry"')).toBe(1);
    expect(value(text, 'snapcracks_events_redelivered_total', 'component="vote",consumer="vote-tallies"')).toBe(1);
    expect(value(text, 'snapcracks_dead_letters_total', 'consumer="vote-tallies"')).toBeUndefined();
    // Lag is JetStream's count of what the consumer has not been handed: nothing is left.
    expect(value(text, 'snapcracks_consumer_lag', 'component="vote",consumer="vote-tallies"')).toBe(0);
  });

  it('reports the pool: its size, connections by state, callers waiting and how long they waited', async () => {
    const text = await scrape();
    expect(value(text, 'snapcracks_db_pool_max', 'component="vote"')).toBe(3);
    const idle = value(text, 'snapcracks_db_pool_connections', 'component="vote",state="idle"');
    const used = value(text, 'snapcracks_db_pool_connections', 'component="vote",state="used"');
    expect(idle! + used!).toBeGreaterThanOrEqual(1);
    expect(idle! + used!).toBeLessThanOrEqual(3);
    expect(value(text, 'snapcracks_db_pool_waiting', 'component="vote"')).toBe(0);
    // Every statement waited for its connection (the votes' transactions, the relay's claims, the consumer's records).
    expect(value(text, 'snapcracks_db_pool_wait_seconds_count', 'component="vote"')).toBeGreaterThanOrEqual(3);
    expect(value(text, 'snapcracks_db_pool_wait_seconds_bucket', 'component="vote",le="+Inf"')).toBe(value(text, 'snapcracks_db_pool_wait_seconds_count', 'component="vote"'));
  });

  it('reports the outbox backlog and the age of its oldest row', async () => {
    // Rows left unpublished in an outbox nobody relays: the same statement the relay's outbox is measured with.
    const pool = openTestPool(db.url);
    try {
      await createOutboxTables(db.url, 'stalled');
      const table = outboxTable('stalled');
      for (const photoId of [1, 2]) await table.insert(poolSqlClient(pool), makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 1 }, { source: 'vote' }));
      const unobserve = observeOutbox(poolSqlClient(pool), { schema: 'stalled', component: 'stalled' });
      try {
        await new Promise((resolve) => setTimeout(resolve, 1_100));
        const text = await scrape();
        expect(value(text, 'snapcracks_outbox_backlog', 'component="stalled"')).toBe(2);
        expect(value(text, 'snapcracks_outbox_oldest_age_seconds', 'component="stalled"')).toBeGreaterThanOrEqual(1);
        // The service's own outbox is reported while its relay runs (its value is read at most every 10 s).
        expect(value(text, 'snapcracks_outbox_backlog', 'component="vote"')).toBeGreaterThanOrEqual(0);
        expect(value(text, 'snapcracks_outbox_oldest_age_seconds', 'component="vote"')).toBeGreaterThanOrEqual(0);
      } finally {
        unobserve();
      }
    } finally {
      await pool.end();
    }
  });
});
