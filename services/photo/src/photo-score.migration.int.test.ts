import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PgGalleryRepository } from './gallery.pg-repository.js';
import { SqlRatingStore, type PhotoRatingTotals } from './consumers/ratings.store.js';

/**
 * The photo_score migration over a database the previous migrations filled, and the previous release's statements,
 * each with the score's expression of its own (copied here as they ran), beside this release's during a rolling upgrade.
 */

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

const PREVIOUS_SET_MANY = `
  UPDATE "photo"."ratings" r SET "vote_count" = t."vote_count", "rating_sum" = t."rating_sum", "rating_version" = t."version",
         "score" = (g."weight" * g."mean" + t."rating_sum") / (g."weight" + t."vote_count")
  FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[]) AS t("photo_id", "vote_count", "rating_sum", "version"), "photo"."gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = t."photo_id" AND r."rating_version" < t."version"`;
const PREVIOUS_RESCORE = `
  UPDATE "photo"."ratings" r SET "score" = (g."weight" * g."mean" + r."rating_sum") / (g."weight" + r."vote_count")
  FROM "photo"."gallery_prior" g WHERE g."id" = 1 AND r."approved_at" IS NOT NULL`;

let database: DatabaseBeforeMigration;
let db: Database<PrismaClient>;

beforeAll(async () => {
  database = await databaseBeforeMigration({ prefix: 'photo_score_migration', schema: 'photo', migrationsDir: MIGRATIONS, migration: 'photo_score' });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger, max: 4 });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function insertPhotos(rows: { status: string; approvedAt: string | null }[]): Promise<number[]> {
  const { rows: ids } = await db.pool.query<{ id: number }>(
    `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "updated_at")
     SELECT 'owner', md5(random()::text) || '.webp', 'a.jpg', 'image/jpeg', 1, s::"photo"."PhotoStatus", a, now()
     FROM unnest($1::text[], $2::timestamptz[]) AS r(s, a) RETURNING "id"`,
    [rows.map((r) => r.status), rows.map((r) => r.approvedAt)],
  );
  return ids.map((r) => r.id);
}

const previousRelease = (totals: PhotoRatingTotals[]) =>
  db.pool.query(PREVIOUS_SET_MANY, [totals.map((t) => t.photoId), totals.map((t) => t.voteCount), totals.map((t) => t.ratingSum), totals.map((t) => t.version)]);
const thisRelease = (totals: PhotoRatingTotals[]) => new SqlRatingStore(db.prisma).apply({ totals, raters: [] });

const ratingsOf = async () =>
  (await db.pool.query<{ photo_id: number; vote_count: number; rating_sum: number; score: number; approved_at: Date | null }>(
    `SELECT "photo_id", "vote_count", "rating_sum", "score", "approved_at" FROM "photo"."ratings" ORDER BY "photo_id"`,
  )).rows;
const scoreOf = async (photoId: number) => (await ratingsOf()).find((r) => r.photo_id === photoId)!.score;
const prior = async () => (await db.pool.query<{ weight: number; mean: number }>(`SELECT "weight", "mean" FROM "photo"."gallery_prior"`)).rows[0]!;
/** The score as the spec states it, in the same IEEE arithmetic as PostgreSQL's float8. */
const expected = (p: { weight: number; mean: number }, voteCount: number, ratingSum: number) => (p.weight * p.mean + ratingSum) / (p.weight + voteCount);
/**
 * The top-rated order: before the migration in the gallery's own ORDER BY (the gallery's statement reads columns later
 * migrations add), after it through the gallery's read path itself.
 */
const topRatedBefore = async () =>
  (await db.pool.query<{ photo_id: number }>(
    `SELECT "photo_id" FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL ORDER BY "score" DESC, "vote_count" DESC, "approved_at" DESC, "photo_id" DESC LIMIT 100`,
  )).rows.map((r) => r.photo_id);
const topRated = async () => (await new PgGalleryRepository(db.pool).page({ order: 'top_rated', offset: 0, limit: 100 })).photos.map((p) => p.id);

describe('the photo_score migration', { timeout: 60_000 }, () => {
  let approved: number[];

  it('leaves every score, and so the top-rated order, exactly as it was', async () => {
    const day = (n: number) => `2026-11-${String(n).padStart(2, '0')}T12:00:00Z`;
    approved = await insertPhotos(Array.from({ length: 24 }, (_, i) => ({ status: 'approved', approvedAt: day(1 + (i % 9)) })));
    const [pending] = await insertPhotos([{ status: 'pending', approvedAt: null }]);
    await previousRelease([...approved, pending!].map((photoId, i) => ({ photoId, voteCount: i % 7, ratingSum: (i % 7) * (1 + (i % 5)), version: 1 + i })));
    await db.pool.query(`UPDATE "photo"."gallery_prior" SET "mean" = 3.37`);
    await db.pool.query(PREVIOUS_RESCORE);
    const before = { rows: await ratingsOf(), top: await topRatedBefore() };

    await database.migrate();

    expect(await ratingsOf()).toEqual(before.rows);
    expect(await topRated()).toEqual(before.top);
    const { rows } = await db.pool.query(
      `SELECT r."photo_id" FROM "photo"."ratings" r, "photo"."gallery_prior" g
       WHERE r."approved_at" IS NOT NULL AND r."score" <> "photo"."photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean")`,
    );
    expect(rows).toEqual([]);
  });

  it('scores as the previous release’s statements do, so pods of both releases write the same numbers', async () => {
    const [a, b] = approved;
    await previousRelease([{ photoId: a!, voteCount: 13, ratingSum: 51, version: 100 }]);
    await thisRelease([{ photoId: b!, voteCount: 13, ratingSum: 51, version: 100 }]);
    expect(await scoreOf(b!)).toBe(await scoreOf(a!));
    expect(await scoreOf(b!)).toBe(expected(await prior(), 13, 51));

    await db.pool.query(`UPDATE "photo"."gallery_prior" SET "mean" = 2.9`);
    await expect(new PgGalleryRepository(db.pool).refreshPrior(0)).resolves.toMatchObject({ rescored: approved.length });
    const refreshed = await ratingsOf();
    await db.pool.query(PREVIOUS_RESCORE);
    expect(await ratingsOf()).toEqual(refreshed);
  });

  it('scores a photo as it is uploaded and as it is approved, through the triggers', async () => {
    const [photo] = await insertPhotos([{ status: 'pending', approvedAt: null }]);
    expect(await scoreOf(photo!)).toBe(expected(await prior(), 0, 0));
    await previousRelease([{ photoId: photo!, voteCount: 2, ratingSum: 7, version: 2 }]);
    await db.pool.query(`UPDATE "photo"."gallery_prior" SET "mean" = 4.05`);
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'approved', "approved_at" = now() WHERE "id" = $1`, [photo]);
    expect(await scoreOf(photo!)).toBe(expected(await prior(), 2, 7));
  });

  it('is inlined into a statement that calls it, not called per row', async () => {
    const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN (VERBOSE) UPDATE "photo"."ratings" r SET "score" = "photo"."photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean")
       FROM "photo"."gallery_prior" g WHERE g."id" = 1`,
    );
    const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
    expect(plan).toContain('g.weight * g.mean');
    expect(plan).not.toContain('photo_score');
  });
});
