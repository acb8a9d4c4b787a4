import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { COUNTER_SHARDS } from './stats.projection.js';
import { PrismaStatsRepository } from './stats.repository.js';
import { deliver } from './testing/deliver.js';
import { cast, deleted, reviewed, uploaded } from './testing/events.js';

/**
 * The photo_figures migration over a stats schema the previous release filled: its rows, and the owners' figures and
 * counters as its rebuild derived them (its statements, copied here as they ran).
 */

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));

const PREVIOUS_OWNERS = `
  INSERT INTO "stats"."owners" AS o ("owner_id", "approved_photos", "votes_received", "rating_sum_received")
  SELECT "owner_id", count(*), sum("vote_count"), sum("rating_sum") FROM "stats"."photos"
  WHERE "status" = 'approved' AND NOT "deleted" AND "owner_id" IS NOT NULL
  GROUP BY "owner_id" ORDER BY "owner_id"`;
const PREVIOUS_COUNTERS = `
  INSERT INTO "stats"."community_counters"
    ("shard", "photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders")
  SELECT s."shard", COALESCE(f."photos", 0), COALESCE(f."pending_photos", 0), COALESCE(f."approved_photos", 0),
         COALESCE(f."votes_on_approved", 0), COALESCE(f."rated_four_or_higher", 0),
         CASE WHEN s."shard" = 0 THEN (SELECT count(*) FROM "stats"."owners" WHERE "approved_photos" > 0) ELSE 0 END
  FROM generate_series(0, $1::int - 1) AS s("shard")
  LEFT JOIN (
    SELECT ("photo_id" % $1::int)::int AS "shard", count(*) AS "photos",
           count(*) FILTER (WHERE "status" = 'pending') AS "pending_photos",
           count(*) FILTER (WHERE "status" = 'approved') AS "approved_photos",
           COALESCE(sum("vote_count") FILTER (WHERE "status" = 'approved'), 0) AS "votes_on_approved",
           count(*) FILTER (WHERE "status" = 'approved' AND "vote_count" > 0 AND "rating_sum" >= 4 * "vote_count") AS "rated_four_or_higher"
    FROM "stats"."photos" WHERE "status" IS NOT NULL AND NOT "deleted" GROUP BY 1
  ) f USING ("shard")`;

let database: DatabaseBeforeMigration;
let db: Database<PrismaClient>;
let repository: PrismaStatsRepository;

beforeAll(async () => {
  database = await databaseBeforeMigration({ prefix: 'stats_photo_figures_migration', schema: 'stats', migrationsDir: MIGRATIONS, migration: 'photo_figures' });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger, max: 2 });
  repository = new PrismaStatsRepository(db.prisma);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const ownersOf = async () =>
  (await db.prisma.owner.findMany({ where: { approvedPhotos: { gt: 0 } }, orderBy: { ownerId: 'asc' } })).map((o) => [o.ownerId, o.approvedPhotos, o.votesReceived, Number(o.ratingSumReceived)]);
/** The owners' figures summed from the rows, as the rebuild derives them now. */
const ownersFromRows = async () =>
  (
    await db.pool.query<{ owner_id: string; approved: number; votes: number; rating_sum: number }>(
      `SELECT p."owner_id", sum(f."approved_photos")::int AS "approved", sum(f."votes_on_approved")::int AS "votes", sum(f."rating_sum_on_approved")::int AS "rating_sum"
       FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
       WHERE p."owner_id" IS NOT NULL GROUP BY 1 HAVING sum(f."approved_photos") > 0 ORDER BY 1`,
    )
  ).rows.map((r) => [r.owner_id, r.approved, r.votes, r.rating_sum]);

describe('the photo_figures migration', { timeout: 60_000 }, () => {
  it('counts the previous release’s rows as its rebuild did, and the consumers carry on from its counters', async () => {
    // Rows of every kind: totals before the photo, pending, rejected with votes, approved above and below 4, deleted.
    await db.pool.query(
      `INSERT INTO "stats"."photos" ("photo_id", "owner_id", "status", "deleted", "version", "vote_count", "rating_sum", "rating_version")
       SELECT i, CASE WHEN i % 11 = 0 THEN NULL ELSE 'owner-' || (i % 5) END,
              CASE WHEN i % 11 = 0 THEN NULL ELSE (ARRAY['pending', 'approved', 'approved', 'rejected'])[1 + i % 4]::"stats"."PhotoStatus" END,
              i % 13 = 0, 2, i % 6, (i % 6) * (1 + i % 5), i % 6
       FROM generate_series(1, 200) i`,
    );
    await db.pool.query(PREVIOUS_OWNERS);
    await db.pool.query(PREVIOUS_COUNTERS, [COUNTER_SHARDS]);
    const before = { figures: await repository.communityFigures(), owners: await ownersOf() };
    expect(before.figures.ratedFourOrHigher).toBeGreaterThan(0);

    await database.migrate();

    expect(await repository.countFiguresFromRows()).toEqual(before.figures);
    expect(await ownersFromRows()).toEqual(before.owners);
    const ownerId = 'owner-9';
    const { PHOTO_STATUS_APPROVED: APPROVED } = PhotoStatus;
    for (const event of [
      uploaded({ photoId: 500, ownerId }),
      reviewed({ photoId: 500, ownerId, status: APPROVED, version: 2 }, new Date('2030-01-02T10:00:00Z')),
      cast(500, { voteCount: 2, ratingSum: 9, version: 2 }),
      cast(2, { voteCount: 40, ratingSum: 200, version: 99 }),
      deleted({ photoId: 6, ownerId: 'owner-1', status: APPROVED, version: 3 }),
    ]) {
      await deliver(db.prisma, event);
    }
    expect(await repository.communityFigures()).toEqual(await repository.countFiguresFromRows());
    expect(await ownersOf()).toEqual(await ownersFromRows());
    expect(await repository.communityFigures()).not.toEqual(before.figures);
  });
});
