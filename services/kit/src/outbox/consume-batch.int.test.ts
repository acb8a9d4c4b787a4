import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { VoteCast, type Envelope } from '@snapcracks/proto/events/v1';
import { makeEvent } from '../bus/event-types.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, openTestPool, type TestDatabase } from '../testing/postgres.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { createBatchConsumer } from './consume-batch.js';
import type { PgTransaction } from './pg-sql-client.js';

const SCHEMA = 'svc';
const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });

describe('createBatchConsumer', () => {
  const { logger } = createRecordingLogger('error');
  let db: TestDatabase;
  let pool: pg.Pool;

  beforeEach(async () => {
    db = await createTestDatabase('consume_batch');
    await createOutboxTables(db.url, SCHEMA);
    pool = openTestPool(db.url);
    await pool.query(`CREATE TABLE "${SCHEMA}"."votes_seen" ("event_id" UUID NOT NULL)`);
  });
  afterEach(async () => {
    await pool.end();
    await db.drop();
  });

  /** The reaction under test: notes each event in the consumer's own table, in the batch's transaction; counts its calls. */
  function noting(fail?: (event: Envelope) => boolean) {
    const batches: string[][] = [];
    const handle = async (events: Envelope[], tx: PgTransaction) => {
      batches.push(events.map((e) => e.id));
      for (const event of events) {
        await tx.$executeRawUnsafe(`INSERT INTO "${SCHEMA}"."votes_seen" ("event_id") VALUES ($1::uuid)`, event.id);
        if (fail?.(event)) throw new Error(`cannot handle ${event.id}`);
      }
    };
    return { batches, handle };
  }
  const seen = async () => (await pool.query<{ event_id: string }>(`SELECT "event_id"::text FROM "${SCHEMA}"."votes_seen"`)).rows.map((r) => r.event_id).sort();
  const recorded = async (consumer: string) =>
    (await pool.query<{ event_id: string }>(`SELECT "event_id"::text FROM "${SCHEMA}"."processed_events" WHERE "consumer" = $1`, [consumer])).rows.map((r) => r.event_id).sort();
  const ids = (events: Envelope[]) => events.map((e) => e.id).sort();

  it('handles the events delivered together in a few transactions, each event once per consumer however often it comes', async () => {
    const { batches, handle } = noting();
    const consume = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', handle, maxBatch: 10, logger });
    const events = Array.from({ length: 25 }, (_, i) => voteCast(i));
    // Each event twice at once (a redelivery racing the first delivery), then all again later.
    await Promise.all([...events, ...events].map(consume));
    await Promise.all(events.map(consume));
    expect(await seen()).toEqual(ids(events));
    expect(await recorded('stats.votes')).toEqual(ids(events));
    expect(batches.length).toBeLessThanOrEqual(5); // 50 deliveries, at most 10 per transaction; the repeats handle nothing
    expect(batches.flat().sort()).toEqual(ids(events));

    // Another consumer of the same events handles them for itself.
    const photo = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'photo.ratings', handle: noting().handle, logger });
    await Promise.all(events.map(photo));
    expect(await recorded('photo.ratings')).toEqual(ids(events));
  });

  it('falls back to one event per transaction when a batch fails, so a bad event fails alone and records nothing', async () => {
    const events = Array.from({ length: 6 }, (_, i) => voteCast(i));
    const poison = events[3]!;
    const { batches, handle } = noting((event) => event.id === poison.id);
    const consume = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', handle, logger });
    const outcomes = await Promise.allSettled(events.map(consume));
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect((outcomes[3] as PromiseRejectedResult).reason).toMatchObject({ message: `cannot handle ${poison.id}` });
    const good = events.filter((e) => e !== poison);
    expect(await seen()).toEqual(ids(good));
    expect(await recorded('stats.votes')).toEqual(ids(good));
    expect(batches[0]).toHaveLength(6); // the whole batch first, rolled back
    // The redelivery of the bad event is handled once it can be.
    const fixed = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', handle: noting().handle, logger });
    await fixed(poison);
    expect(await recorded('stats.votes')).toEqual(ids(events));
  });

  it('handles concurrent duplicate deliveries to separate consumers of one name (replicas) once', async () => {
    const replicas = Array.from({ length: 3 }, () => noting());
    const consumers = replicas.map(({ handle }) => createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', handle, logger }));
    const events = Array.from({ length: 20 }, (_, i) => voteCast(i));
    await Promise.all(consumers.flatMap((consume) => events.map(consume)));
    expect(await seen()).toEqual(ids(events));
    expect(replicas.flatMap((r) => r.batches.flat()).sort()).toEqual(ids(events));
  });

  it('calls afterCommit once a transaction handled new events: not for repeats or a failed batch', async () => {
    let commits = 0;
    const events = Array.from({ length: 4 }, (_, i) => voteCast(i));
    const poison = events[3]!;
    const consume = createBatchConsumer({
      pool,
      schema: SCHEMA,
      consumer: 'support.vote-notices',
      handle: noting((event) => event.id === poison.id).handle,
      afterCommit: () => (commits += 1),
      logger,
    });
    await Promise.all(events.slice(0, 2).map(consume));
    expect(commits).toBe(1); // one batch
    await Promise.all(events.slice(0, 2).map(consume)); // handled before
    expect(commits).toBe(1);
    await expect(consume(poison)).rejects.toThrow(`cannot handle ${poison.id}`);
    expect(commits).toBe(1);
  });

  describe('with the reaction in one statement', () => {
    /**
     * Notes each event with its photo id, which the table refuses below 0 (a bad event); counts its statements. With
     * `deduplicate`, only the ids the kit recorded as new.
     */
    function notingInOneStatement(deduplicate: boolean) {
      const statements: string[][] = [];
      const statementOf = (events: Envelope[]) => {
        statements.push(events.map((e) => e.id));
        const fresh = deduplicate ? 'WHERE e."id" IN (SELECT "event_id" FROM "recorded")' : '';
        return {
          text: `WITH e AS (SELECT * FROM unnest($1::uuid[], $2::int[]) AS e("id", "photo_id") ${fresh})
            INSERT INTO "${SCHEMA}"."votes_seen" ("event_id", "photo_id") SELECT "id", "photo_id" FROM e`,
          values: [events.map((e) => e.id), events.map((e) => VoteCast.decode(e.payload).photoId)],
        };
      };
      return { statements, statementOf };
    }
    beforeEach(async () => {
      await pool.query(`ALTER TABLE "${SCHEMA}"."votes_seen" ADD COLUMN "photo_id" INT CHECK ("photo_id" >= 0)`);
    });

    it('records the events it handles in the same statement, so each is handled once however often and wherever it comes', async () => {
      const replicas = [notingInOneStatement(true), notingInOneStatement(true)];
      const consumers = replicas.map(({ statementOf }) => createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', statementOf, deduplicate: true, maxBatch: 10, logger }));
      const events = Array.from({ length: 30 }, (_, i) => voteCast(i));
      // Every event to both replicas at once, then again to one.
      await Promise.all(consumers.flatMap((consume) => events.map(consume)));
      await Promise.all(events.map(consumers[0]!));
      expect(await seen()).toEqual(ids(events));
      expect(await recorded('stats.votes')).toEqual(ids(events));
      expect(replicas[0]!.statements.length).toBeLessThanOrEqual(8); // 60 deliveries, at most 10 a statement
    });

    it('runs an idempotent statement on every event it is given, and records none', async () => {
      const { statements, statementOf } = notingInOneStatement(false);
      const consume = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'photo.ratings', statementOf, deduplicate: false, logger });
      const events = Array.from({ length: 5 }, (_, i) => voteCast(i));
      await Promise.all(events.map(consume));
      await consume(events[0]!);
      expect(await seen()).toEqual([...ids(events), events[0]!.id].sort());
      expect(await recorded('photo.ratings')).toEqual([]);
      expect(statements.map((s) => s.length)).toEqual([5, 1]);
    });

    it('falls back to one statement an event when a batch fails, so a bad event fails alone and records nothing', async () => {
      const { statementOf } = notingInOneStatement(true);
      const consume = createBatchConsumer({ pool, schema: SCHEMA, consumer: 'stats.votes', statementOf, deduplicate: true, logger });
      const events = [voteCast(1), voteCast(-1), voteCast(2)];
      const outcomes = await Promise.allSettled(events.map(consume));
      expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
      expect((outcomes[1] as PromiseRejectedResult).reason).toMatchObject({ message: expect.stringContaining('check constraint') });
      const good = [events[0]!, events[2]!];
      expect(await seen()).toEqual(ids(good));
      expect(await recorded('stats.votes')).toEqual(ids(good));
    });

    it('refuses a deduplicating statement that does not start with WITH', async () => {
      const consume = createBatchConsumer({
        pool,
        schema: SCHEMA,
        consumer: 'stats.votes',
        statementOf: () => ({ text: `INSERT INTO "${SCHEMA}"."votes_seen" ("event_id") SELECT "event_id" FROM "recorded"`, values: [] }),
        deduplicate: true,
        logger,
      });
      await expect(consume(voteCast(1))).rejects.toThrow('starts with WITH');
      expect(await seen()).toEqual([]);
      expect(await recorded('stats.votes')).toEqual([]);
    });
  });
});
