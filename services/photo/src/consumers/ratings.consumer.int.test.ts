import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  applyMigrations,
  createBatchConsumer,
  createLogger,
  createMemoryEventBus,
  createOutbox,
  decodeEventOfType,
  makeEvent,
  openDatabase,
  type Database,
  type Envelope,
} from '@snapcracks/kit';
import { createRecordingLogger, createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaPhotoRepository } from '../photo.repository.js';
import { SqlRatingStore } from './ratings.store.js';
import { photoDeletedEvent } from '../photo.service.js';
import { newPhoto } from '../testing/photo.repository.contract.js';
import { RATING_EVENTS, applyRatingEvents, ratingsStatementOf } from './ratings.consumer.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;

beforeAll(async () => {
  database = await createTestDatabase('photo_ratings');
  await applyMigrations({ databaseUrl: database.url, schema: 'photo', migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const cast = (photoId: number, voteCount: number, ratingSum: number, version: number) =>
  makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'voter', rating: 5, voteCount, ratingSum, version }, { source: 'vote' });

const batches = createRecordingLogger('warn');

/** The service's `ratings` consumer (consumeBatchesInOneStatement): the events delivered together in one statement on the pool. */
const ratingsConsumer = () =>
  createBatchConsumer({
    pool: db.pool,
    schema: 'photo',
    consumer: 'photo.ratings',
    maxBatch: 8,
    logger: batches.logger,
    statementOf: (events) => ratingsStatementOf(events.map((event) => decodeEventOfType(event, RATING_EVENTS))),
    deduplicate: false,
  });
let deliver: (event: Envelope) => Promise<void>;
beforeAll(() => {
  deliver = ratingsConsumer();
});

/** The totals in the photo's ratings row, and the photo's own version. */
const ratingOf = async (id: number) => {
  const { voteCount, ratingSum, ratingVersion } = await db.prisma.rating.findUniqueOrThrow({ where: { photoId: id } });
  const { version } = await db.prisma.photo.findUniqueOrThrow({ where: { id }, select: { version: true } });
  return { voteCount, ratingSum, ratingVersion, version };
};
/** The photo's whole row as stored, with the id of the transaction that wrote this version of it. */
const waitingForLocks = async () =>
  Number((await db.pool.query(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`)).rows[0].n);
const photoRowOf = async (id: number) => (await db.pool.query(`SELECT xmin::text AS "writtenBy", * FROM "photo"."photos" WHERE "id" = $1`, [id])).rows[0];

describe('the photo ratings consumer on PostgreSQL', () => {
  it('sets the newest totals and ignores older versions, duplicates and redeliveries, leaving the photo’s own version alone', async () => {
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved', approvedAt: new Date() } });
    const third = cast(id, 3, 11, 3);
    await deliver(third);
    expect(await ratingOf(id)).toEqual({ voteCount: 3, ratingSum: 11, ratingVersion: 3n, version: 1n });
    await deliver(cast(id, 2, 6, 2)); // overtaken
    await deliver(cast(id, 9, 45, 3)); // another event claiming the same version
    await deliver(third); // redelivered
    expect(await ratingOf(id)).toEqual({ voteCount: 3, ratingSum: 11, ratingVersion: 3n, version: 1n });
    await deliver(cast(id, 4, 16, 4));
    expect(await ratingOf(id)).toEqual({ voteCount: 4, ratingSum: 16, ratingVersion: 4n, version: 1n });
  });

  it('changes nothing for a photo that is gone', async () => {
    await deliver(cast(999_998, 1, 5, 1));
    expect(await db.prisma.photoRater.count({ where: { photoId: 999_998 } })).toBe(0);
    expect(await db.prisma.rating.count({ where: { photoId: 999_998 } })).toBe(0);
  });

  it('writes only the narrow ratings row: the photo’s own row is not rewritten', async () => {
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved', approvedAt: new Date() } });
    const before = await photoRowOf(id);
    await deliver(cast(id, 1, 4, 1));
    await deliver(cast(id, 2, 9, 2));
    expect(await ratingOf(id)).toMatchObject({ voteCount: 2, ratingSum: 9, ratingVersion: 2n });
    // Same row version (xmin), same everything: the previous release's columns included, which nothing writes any more.
    expect(await photoRowOf(id)).toEqual(before);
    expect(before).toMatchObject({ vote_count: 0, rating_sum: 0, rating_version: '0' });
  });

  it('leaves no rater behind when the photo is deleted while a batch holds its ratings row', async () => {
    const repository = new PrismaPhotoRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'photo', bus: createMemoryEventBus({ logger }), logger }));
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved', approvedAt: new Date() } });
    let deletion: Promise<unknown> = Promise.resolve();
    await db.prisma.$transaction(async (tx) => {
      await applyRatingEvents([decodeEventOfType(cast(id, 1, 5, 1), RATING_EVENTS)], new SqlRatingStore(tx));
      // The deletion waits for the batch's lock on the ratings row, then takes the rater the batch has committed.
      deletion = repository.delete(id, photoDeletedEvent(new Date()));
      await vi.waitFor(async () => expect(await waitingForLocks()).toBeGreaterThan(0));
    });
    await expect(deletion).resolves.toMatchObject({ id, voteCount: 1, ratingSum: 5 });
    expect(await db.prisma.photoRater.count({ where: { photoId: id } })).toBe(0);
    expect(await db.prisma.rating.count({ where: { photoId: id } })).toBe(0);
    // A vote event that comes after the deletion records nothing.
    await deliver(cast(id, 2, 9, 2));
    expect(await db.prisma.photoRater.count({ where: { photoId: id } })).toBe(0);
  });

  it('leaves no rater behind when the photo is deleted while the batch waits for its ratings row', async () => {
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved', approvedAt: new Date() } });
    const deleting = await db.pool.connect();
    try {
      await deleting.query('BEGIN');
      await deleting.query('DELETE FROM "photo"."photos" WHERE "id" = $1', [id]);
      // The batch's statement starts while the photo (and, by the cascade, its ratings row) is still there to see.
      const delivered = deliver(cast(id, 1, 5, 1));
      await vi.waitFor(async () => expect(await waitingForLocks()).toBeGreaterThan(0));
      await deleting.query('COMMIT');
      await delivered;
    } finally {
      deleting.release();
    }
    expect(await db.prisma.photoRater.count({ where: { photoId: id } })).toBe(0);
  });

  it('keeps the newest totals and every rater when replicas handle batches of votes at once, without deadlocks', async () => {
    const photos = await Promise.all(Array.from({ length: 6 }, () => db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved', approvedAt: new Date() } })));
    // Each photo's votes numbered as the vote service does, handed out shuffled to two replicas, some twice.
    const events = photos.flatMap(({ id }) => Array.from({ length: 20 }, (_, i) => makeEvent('vote.vote.cast', VoteCast, { photoId: id, userId: `voter-${i}`, rating: 5, voteCount: i + 1, ratingSum: 5 * (i + 1), version: i + 1 }, { source: 'vote' })));
    const deliveries = [...events, ...events.filter((_, i) => i % 7 === 0)].sort(() => Math.random() - 0.5);
    const replicas = [ratingsConsumer(), ratingsConsumer()];
    await Promise.all(deliveries.map((event, i) => replicas[i % 2]!(event)));
    for (const { id } of photos) expect(await ratingOf(id)).toEqual({ voteCount: 20, ratingSum: 100, ratingVersion: 20n, version: 1n });
    expect(await db.prisma.photoRater.count({ where: { photoId: { in: photos.map((p) => p.id) } } })).toBe(120);
    expect(batches.records.filter((r) => r.level >= 40)).toEqual([]);
  });
});
