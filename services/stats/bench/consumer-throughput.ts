/**
 * How many vote.vote.cast events per second the stats consumer handles, the way the kit runs it (consumeIdempotently:
 * one transaction per event recording its id), on a fresh database of the local PostgreSQL:
 *   pnpm exec tsx services/stats/bench/consumer-throughput.ts [events] [concurrency...]
 * A NATS durable consumer hands one event at a time to each replica, so concurrency 1 is one replica; more is more
 * replicas (or the photo and vote consumers at once). `hot` puts every photo in one counter shard, to see what the
 * sharding saves. Each run is compared with the kit's own cost: the same transactions with a handler that does nothing.
 * `pool` runs the same store and the same record of the event id in a transaction on the pg pool instead of Prisma's
 * interactive transaction: what the kit's consumers could reach on the pool, and the database's own limits (the hot
 * row) without Prisma's per-query cost. E.g. `... 6000 1 4 8 8hot 8pool 8poolhot`.
 */
import { fileURLToPath } from 'node:url';
import { randomUUID } from 'node:crypto';
import { applyMigrations, consumeIdempotently, createLogger, decodeEventOfType, openDatabase, type Envelope, type SqlClient } from '@snapcracks/kit';
import { createTestDatabase } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PrismaClient } from '../src/generated/prisma/client.js';
import { COUNTER_SHARDS } from '../src/stats.projection.js';
import { PrismaStatsRepository } from '../src/stats.repository.js';
import { SqlProjectionStore } from '../src/projection.store.js';
import { cast, reviewed, uploaded } from '../src/testing/events.js';
import { deliver } from '../src/testing/deliver.js';
import { VOTE_EVENTS, applyVoteEvent } from '../src/consumers/votes.consumer.js';

const [eventsArg = '6000', ...concurrencyArgs] = process.argv.slice(2);
const total = Number(eventsArg);
const concurrencies = (concurrencyArgs.length ? concurrencyArgs : ['1', '4', '8', '8hot', '8pool', '8poolhot']).map((c) => ({
  workers: parseInt(c, 10),
  hot: c.endsWith('hot'),
  pool: c.includes('pool'),
}));
const PHOTOS = 1_000;

const database = await createTestDatabase('stats_bench');
try {
  await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger: createLogger('bench', 'silent'), max: 8 });
  const repository = new PrismaStatsRepository(db.prisma);
  const run = async (workers: number, count: number, handle: (i: number) => Promise<unknown>) => {
    let next = 0;
    const started = process.hrtime.bigint();
    await Promise.all(
      Array.from({ length: workers }, async () => {
        while (next < count) await handle(next++);
      }),
    );
    return Number(process.hrtime.bigint() - started) / 1e9;
  };
  // Approved photos to vote on: spread over the shards, and (for `hot`) all in shard 0.
  const spread = Array.from({ length: PHOTOS }, (_, i) => i + 1);
  const hotIds = Array.from({ length: PHOTOS }, (_, i) => (PHOTOS + i + 1) * COUNTER_SHARDS);
  const seed = [...spread, ...hotIds].flatMap((photoId) => [
    uploaded({ photoId, ownerId: `owner-${photoId % 50}` }),
    reviewed({ photoId, ownerId: `owner-${photoId % 50}`, status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 2 }, new Date()),
  ]);
  await run(1, seed.length, (i) => deliver(db.prisma, seed[i]!));
  const versions = new Map<number, number>();
  /** One event in a transaction on the pool: its id recorded as the kit does, then the handler. */
  const onPool = async (event: Envelope, handle: boolean) => {
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      const sql: SqlClient = {
        $executeRawUnsafe: async (query: string, ...values: unknown[]) => (await client.query(query, values)).rowCount ?? 0,
        $queryRawUnsafe: async <T>(query: string, ...values: unknown[]) => (await client.query(query, values)).rows as T,
      };
      await client.query('INSERT INTO "stats"."processed_events" ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING', ['stats.votes', event.id]);
      if (handle) await applyVoteEvent(decodeEventOfType(event, VOTE_EVENTS), new SqlProjectionStore(sql));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw error;
    } finally {
      client.release();
    }
  };
  for (const { workers, hot, pool } of concurrencies) {
    const floor = await run(workers, total, () =>
      pool
        ? onPool(cast(1, { voteCount: 1, ratingSum: 1, version: 1 }), false)
        : consumeIdempotently({ prisma: db.prisma, schema: 'stats', consumer: 'stats.floor', event: { id: randomUUID() }, handle: async () => {} }),
    );
    const ids = hot ? hotIds : spread;
    const events: Envelope[] = Array.from({ length: total }, (_, i) => {
      const photoId = ids[(i * 7919) % ids.length]!;
      const version = (versions.get(photoId) ?? 0) + 1;
      versions.set(photoId, version);
      return cast(photoId, { voteCount: version, ratingSum: 4 * version + (i % 3) - 1, version });
    });
    const seconds = await run(workers, events.length, (i) => (pool ? onPool(events[i]!, true) : deliver(db.prisma, events[i]!)));
    const figures = await repository.communityFigures();
    const recount = await repository.countFiguresFromRows();
    const exact = JSON.stringify(figures) === JSON.stringify(recount);
    console.log(
      `${workers} at once${pool ? ' on the pool' : ''}${hot ? ', one shard' : ''}: ${total} events in ${seconds.toFixed(2)} s = ${Math.round(total / seconds)} events/s ` +
        `(counters ${exact ? 'exact' : 'WRONG'}); the kit alone: ${Math.round(total / floor)} events/s`,
    );
  }
  await db.close();
} finally {
  await database.drop();
}
