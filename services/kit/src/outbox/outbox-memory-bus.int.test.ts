import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { VoteCast, type Envelope } from '@snapcracks/proto/events/v1';
import { createMemoryEventBus } from '../bus/memory-event-bus.js';
import { makeEvent } from '../bus/event-types.js';
import type { EventBus, Subscription } from '../bus/event-bus.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, openTestPool, type TestDatabase } from '../testing/postgres.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { consumeIdempotently } from './consume-idempotently.js';
import { createBatchConsumer } from './consume-batch.js';
import { poolSqlClient } from './pg-sql-client.js';
import type { SqlClient } from './sql-client.js';
import { createOutbox, type Outbox } from './outbox.js';

const PRODUCER = 'vote';
const CONSUMER = 'stats';
const eventually = { timeout: 20_000, interval: 25 };

/**
 * The all-in-one default: producer and consumer in one process on the in-process bus. A process that stops
 * (or dies) while events are in flight must lose none of them: rows count as published only once every
 * consumer has handled them, and the next start sends the rest, each handled once.
 */
// As services run them: a Prisma consumer (`consume`) with the relay on Prisma, and a batch consumer on the pool
// (`consumeBatches`, a few events at once) with the relay on the pool.
describe.each(['prisma', 'pool'] as const)('outbox over the in-process bus (%s)', (mode) => {
  const { logger } = createRecordingLogger('error');
  let db: TestDatabase;
  let producer: PrismaClient;
  let consumer: PrismaClient;
  let pool: pg.Pool;

  beforeEach(async () => {
    db = await createTestDatabase('memory-outbox');
    await createOutboxTables(db.url, PRODUCER);
    await createOutboxTables(db.url, CONSUMER);
    producer = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }, { schema: PRODUCER }) });
    consumer = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }, { schema: CONSUMER }) });
    await consumer.$executeRawUnsafe(`CREATE TABLE "${CONSUMER}"."seen" ("event_id" UUID NOT NULL)`);
    pool = openTestPool(db.url);
  });
  afterEach(async () => {
    await pool.end();
    await producer.$disconnect();
    await consumer.$disconnect();
    await db.drop();
  });

  /** One run of the process: a bus, the consumer subscribed, the producer's relay started. */
  async function startProcess(handlerDelayMs: number): Promise<{ bus: EventBus; outbox: Outbox; subscription: Subscription; stop(): Promise<void> }> {
    const bus = createMemoryEventBus({ logger });
    const note = async (tx: SqlClient, event: Envelope) => {
      await new Promise((resolve) => setTimeout(resolve, handlerDelayMs));
      await tx.$executeRawUnsafe(`INSERT INTO "${CONSUMER}"."seen" ("event_id") VALUES ($1::uuid)`, event.id);
    };
    const handler =
      mode === 'prisma'
        ? (event: Envelope) =>
            consumeIdempotently({ prisma: consumer, schema: CONSUMER, consumer: 'stats.votes', event, handle: (tx) => note(tx, event) }).then(() => undefined)
        : createBatchConsumer({
            pool,
            schema: CONSUMER,
            consumer: 'stats.votes',
            maxBatch: 3,
            logger,
            handle: async (events, tx) => {
              for (const event of events) await note(tx, event);
            },
          });
    const concurrency = mode === 'prisma' ? 1 : 6;
    const subscription = await bus.subscribe(handler, { durable: 'stats-votes', types: ['vote.vote.cast'], concurrency });
    const relayDb = mode === 'prisma' ? producer : poolSqlClient(pool);
    const outbox = createOutbox({ db: relayDb, schema: PRODUCER, bus, logger, stopGraceMs: 50 });
    outbox.startRelay();
    return {
      bus,
      outbox,
      subscription,
      async stop() {
        await outbox.stopRelay();
        await subscription.close();
        await bus.close();
      },
    };
  }

  const seen = async () => (await consumer.$queryRawUnsafe<{ event_id: string }[]>(`SELECT "event_id"::text FROM "${CONSUMER}"."seen"`)).map((r) => r.event_id);
  const unpublished = async () => Number((await producer.$queryRawUnsafe<{ n: bigint }[]>(`SELECT count(*) AS n FROM "${PRODUCER}"."outbox" WHERE "published_at" IS NULL`))[0]!.n);

  it('loses nothing when the process stops with events in flight, and handles each once after the restart', async () => {
    const first = await startProcess(20);
    const events = Array.from({ length: 60 }, (_, i) => makeEvent('vote.vote.cast', VoteCast, { photoId: i, userId: 'u1', rating: 5 }, { source: PRODUCER }));
    await producer.$transaction(async (tx) => {
      for (const event of events) await first.outbox.enqueue(tx, event);
    });
    first.outbox.nudge();
    // Stop while the consumer is part-way through.
    await vi.waitFor(async () => expect((await seen()).length).toBeGreaterThan(3), eventually);
    await first.stop();
    const handledBeforeStop = (await seen()).length;
    expect(handledBeforeStop).toBeLessThan(events.length);
    expect(await unpublished()).toBeGreaterThanOrEqual(events.length - handledBeforeStop);

    const second = await startProcess(0);
    try {
      await vi.waitFor(async () => expect(await unpublished()).toBe(0), eventually);
      const handled = await seen();
      expect(handled.sort()).toEqual(events.map((e) => e.id).sort());
    } finally {
      await second.stop();
    }
  });

  it('marks an event published only after the consumer handled it', async () => {
    const run = await startProcess(300);
    try {
      const event = makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'u1', rating: 5 }, { source: PRODUCER });
      await producer.$transaction((tx) => run.outbox.enqueue(tx, event));
      run.outbox.nudge();
      await new Promise((resolve) => setTimeout(resolve, 150));
      expect(await unpublished()).toBe(1);
      await vi.waitFor(async () => expect(await unpublished()).toBe(0), eventually);
      expect(await seen()).toEqual([event.id]);
    } finally {
      await run.stop();
    }
  });
});
