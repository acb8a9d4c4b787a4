import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PgGalleryRepository } from './gallery.pg-repository.js';

/**
 * The member_gallery_counts migrations (the counts, then each member's `rated`) over a database the previous migrations
 * filled, and the triggers that keep the counts as every writer changes photos and raters: after each change they
 * equal a count over the rows, and a vote's rater (an approved photo of someone else) moves its member's `rated` only.
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
  const stored = await db.pool.query<{ user_id: string; owned: number; rated: number; unlisted: number }>(
    `SELECT "user_id", "owned", "rated", "unlisted" FROM "photo"."member_gallery_counts"
     WHERE "owned" <> 0 OR "rated" <> 0 OR "unlisted" <> 0 ORDER BY "user_id"`,
  );
  const truth = await db.pool.query<{ user_id: string; owned: number; rated: number; unlisted: number }>(
    `SELECT "user_id", SUM("owned")::int AS "owned", SUM("rated")::int AS "rated", SUM("unlisted")::int AS "unlisted" FROM (
       SELECT "user_id", 1 AS "owned", 0 AS "rated", 0 AS "unlisted" FROM "photo"."photos" WHERE "status" = 'approved'
       UNION ALL
       SELECT x."user_id", 0, 1, CASE WHEN p."status" = 'approved' AND p."user_id" <> x."user_id" THEN 0 ELSE 1 END
       FROM "photo"."photo_raters" x LEFT JOIN "photo"."photos" p ON p."id" = x."photo_id") t
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

  it('counts what the previous release stored: approved photos of each member, their ratings, those of photos not listed', async () => {
    ada = await insertPhotos('ada', ['approved', 'approved', 'pending', 'rejected']);
    bob = await insertPhotos('bob', ['approved', 'approved', 'approved']);
    // Ratings of approved photos, and one of a pending photo (which counts for nobody until it is approved). Dee only
    // rated a listed photo, so the first migration gives her no row and the second one makes it.
    await rate([['ada', bob[0]!], ['ada', bob[1]!], ['cy', bob[0]!], ['cy', ada[0]!], ['cy', ada[2]!], ['dee', bob[2]!]]);

    await database.migrate();

    await expectExact();
    const { stored } = await countsAndTruth();
    expect(stored).toEqual([
      { user_id: 'ada', owned: 2, rated: 2, unlisted: 0 },
      { user_id: 'bob', owned: 3, rated: 0, unlisted: 0 },
      { user_id: 'cy', owned: 0, rated: 3, unlisted: 1 },
      { user_id: 'dee', owned: 0, rated: 1, unlisted: 0 },
    ]);
  });

  it('follows votes, approvals, rejections, deletions and a member leaving', async () => {
    // Votes (raters of approved photos of others) move their member's `rated` and nothing else.
    const before = await countsAndTruth();
    await rate([['bob', ada[0]!], ['bob', ada[1]!], ['ada', bob[2]!], ['ada', bob[2]!]]);
    const after = await countsAndTruth();
    expect(after.stored).toEqual(after.truth);
    const moved = (counts: typeof before) => Object.fromEntries(counts.stored.map(({ user_id, ...rest }) => [user_id, rest]));
    expect(moved(after)).toEqual({ ...moved(before), ada: { ...moved(before).ada, rated: 3 }, bob: { ...moved(before).bob, rated: 2 } });
    // A rater of a photo that is not listed (another writer than the ratings consumer) counts as unlisted at once.
    await rate([['dee', ada[3]!], ['ada', ada[1]!]]);
    await expectExact();
    // A pending photo with raters (written before this release, see the first test) counts for them once approved.
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'approved', "approved_at" = now() WHERE "id" = $1`, [ada[2]]);
    await expectExact();
    await db.pool.query(`UPDATE "photo"."photos" SET "status" = 'rejected' WHERE "id" = $1`, [bob[0]]);
    await expectExact();
    await db.pool.query(`DELETE FROM "photo"."photos" WHERE "id" = ANY($1::int[])`, [[ada[0], bob[1]]]);
    await expectExact();
    await db.pool.query(`DELETE FROM "photo"."photo_raters" WHERE "user_id" = 'cy'`);
    await expectExact();
    await db.pool.query(`DELETE FROM "photo"."photo_raters" WHERE "photo_id" = $1`, [bob[2]]);
    await expectExact();
    // A description edit is not a status change: nothing moves.
    const edited = await countsAndTruth();
    await db.pool.query(`UPDATE "photo"."photos" SET "description" = 'x'`);
    expect(await countsAndTruth()).toEqual(edited);
  });

  it('lets a rejection and a batch of votes on the same photo wait for each other without a deadlock', async () => {
    const [photo, other] = await insertPhotos('eve', ['approved', 'approved']);
    await rate([['fay', photo!]]);
    const batch = await db.pool.connect();
    const rejection = await db.pool.connect();
    try {
      // The batch holds the photo's ratings row, as the ratings consumer's do before they add raters.
      await batch.query('BEGIN');
      await batch.query(`SELECT 1 FROM "photo"."ratings" WHERE "photo_id" = $1 FOR NO KEY UPDATE`, [photo]);
      // The rejection waits for that row; it must not hold the member rows of the photo's raters meanwhile.
      const rejected = rejection.query(`UPDATE "photo"."photos" SET "status" = 'rejected' WHERE "id" = $1`, [photo]);
      await new Promise((resolve) => setTimeout(resolve, 200));
      // The batch adds a rater, Fay, of another photo: her member row.
      await batch.query(`INSERT INTO "photo"."photo_raters" ("user_id", "photo_id") VALUES ('fay', $1)`, [other]);
      await batch.query('COMMIT');
      await rejected;
    } finally {
      batch.release();
      rejection.release();
    }
    await expectExact();
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
