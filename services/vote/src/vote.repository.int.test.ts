import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, makeEvent, openDatabase, type Database, type Outbox } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaVoteRepository, type EventsOf, type Pool } from './vote.repository.js';
import { describeVoteRepositoryContract } from './testing/vote.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaVoteRepository;
let outbox: Outbox;

beforeAll(async () => {
  database = await createTestDatabase('vote_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'vote', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'vote', logger });
  outbox = createOutbox({ prisma: db.prisma, schema: 'vote', bus: createMemoryEventBus({ logger }), logger });
  repository = new PrismaVoteRepository(db.prisma, outbox, db.pool);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE vote.photo_votes, vote.photo_ratings, vote.votable_photos, vote.outbox RESTART IDENTITY');
});

describeVoteRepositoryContract('PrismaVoteRepository', {
  repository: () => repository,
  votablePhotos: () => PrismaVoteRepository.votablePhotos(db.prisma),
  voters: () => PrismaVoteRepository.voters(db.prisma, outbox),
  eventTypes: async () => (await outboxEvents(db.prisma, 'vote')).map((e) => e.type),
});

/**
 * The service's pool, with each statement its clients are sent going through `intercept` first (which may answer
 * instead). Only through connect(), as batches use it: the pool's own query() is not intercepted.
 */
function interceptingPool(pool: Pool, intercept: (query: string | { name?: string; text: string }) => Promise<never> | undefined): Pool {
  const connect = async () => {
    const client = await pool.connect();
    return new Proxy(client, {
      get(target, key, receiver) {
        if (key !== 'query') return Reflect.get(target, key, receiver) as unknown;
        return (query: string | { name?: string; text: string }, ...rest: unknown[]) =>
          intercept(query) ?? (target.query as (...args: unknown[]) => unknown)(query, ...rest);
      },
    });
  };
  return new Proxy(pool, { get: (target, key, receiver) => (key === 'connect' ? connect : (Reflect.get(target, key, receiver) as unknown)) });
}

/** The service's pool, except that the next `failures` vote batches fail with the given PostgreSQL error code. */
function failingPool(pool: Pool, code: string, failures: number): Pool {
  let left = failures;
  return interceptingPool(pool, (query) => {
    if (typeof query !== 'object' || query.name !== 'vote_cast_batch' || left === 0) return undefined;
    left -= 1;
    return Promise.reject(Object.assign(new Error(`simulated ${code}`), { code }));
  });
}

/** The service's pool, recording each statement its clients are sent (a named statement by its name). */
function recordingPool(pool: Pool, sent: string[]): Pool {
  return interceptingPool(pool, (query) => {
    sent.push(typeof query === 'string' ? query : (query.name ?? query.text));
    return undefined;
  });
}

describe('PrismaVoteRepository batches', () => {
  const eventOf: EventsOf = (cast) => [
    makeEvent('vote.vote.cast', VoteCast, { photoId: cast.photoId, userId: cast.userId, rating: cast.rating, ...cast.totals }, { source: 'test' }),
  ];
  const approve = (photoId: number) => PrismaVoteRepository.votablePhotos(db.prisma).saveIfNewer({ photoId, ownerId: 'owner', approved: true, deleted: false, version: 2 });
  /** Events in the outbox (a batch's share one row). */
  const outboxCount = async () => (await outboxEvents(db.prisma, 'vote')).length;

  it('runs a batch again after a deadlock or a serialization failure, storing each vote once', async () => {
    await approve(1);
    const retrying = new PrismaVoteRepository(db.prisma, outbox, failingPool(db.pool, '40P01', 2));
    const results = await Promise.all(['a', 'b', 'c'].map((userId) => retrying.cast({ photoId: 1, userId, rating: 4 }, eventOf)));
    expect(results.map((r) => r?.totals.voteCount).sort()).toEqual([1, 2, 3]);
    expect(await retrying.totals(1)).toEqual({ voteCount: 3, ratingSum: 12, version: 3 });
    expect(await outboxCount()).toBe(3);
  });

  it('casts a member’s repeated votes on a photo in one statement, answering each as if cast one by one', async () => {
    await approve(1);
    const sent: string[] = [];
    const recording = new PrismaVoteRepository(db.prisma, outbox, recordingPool(db.pool, sent));
    const votes = [
      { userId: 'a', rating: 1 },
      { userId: 'b', rating: 5 },
      { userId: 'a', rating: 2 },
      { userId: 'a', rating: 4 },
    ];
    const results = await Promise.all(votes.map((vote) => recording.cast({ photoId: 1, ...vote }, eventOf)));
    // The cast (a's row changed once, to their last rating), then the events' one insert — in one transaction.
    expect(sent).toEqual(['BEGIN', 'vote_cast_batch', expect.any(String), 'COMMIT']);
    expect(results.map((r) => [r!.rating, r!.previousRating, r!.totals])).toEqual([
      [1, null, { voteCount: 1, ratingSum: 1, version: 1 }],
      [5, null, { voteCount: 2, ratingSum: 6, version: 2 }],
      [2, 1, { voteCount: 2, ratingSum: 7, version: 3 }],
      [4, 2, { voteCount: 2, ratingSum: 9, version: 4 }],
    ]);
    expect(await repository.findRating(1, 'a')).toBe(4);
    expect(await repository.totals(1)).toEqual({ voteCount: 2, ratingSum: 9, version: 4 });
    // The events go out in the order the votes were applied: the photo's versions rise along the outbox.
    expect((await outboxEvents(db.prisma, 'vote')).map((e) => VoteCast.decode(e.payload).version)).toEqual([1, 2, 3, 4]);
  });

  it('answers repeats over an earlier vote, across photos and beside a refused vote, in the batch’s order', async () => {
    await approve(1);
    await approve(2);
    await repository.cast({ photoId: 1, userId: 'a', rating: 3 }, eventOf);
    const batch = [
      { photoId: 1, userId: 'a', rating: 5 },
      { photoId: 1, userId: 'owner', rating: 4 },
      { photoId: 2, userId: 'a', rating: 2 },
      { photoId: 1, userId: 'b', rating: 1 },
      { photoId: 1, userId: 'a', rating: 1 },
      { photoId: 2, userId: 'a', rating: 4 },
    ];
    const results = await Promise.all(batch.map((vote) => repository.cast(vote, eventOf)));
    expect(results.map((r) => r && [r.photoId, r.rating, r.previousRating, r.totals])).toEqual([
      [1, 5, 3, { voteCount: 1, ratingSum: 5, version: 2 }],
      null,
      [2, 2, null, { voteCount: 1, ratingSum: 2, version: 1 }],
      [1, 1, null, { voteCount: 2, ratingSum: 6, version: 3 }],
      [1, 1, 5, { voteCount: 2, ratingSum: 2, version: 4 }],
      [2, 4, 2, { voteCount: 1, ratingSum: 4, version: 2 }],
    ]);
    expect(await repository.totals(1)).toEqual({ voteCount: 2, ratingSum: 2, version: 4 });
    expect(await repository.totals(2)).toEqual({ voteCount: 1, ratingSum: 4, version: 2 });
    expect([await repository.findRating(1, 'a'), await repository.findRating(2, 'a')]).toEqual([1, 4]);
    const events = (await outboxEvents(db.prisma, 'vote')).map((e) => VoteCast.decode(e.payload));
    expect(events.map((e) => [e.photoId, e.rating, e.version])).toEqual([
      [1, 3, 1],
      [1, 5, 2],
      [2, 2, 1],
      [1, 1, 3],
      [1, 1, 4],
      [2, 4, 2],
    ]);
  });

  it('stays exact with two replicas casting batches on the same photos at once', async () => {
    await approve(1);
    await approve(2);
    const replicas = [new PrismaVoteRepository(db.prisma, outbox, db.pool), new PrismaVoteRepository(db.prisma, outbox, db.pool)];
    // 120 votes over 2 photos from 30 members, each member voting four times on one photo, through both replicas.
    const sent = Array.from({ length: 120 }, (_, i) => ({ photoId: 1 + (i % 2), userId: `m${i % 30}`, rating: 1 + ((i * 7) % 5) }));
    const results = await Promise.all(sent.map((vote, i) => replicas[Math.floor(i / 30) % 2]!.cast(vote, eventOf)));
    const rows = await db.prisma.photoVote.findMany();
    for (const photoId of [1, 2]) {
      const mine = rows.filter((r) => Number(r.photoId) === photoId);
      expect(await replicas[0]!.totals(photoId)).toEqual({ voteCount: mine.length, ratingSum: mine.reduce((sum, r) => sum + r.rating, 0), version: 60 });
      // Every vote got its own version, and in version order each one's totals are the previous ones moved by it.
      const chain = results.filter((r) => r!.photoId === photoId).sort((a, b) => a!.totals.version - b!.totals.version);
      expect(chain.map((r) => r!.totals.version)).toEqual(Array.from({ length: 60 }, (_, i) => i + 1));
      let count = 0;
      let sum = 0;
      for (const r of chain) {
        count += r!.previousRating === null ? 1 : 0;
        sum += r!.rating - (r!.previousRating ?? 0);
        expect(r!.totals).toMatchObject({ voteCount: count, ratingSum: sum });
      }
    }
    expect(await outboxCount()).toBe(120);
  });

  it('fails the votes of a batch that fails otherwise, changing nothing, and goes on with the next', async () => {
    await approve(1);
    const failing = new PrismaVoteRepository(db.prisma, outbox, failingPool(db.pool, '40P01', 3));
    await expect(failing.cast({ photoId: 1, userId: 'a', rating: 4 }, eventOf)).rejects.toMatchObject({ code: '40P01' });
    const broken = new PrismaVoteRepository(db.prisma, outbox, failingPool(db.pool, '53300', 1));
    await expect(broken.cast({ photoId: 1, userId: 'a', rating: 4 }, eventOf)).rejects.toMatchObject({ code: '53300' });
    expect(await failing.totals(1)).toBeNull();
    expect(await outboxCount()).toBe(0);
    expect(await broken.cast({ photoId: 1, userId: 'a', rating: 4 }, eventOf)).toMatchObject({ totals: { voteCount: 1, ratingSum: 4, version: 1 } });
  });
});
