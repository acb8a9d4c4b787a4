import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { applyMigrations, createLogger, openDatabase, type Caller, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PgGalleryRepository, type GalleryQuery } from './gallery.pg-repository.js';
import { GalleryService, windowStart, type GalleryFilter } from './gallery.service.js';
import { SqlRatingStore } from './consumers/ratings.store.js';
import { PrismaUploaderStore } from './consumers/uploaders.store.js';
import { newPhoto } from './testing/photo.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let now = new Date('2026-11-18T12:00:00Z'); // a Wednesday
let gallery: GalleryService;

const viewer: Caller = { userId: 'viewer', isAdmin: false, hasAcceptedTerms: true };

beforeAll(async () => {
  database = await createTestDatabase('photo_gallery');
  await applyMigrations({ databaseUrl: database.url, schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger });
  gallery = new GalleryService(new PgGalleryRepository(db.pool), () => now);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  now = new Date('2026-11-18T12:00:00Z');
  await db.pool.query('TRUNCATE "photo"."photos", "photo"."ratings", "photo"."photo_raters", "photo"."member_gallery_counts", "photo"."approved_per_day", "photo"."uploaders" RESTART IDENTITY');
  await db.pool.query('UPDATE "photo"."gallery_prior" SET "mean" = 3.4, "weight" = 5');
});

/** An approved photo with the given totals (set as the ratings consumer sets them), approved at `approvedAt`. */
async function approved(owner: string, approvedAt: string, votes: { count: number; sum: number } = { count: 0, sum: 0 }) {
  const photo = await db.prisma.photo.create({
    data: { ...newPhoto(owner), status: 'approved', approvedAt: new Date(approvedAt), reviewedAt: new Date(approvedAt) },
  });
  if (votes.count > 0) await setTotals(photo.id, votes.count, votes.sum);
  return photo.id;
}

const setTotals = (photoId: number, voteCount: number, ratingSum: number, version = voteCount) =>
  new SqlRatingStore(db.prisma).apply({ totals: [{ photoId, voteCount, ratingSum, version }], raters: [] });
const ratingRow = (photoId: number) => db.prisma.rating.findUniqueOrThrow({ where: { photoId } });

const ids = async (filter: GalleryFilter, page = 1, limit = 9, caller: Caller | null = viewer) =>
  (await gallery.page(caller, filter, { page, limit })).photos.map((p) => p.id);

/** `count` approved photos of 50 owners, approved over the last 700 minutes, with 0 to 12 votes each. */
async function bulkApproved(count: number): Promise<void> {
  const { rows: inserted } = await db.pool.query<{ id: number }>(
    `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "updated_at")
     SELECT 'bulk' || (i % 50), md5(i::text) || '.webp', 'a.jpg', 'image/jpeg', 1, 'approved', now() - (i % 700) * interval '1 minute', now()
     FROM generate_series(1, $1::int) i RETURNING "id"`,
    [count],
  );
  await new SqlRatingStore(db.prisma).apply({ totals: inserted.map(({ id }) => ({ photoId: id, voteCount: id % 13, ratingSum: (id % 13) * (1 + (id % 5)), version: 1 })), raters: [] });
}

/** The plan PostgreSQL makes for the page's ids: the CTE of the statement the repository sends for a page. */
async function pagePlan(query: GalleryQuery): Promise<string> {
  const sent: { text: string; values: unknown[] }[] = [];
  const recorder = { query: async ({ text, values }: { text: string; values: unknown[] }) => (sent.push({ text, values }), { rows: [] }) };
  await new PgGalleryRepository(recorder as unknown as typeof db.pool).page(query);
  const { rows } = await db.pool.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${sent[0]!.text}`, sent[0]!.values);
  const plan = rows.map((r) => r['QUERY PLAN']).join('\n');
  return plan.slice(plan.indexOf('CTE page'), plan.indexOf('InitPlan'));
}

describe('the gallery on PostgreSQL', () => {
  it('ranks top rated by the Bayesian score: one 5-star vote below forty votes averaging 4.6; ties by count, then newest', async () => {
    const lucky = await approved('a', '2026-11-10T00:00:00Z', { count: 1, sum: 5 }); // (17 + 5) / 6 ≈ 3.67
    const loved = await approved('b', '2026-11-01T00:00:00Z', { count: 40, sum: 184 }); // (17 + 184) / 45 ≈ 4.47
    const poor = await approved('c', '2026-11-12T00:00:00Z', { count: 3, sum: 3 }); // 20 / 8 = 2.5
    expect(await ids('top_rated')).toEqual([loved, lucky, poor]);
    // Equal scores (3.4, the prior's mean): more votes first, then the newer approval.
    const a = await approved('f', '2026-11-03T00:00:00Z', { count: 5, sum: 17 });
    const b = await approved('g', '2026-11-04T00:00:00Z', { count: 5, sum: 17 });
    const c = await approved('h', '2026-11-05T00:00:00Z', { count: 10, sum: 34 });
    const unrated = await approved('i', '2026-11-06T00:00:00Z');
    expect(await ids('top_rated')).toEqual([loved, lucky, c, b, a, unrated, poor]);
    // The cards show the raw totals.
    const [first] = (await gallery.page(null, 'top_rated', {})).photos;
    expect(first).toMatchObject({ voteCount: 40, ratingSum: 184 });
  });

  it('keeps the score with the totals when the ratings projection sets them, and on approval', async () => {
    const id = await approved('a', '2026-11-10T00:00:00Z');
    expect(await ratingRow(id)).toMatchObject({ voteCount: 0, ratingSum: 0, score: 3.4 });
    await setTotals(id, 40, 184);
    expect((await ratingRow(id)).score).toBeCloseTo((5 * 3.4 + 184) / 45, 10);
    // A pending photo's totals were scored under an older prior; approval brings its score up to the current one.
    const { id: pending } = await db.prisma.photo.create({ data: { ...newPhoto('b'), status: 'pending' } });
    await setTotals(pending, 2, 10);
    await db.pool.query('UPDATE "photo"."gallery_prior" SET "mean" = 3');
    await db.prisma.photo.update({ where: { id: pending }, data: { status: 'approved', approvedAt: new Date('2026-11-18T00:00:00Z') } });
    expect(await ratingRow(pending)).toMatchObject({ score: (5 * 3 + 10) / 7, approvedAt: new Date('2026-11-18T00:00:00Z') });
  });

  it('refreshes the prior from the votes cast and rescores every approved photo when it moved', async () => {
    const id = await approved('a', '2026-11-10T00:00:00Z', { count: 10, sum: 45 });
    await approved('b', '2026-11-10T00:00:00Z', { count: 10, sum: 35 });
    // Votes on photos that are not approved count for nothing, and their rows are not rescored.
    const { id: pending } = await db.prisma.photo.create({ data: { ...newPhoto('c'), status: 'pending' } });
    await setTotals(pending, 10, 10);
    const pendingScore = (await ratingRow(pending)).score;
    await expect(gallery.refreshPrior()).resolves.toEqual({ mean: 4, rescored: 2 });
    expect((await ratingRow(id)).score).toBeCloseTo((5 * 4 + 45) / 15, 10);
    expect((await ratingRow(pending)).score).toBe(pendingScore);
    await expect(gallery.refreshPrior()).resolves.toEqual({ mean: 4, rescored: 0 });
  });

  it('counts the new-* windows from approval time in UTC: today from midnight, the week from Monday, the month from the 1st', async () => {
    const today = await approved('a', '2026-11-18T00:00:00Z');
    const yesterday = await approved('a', '2026-11-17T23:59:59.999Z');
    const monday = await approved('a', '2026-11-16T00:00:00Z');
    const sunday = await approved('a', '2026-11-15T23:59:59Z');
    const first = await approved('a', '2026-11-01T00:00:00Z');
    const lastMonth = await approved('a', '2026-10-31T23:59:59Z');
    await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'pending' } });
    await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'rejected', reviewedAt: now } });

    expect(windowStart('new_this_week', new Date('2026-11-16T00:00:00Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(windowStart('new_this_week', new Date('2026-11-22T23:59:59Z')).toISOString()).toBe('2026-11-16T00:00:00.000Z');
    expect(await gallery.page(null, 'new_today', {})).toMatchObject({ total: 1, totalPages: 1 });
    expect(await ids('new_today')).toEqual([today]);
    expect(await ids('new_this_week')).toEqual([today, yesterday, monday]);
    expect(await ids('new_this_month')).toEqual([today, yesterday, monday, sunday, first]);
    expect(await gallery.page(null, 'all_snaps', {})).toMatchObject({ total: 6, totalPages: 1 });
    expect(await ids('all_snaps')).toEqual([today, yesterday, monday, sunday, first, lastMonth]);
    expect((await gallery.page(null, 'new_this_month', {})).total).toBe(5);
  });

  it('keeps totals exact as photos are approved, rejected and deleted, and pages neither overlap nor skip', async () => {
    const created: number[] = [];
    for (let i = 0; i < 23; i++) created.push(await approved(`u${i % 4}`, new Date(Date.UTC(2026, 10, 1 + (i % 17), i)).toISOString(), { count: i % 6, sum: (i % 6) * ((i % 5) + 1) }));
    for (const filter of ['top_rated', 'all_snaps'] as const) {
      const pages = [await ids(filter, 1, 10), await ids(filter, 2, 10), await ids(filter, 3, 10)];
      expect(pages.map((p) => p.length)).toEqual([10, 10, 3]);
      expect(new Set(pages.flat())).toEqual(new Set(created));
      expect(await gallery.page(null, filter, { page: 3, limit: 10 })).toMatchObject({ total: 23, totalPages: 3 });
      // Past the last page: no photos, and still the order's total.
      expect(await gallery.page(null, filter, { page: 4, limit: 10 })).toEqual({ photos: [], total: 23, totalPages: 3 });
    }
    await db.prisma.photo.delete({ where: { id: created[0]! } });
    await db.prisma.photo.update({ where: { id: created[1]! }, data: { status: 'rejected' } });
    await db.prisma.photo.update({ where: { id: created[2]! }, data: { approvedAt: new Date('2026-11-18T01:00:00Z') } });
    expect((await gallery.page(null, 'all_snaps', {})).total).toBe(21);
    expect((await gallery.page(null, 'new_today', {})).total).toBe(1);
    const { rows } = await db.pool.query<{ n: string }>(`SELECT COUNT(*) AS n FROM "photo"."photos" WHERE "status" = 'approved'`);
    expect(Number(rows[0]!.n)).toBe(21);
    // The deleted and the rejected photo have left every list, and the moved approval time reached the rating orders.
    const listed = new Set(created.slice(2));
    for (const filter of ['top_rated', 'need_your_vote', 'all_snaps'] as const) {
      expect(new Set(await ids(filter, 1, 50))).toEqual(listed);
    }
    expect(await db.prisma.rating.findUnique({ where: { photoId: created[0]! } })).toBeNull();
    expect(await ratingRow(created[1]!)).toMatchObject({ approvedAt: null });
    expect(await ratingRow(created[2]!)).toMatchObject({ approvedAt: new Date('2026-11-18T01:00:00Z') });
  });

  it('lists a photo in the rating orders from its approval, with the votes it had, and never while pending or rejected', async () => {
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'pending' } });
    const { id: rejected } = await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'pending' } });
    await setTotals(id, 3, 15);
    await db.prisma.photo.update({ where: { id: rejected }, data: { status: 'rejected', reviewedAt: now } });
    for (const filter of ['top_rated', 'need_your_vote', 'all_snaps'] as const) expect(await ids(filter)).toEqual([]);
    await db.prisma.photo.update({ where: { id }, data: { status: 'approved', approvedAt: now, reviewedAt: now } });
    for (const filter of ['top_rated', 'need_your_vote', 'all_snaps'] as const) expect(await ids(filter)).toEqual([id]);
    expect((await gallery.page(viewer, 'need_your_vote', {})).photos[0]).toMatchObject({ id, voteCount: 3, ratingSum: 15 });
  });

  it('shows need-your-vote only the photos of others that the viewer has not rated, fewest votes first', async () => {
    const own = await approved('viewer', '2026-11-10T00:00:00Z');
    const rated = await approved('a', '2026-11-10T00:00:00Z', { count: 1, sum: 4 });
    const many = await approved('a', '2026-11-11T00:00:00Z', { count: 7, sum: 30 });
    const none = await approved('b', '2026-11-09T00:00:00Z');
    const oneNewer = await approved('b', '2026-11-12T00:00:00Z', { count: 1, sum: 2 });
    const oneOlder = await approved('c', '2026-11-08T00:00:00Z', { count: 1, sum: 2 });
    await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'pending' } });
    await new SqlRatingStore(db.prisma).apply({
      totals: [],
      raters: [
        { userId: 'viewer', photoId: rated },
        { userId: 'someone', photoId: none },
      ],
    });

    expect(await ids('need_your_vote')).toEqual([none, oneNewer, oneOlder, many]);
    expect(await gallery.page(viewer, 'need_your_vote', { limit: 2 })).toMatchObject({ total: 4, totalPages: 2 });
    expect(await ids('need_your_vote', 2, 2)).toEqual([oneOlder, many]);
    expect(await gallery.page(viewer, 'need_your_vote', { page: 3, limit: 2 })).toEqual({ photos: [], total: 4, totalPages: 2 });
    expect(own).toBeGreaterThan(0);
    await expect(gallery.page(null, 'need_your_vote', {})).rejects.toThrow(/Sign in/);
    // A deleted user's ratings are forgotten with them.
    await new PrismaUploaderStore(db.prisma).delete('viewer');
    expect((await gallery.page(viewer, 'need_your_vote', {})).total).toBe(5);
  });

  it('serves a deep page exactly as the full order has it, reading its ids from the order’s index', async () => {
    await bulkApproved(6000);
    await db.pool.query('VACUUM ANALYZE "photo"."photos", "photo"."ratings"');
    for (const [filter, order] of [
      ['top_rated', `"score" DESC, "vote_count" DESC, "approved_at" DESC, "photo_id" DESC`],
      ['need_your_vote', `"vote_count" ASC, "approved_at" DESC, "photo_id" DESC`],
    ] as const) {
      const { rows } = await db.pool.query<{ id: number }>(
        `SELECT "photo_id" AS "id" FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL ORDER BY ${order} OFFSET 4491 LIMIT 9`,
      );
      const page500 = await gallery.page(viewer, filter, { page: 500, limit: 9 });
      expect(page500.photos.map((p) => p.id)).toEqual(rows.map((r) => r.id));
      expect(page500).toMatchObject({ total: 6000, totalPages: 667 });
    }
    // The page's ids come from the partial index of the order, walked without touching a photo, nothing sorted (the
    // page's own statement, its CTE; only the page's nine rows are sorted again once joined).
    const top = await pagePlan({ order: 'top_rated', offset: 4491, limit: 9 });
    expect(top).toContain('Index Only Scan using ratings_gallery_top_rated on ratings');
    expect(top).not.toMatch(/Sort|Seq Scan/);
    // Need-your-vote leaves out what the viewer owns or rated on the way (a table this small is sorted whole for a page
    // this deep; at the gallery's sizes the index wins there too).
    const unrated = await pagePlan({ order: 'fewest_votes', unratedBy: 'viewer', offset: 9, limit: 9 });
    expect(unrated).toContain('Index Only Scan using ratings_gallery_fewest_votes on ratings');
    expect(unrated).not.toMatch(/Sort|Seq Scan on ratings/);
    // Each photo met is looked up among the viewer's ratings by key, however many they made: never their whole list
    // scanned once per photo, which an anti join does when the planner guesses the list is short.
    expect(unrated).toMatch(/SubPlan[\s\S]*Index Only Scan using photo_raters_pkey on photo_raters/);
  });

  it('plans the first page of each order once per connection, and keeps that plan', async () => {
    await bulkApproved(6000);
    await new SqlRatingStore(db.prisma).apply({ totals: [], raters: Array.from({ length: 300 }, (_, i) => ({ userId: 'viewer', photoId: i * 20 + 1 })) });
    await db.pool.query('VACUUM ANALYZE "photo"."photos", "photo"."ratings", "photo"."photo_raters"');
    const pool = new pg.Pool({ connectionString: database.url, max: 1 });
    try {
      const repository = new GalleryService(new PgGalleryRepository(pool), () => now);
      const viewers = ['bulk0', 'bulk1', 'someone', 'viewer'].map((userId) => ({ ...viewer, userId }));
      for (let i = 0; i < 12; i += 1) {
        await repository.page(viewers[i % viewers.length]!, 'need_your_vote', {});
        await repository.page(null, 'top_rated', {});
        await repository.page(null, 'new_this_week', {});
      }
      const { rows } = await pool.query<{ name: string; generic_plans: number; custom_plans: number }>(
        `SELECT "name", "generic_plans"::int, "custom_plans"::int FROM pg_prepared_statements WHERE "name" LIKE 'gallery-page:%' ORDER BY "name"`,
      );
      // PostgreSQL tries five plans made for a statement's values, then keeps the one made once when it costs no more;
      // top rated has no values, so its one plan is kept from the start.
      expect(rows).toEqual([
        { name: 'gallery-page:fewest_votes:all:unrated:first', custom_plans: 5, generic_plans: 7 },
        { name: 'gallery-page:newest:from:everyone:first', custom_plans: 5, generic_plans: 7 },
        { name: 'gallery-page:top_rated:all:everyone:first', custom_plans: 0, generic_plans: 12 },
      ]);
    } finally {
      await pool.end();
    }
  });

  it('lists the newest approved photos as previews', async () => {
    const older = await approved('a', '2026-11-01T00:00:00Z');
    const newer = await approved('a', '2026-11-02T00:00:00Z');
    await db.prisma.photo.create({ data: { ...newPhoto('a'), status: 'pending' } });
    expect((await gallery.previews(20)).map((p) => p.id)).toEqual([newer, older]);
    await expect(gallery.previews(101)).rejects.toThrow(/limit/);
  });

  it('refuses bad pages and limits', async () => {
    for (const request of [{ page: 0.5 }, { page: -1 }, { limit: 51 }, { limit: 2.5 }, { page: 100_001 }]) {
      await expect(gallery.page(null, 'top_rated', request)).rejects.toThrow(/page|limit/);
    }
  });
});
