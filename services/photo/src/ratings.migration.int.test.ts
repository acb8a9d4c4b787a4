import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, inTransaction, makeEvent, openDatabase, type Database } from '@snapcracks/kit';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PgGalleryRepository } from './gallery.pg-repository.js';
import { SqlRatingStore } from './consumers/ratings.store.js';
import { RATING_EVENTS, applyRatingEvents } from './consumers/ratings.consumer.js';

/**
 * The photo_ratings migration over a database the previous migrations filled, and the previous release's pods writing
 * their rating columns of photos during a rolling upgrade (their statements, copied here as they ran).
 */

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

// The previous release's ratings consumer (a batch: its photos locked in id order, then every newer total set) and its
// refresh of the top-rated prior.
const PREVIOUS_LOCK = `SELECT "id" FROM "photo"."photos" WHERE "id" = ANY($1::int[]) ORDER BY "id" FOR NO KEY UPDATE`;
const PREVIOUS_SET_MANY = `
  UPDATE "photo"."photos" p SET "vote_count" = t."vote_count", "rating_sum" = t."rating_sum", "rating_version" = t."version"
  FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[]) AS t("id", "vote_count", "rating_sum", "version")
  WHERE p."id" = t."id" AND p."rating_version" < t."version"`;
const PREVIOUS_RESCORE = `
  UPDATE "photo"."photos" p SET "score" = (g."weight" * g."mean" + p."rating_sum") / (g."weight" + p."vote_count")
  FROM "photo"."gallery_prior" g WHERE g."id" = 1 AND p."status" = 'approved'`;

interface Totals {
  photoId: number;
  voteCount: number;
  ratingSum: number;
  version: number;
}

let database: DatabaseBeforeMigration;
let db: Database<PrismaClient>;

beforeAll(async () => {
  // The schema whose photos rows held the ratings.
  database = await databaseBeforeMigration({ prefix: 'photo_ratings_migration', schema: 'photo', migrationsDir: MIGRATIONS, migration: 'photo_ratings' });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger, max: 8 });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

/** Photos as the previous release inserts them: `status` and approval time only; the rest takes the defaults. */
async function insertPhotos(rows: { owner: string; status: string; approvedAt: string | null }[]): Promise<number[]> {
  const { rows: ids } = await db.pool.query<{ id: number }>(
    `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "updated_at")
     SELECT o, md5(random()::text) || '.webp', 'a.jpg', 'image/jpeg', 1, s::"photo"."PhotoStatus", a, now()
     FROM unnest($1::text[], $2::text[], $3::timestamptz[]) AS r(o, s, a) RETURNING "id"`,
    [rows.map((r) => r.owner), rows.map((r) => r.status), rows.map((r) => r.approvedAt)],
  );
  return ids.map((r) => r.id);
}

/** A batch of the previous release's ratings consumer, in one transaction, the totals in the order given. */
async function previousReleaseBatch(totals: Totals[]): Promise<void> {
  await inTransaction(db.pool, async ({ client }) => {
    await client.query(PREVIOUS_LOCK, [[...new Set(totals.map((t) => t.photoId))].sort((a, b) => a - b)]);
    await client.query(PREVIOUS_SET_MANY, [totals.map((t) => t.photoId), totals.map((t) => t.voteCount), totals.map((t) => t.ratingSum), totals.map((t) => t.version)]);
  });
}

/** A batch of this release's ratings consumer. */
const batchOf = (totals: Totals[]) =>
  db.prisma.$transaction((tx) =>
    applyRatingEvents(
      totals.map(({ photoId, voteCount, ratingSum, version }) =>
        decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId, userId: `voter-${version}`, rating: 5, voteCount, ratingSum, version }, { source: 'vote' }), RATING_EVENTS),
      ),
      new SqlRatingStore(tx),
    ),
  );

const ORDER_ON_PHOTOS = {
  top_rated: `"score" DESC, "vote_count" DESC, "approved_at" DESC, "id" DESC`,
  fewest_votes: `"vote_count" ASC, "approved_at" DESC, "id" DESC`,
};
const photoOrder = async (order: keyof typeof ORDER_ON_PHOTOS) =>
  (await db.pool.query<{ id: number }>(`SELECT "id" FROM "photo"."photos" WHERE "status" = 'approved' ORDER BY ${ORDER_ON_PHOTOS[order]}`)).rows.map((r) => r.id);
const ratingsOf = async () =>
  (await db.pool.query(`SELECT "photo_id", "vote_count", "rating_sum", "rating_version"::int, "score", "approved_at" FROM "photo"."ratings" ORDER BY "photo_id"`)).rows;
const galleryIds = async (order: 'top_rated' | 'fewest_votes') =>
  (await new PgGalleryRepository(db.pool).page({ order, offset: 0, limit: 50, ...(order === 'fewest_votes' ? { unratedBy: 'nobody' } : {}) })).photos.map((p) => p.id);
const prior = async () => (await db.pool.query<{ weight: number; mean: number }>(`SELECT "weight", "mean" FROM "photo"."gallery_prior"`)).rows[0]!;

describe('the photo_ratings migration', { timeout: 60_000 }, () => {
  let approved: number[];
  let pending: number;
  let rejected: number;

  it('moves every photo’s totals and score into ratings, the gallery’s orders unchanged', async () => {
    // Yesterday's schema: photos rated by the previous release's consumer, the prior refreshed by its refresh.
    const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T12:00:00Z`;
    approved = await insertPhotos(Array.from({ length: 30 }, (_, i) => ({ owner: `owner-${i % 4}`, status: 'approved', approvedAt: day(1 + (i % 9)) })));
    const others = await insertPhotos([
      { owner: 'owner-0', status: 'pending', approvedAt: null },
      { owner: 'owner-1', status: 'rejected', approvedAt: null },
    ]);
    [pending, rejected] = [others[0]!, others[1]!];
    const totals = [...approved, pending].map((photoId, i) => ({ photoId, voteCount: i % 7, ratingSum: (i % 7) * (1 + (i % 5)), version: 1 + (i % 3) }));
    await previousReleaseBatch(totals.filter((t) => t.voteCount > 0));
    await db.pool.query(`UPDATE "photo"."gallery_prior" SET "mean" = 3.2`);
    await db.pool.query(PREVIOUS_RESCORE);
    const before = {
      top: await photoOrder('top_rated'),
      fewest: await photoOrder('fewest_votes'),
      rows: (
        await db.pool.query(
          `SELECT "id" AS "photo_id", "vote_count", "rating_sum", "rating_version"::int, "score", CASE WHEN "status" = 'approved' THEN "approved_at" END AS "approved_at"
           FROM "photo"."photos" ORDER BY "id"`,
        )
      ).rows,
    };
    expect(before.top).toHaveLength(30);

    await database.migrate();

    expect(await ratingsOf()).toEqual(before.rows);
    expect(await galleryIds('top_rated')).toEqual(before.top);
    expect(await galleryIds('fewest_votes')).toEqual(before.fewest);
    const card = (await new PgGalleryRepository(db.pool).page({ order: 'top_rated', offset: 0, limit: 1 })).photos[0]!;
    expect(card).toMatchObject({ voteCount: before.rows.find((r) => r.photo_id === card.id)!.vote_count, ratingSum: before.rows.find((r) => r.photo_id === card.id)!.rating_sum });
    // The old orders' indexes and the per-row score trigger are gone; the rating columns of photos stay for now (the
    // migrations after this one add the member counts' trigger).
    const { rows: indexes } = await db.pool.query(`SELECT indexname FROM pg_indexes WHERE schemaname = 'photo' AND indexname ~ '^(photos|ratings)_gallery_' ORDER BY 1`);
    expect(indexes.map((r) => r.indexname)).toEqual(['photos_gallery_newest', 'ratings_gallery_fewest_votes', 'ratings_gallery_top_rated']);
    const { rows: triggers } = await db.pool.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = '"photo"."photos"'::regclass AND NOT tgisinternal ORDER BY 1`);
    expect(triggers.map((r) => r.tgname)).toEqual([
      'photos_count_approved',
      'photos_keep_rejected_hash',
      'photos_ratings',
      'photos_ratings_previous_release',
      'photos_ratings_then_member_gallery_counts',
    ]);
  });

  it('copies what a previous-release consumer writes to photos into ratings: newer totals with their score, never older', async () => {
    const [a, b] = approved;
    const { weight, mean } = await prior();
    await previousReleaseBatch([
      { photoId: b!, voteCount: 20, ratingSum: 90, version: 50 },
      { photoId: a!, voteCount: 0, ratingSum: 0, version: 0 }, // older than what ratings has: nothing
    ]);
    const rows = await ratingsOf();
    expect(rows.find((r) => r.photo_id === b)).toMatchObject({ vote_count: 20, rating_sum: 90, rating_version: 50 });
    expect(rows.find((r) => r.photo_id === b)!.score).toBeCloseTo((weight * mean + 90) / (weight + 20), 12);
    // This release's totals for the same photo, newer again, win; the previous release's older ones then change nothing.
    await batchOf([{ photoId: b!, voteCount: 21, ratingSum: 95, version: 51 }]);
    await previousReleaseBatch([{ photoId: b!, voteCount: 20, ratingSum: 90, version: 50 }]);
    expect((await ratingsOf()).find((r) => r.photo_id === b)).toMatchObject({ vote_count: 21, rating_sum: 95, rating_version: 51 });
  });

  it('rescores ratings when a previous-release pod refreshes the prior, so this release finds the scores in step', async () => {
    await db.pool.query(`UPDATE "photo"."gallery_prior" SET "mean" = 4.1, "refreshed_at" = now()`);
    await db.pool.query(PREVIOUS_RESCORE);
    const { weight, mean } = await prior();
    for (const row of await ratingsOf()) {
      if (row.approved_at === null) continue;
      expect(row.score).toBeCloseTo((weight * mean + row.rating_sum) / (weight + row.vote_count), 12);
    }
    expect(await galleryIds('top_rated')).toEqual(
      (await db.pool.query<{ photo_id: number }>(`SELECT "photo_id" FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL ORDER BY "score" DESC, "vote_count" DESC, "approved_at" DESC, "photo_id" DESC`)).rows.map((r) => r.photo_id),
    );
  });

  it('follows a previous-release pod’s uploads, reviews and deletions', async () => {
    const [uploaded] = await insertPhotos([{ owner: 'owner-9', status: 'pending', approvedAt: null }]);
    expect((await ratingsOf()).find((r) => r.photo_id === uploaded)).toMatchObject({ vote_count: 0, approved_at: null });
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'approved', "approved_at" = '2026-11-20T00:00:00Z', "version" = "version" + 1 WHERE "id" = $1`, [uploaded]);
    expect((await ratingsOf()).find((r) => r.photo_id === uploaded)).toMatchObject({ approved_at: new Date('2026-11-20T00:00:00Z') });
    expect(await galleryIds('fewest_votes')).toContain(uploaded);
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'rejected', "version" = "version" + 1 WHERE "id" = $1`, [pending]);
    expect((await ratingsOf()).find((r) => r.photo_id === pending)).toMatchObject({ approved_at: null });
    await db.pool.query(`DELETE FROM "photo"."photo_raters" WHERE "photo_id" = $1`, [uploaded]);
    await db.pool.query(`DELETE FROM "photo"."photos" WHERE "id" = $1`, [uploaded]);
    expect((await ratingsOf()).find((r) => r.photo_id === uploaded)).toBeUndefined();
    expect(await galleryIds('top_rated')).not.toContain(uploaded);
    expect(await galleryIds('top_rated')).not.toContain(rejected);
  });

  it('lets batches of both releases run at once on the same photos without waiting on each other in a circle', async () => {
    const photos = approved.slice(0, 6);
    const start = Math.max(...(await ratingsOf()).map((r) => r.rating_version)) + 1;
    // Every batch sets each of its photos to a total of its own version; the previous release's lists them shuffled, so
    // its UPDATE meets the rows in no particular order.
    const batches = Array.from({ length: 100 }, (_, i) =>
      [...photos].sort(() => Math.random() - 0.5).slice(0, 4).map((photoId) => ({ photoId, voteCount: start + i, ratingSum: 3 * (start + i), version: start + i })),
    );
    await Promise.all(batches.map((totals, i) => (i % 2 === 0 ? previousReleaseBatch(totals) : batchOf(totals))));
    const newest = new Map<number, number>();
    for (const totals of batches) for (const t of totals) newest.set(t.photoId, Math.max(newest.get(t.photoId) ?? 0, t.version));
    const rows = await ratingsOf();
    for (const [photoId, version] of newest) expect(rows.find((r) => r.photo_id === photoId)).toMatchObject({ vote_count: version, rating_version: version });
  });
});
