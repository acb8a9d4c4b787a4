import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PgGalleryRepository } from './gallery.pg-repository.js';

/**
 * The member_gallery_counts migration over a database the previous migrations filled, and the triggers that keep the
 * counts as every writer changes photos and raters: after each change they equal a count over the rows, and a vote's
 * rater (an approved photo of someone else) moves no count at all.
 */

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

let database: DatabaseBeforeMigration;
let db: Database<PrismaClient>;

beforeAll(async () => {
  database = await databaseBeforeMigration({ prefix: 'member_counts_migration', schema: 'photo', migrationsDir: MIGRATIONS, migration: 'member_gallery_counts' });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger, max: 4 });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

async function insertPhotos(owner: string, statuses: string[]): Promise<number[]> {
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "updated_at")
     SELECT $1, md5(random()::text) || '.webp', 'a.jpg', 'image/jpeg', 1, s::"photo"."PhotoStatus", CASE WHEN s = 'approved' THEN now() END, now()
     FROM unnest($2::text[]) AS s RETURNING "id"`,
    [owner, statuses],
  );
  return rows.map((r) => r.id);
}

const rate = (pairs: Array<[user: string, photo: number]>) =>
  db.pool.query(`INSERT INTO "photo"."photo_raters" ("user_id", "photo_id") SELECT * FROM unnest($1::text[], $2::int[]) ON CONFLICT DO NOTHING`, [
    pairs.map(([user]) => user),
    pairs.map(([, photo]) => photo),
  ]);

/** The counts as stored, beside the same counts made over the rows: equal, member by member. */
async function countsAndTruth() {
  const stored = await db.pool.query<{ user_id: string; owned: number; unlisted: number }>(
    `SELECT "user_id", "owned", "unlisted" FROM "photo"."member_gallery_counts" WHERE "owned" <> 0 OR "unlisted" <> 0 ORDER BY "user_id"`,
  );
  const truth = await db.pool.query<{ user_id: string; owned: number; unlisted: number }>(
    `SELECT "user_id", SUM("owned")::int AS "owned", SUM("unlisted")::int AS "unlisted" FROM (
       SELECT "user_id", 1 AS "owned", 0 AS "unlisted" FROM "photo"."photos" WHERE "status" = 'approved'
       UNION ALL
       SELECT x."user_id", 0, 1 FROM "photo"."photo_raters" x LEFT JOIN "photo"."photos" p ON p."id" = x."photo_id"
       WHERE p."id" IS NULL OR p."status" <> 'approved' OR p."user_id" = x."user_id") t
     GROUP BY "user_id" ORDER BY "user_id"`,
  );
  return { stored: stored.rows, truth: truth.rows };
}

async function expectExact() {
  const { stored, truth } = await countsAndTruth();
  expect(stored).toEqual(truth);
}

describe('the member_gallery_counts migration', { timeout: 60_000 }, () => {
  let ada: number[];
  let bob: number[];

  it('counts what the previous release stored: approved photos of each member, approved photos of others rated', async () => {
    ada = await insertPhotos('ada', ['approved', 'approved', 'pending', 'rejected']);
    bob = await insertPhotos('bob', ['approved', 'approved', 'approved']);
    // Ratings of approved photos, and one of a pending photo (which counts for nobody until it is approved).
    await rate([['ada', bob[0]!], ['ada', bob[1]!], ['cy', bob[0]!], ['cy', ada[0]!], ['cy', ada[2]!]]);

    await database.migrate();

    await expectExact();
    const { stored } = await countsAndTruth();
    expect(stored).toEqual([
      { user_id: 'ada', owned: 2, unlisted: 0 },
      { user_id: 'bob', owned: 3, unlisted: 0 },
      { user_id: 'cy', owned: 0, unlisted: 1 },
    ]);
  });

  it('follows votes, approvals, rejections, deletions and a member leaving', async () => {
    // Votes (raters of approved photos of others) leave every count alone: a vote never waits on these rows.
    const before = await countsAndTruth();
    await rate([['bob', ada[0]!], ['bob', ada[1]!], ['ada', bob[2]!], ['ada', bob[2]!]]);
    expect(await countsAndTruth()).toEqual(before);
    // A pending photo with raters (written before this release, see the first test) counts for them once approved.
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'approved', "approved_at" = now() WHERE "id" = $1`, [ada[2]]);
    await expectExact();
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'rejected' WHERE "id" = $1`, [bob[0]]);
    await expectExact();
    await db.pool.query(`DELETE FROM "photo"."photos" WHERE "id" = ANY($1::int[])`, [[ada[0], bob[1]]]);
    await expectExact();
    await db.pool.query(`DELETE FROM "photo"."photo_raters" WHERE "user_id" = 'cy'`);
    await expectExact();
    // A description edit is not a status change: nothing moves.
    const edited = await countsAndTruth();
    await db.pool.query(`UPDATE "photo"."photos" SET "description" = 'x'`);
    expect(await countsAndTruth()).toEqual(edited);
  });

  it('answers need-your-vote’s total from the counts: every approved photo but the member’s own and those they rated', async () => {
    const gallery = new PgGalleryRepository(db.pool);
    const { rows } = await db.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS "n" FROM "photo"."photos" WHERE "status" = 'approved'`);
    for (const member of ['ada', 'bob', 'cy', 'nobody']) {
      const page = await gallery.page({ order: 'fewest_votes', unratedBy: member, offset: 0, limit: 100 });
      expect(page.total, member).toBe(page.photos.length);
      expect(page.total, member).toBeLessThanOrEqual(rows[0]!.n);
    }
    expect((await gallery.page({ order: 'fewest_votes', unratedBy: 'nobody', offset: 0, limit: 100 })).total).toBe(rows[0]!.n);
  });
});
