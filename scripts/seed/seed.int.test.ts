import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openTestPool, type TestDatabase } from '../../services/kit/src/testing/index.js';
import { PgGalleryRepository } from '../../services/photo/src/gallery.pg-repository.js';
import type { Pool } from './db.js';
import { SeedRefusedError, seedDatabase, type SeedReport } from './seed.js';
import { verifyDatabase } from './verify.js';

const SIZE = { users: 50, photos: 200, votes: 1_000 };

let database: TestDatabase;
let pool: Pool;
let storageDir: string;
let report: SeedReport;

const one = async <T>(sql: string, values: unknown[] = []): Promise<T> => (await pool.query(sql, values)).rows[0] as T;
const number = async (sql: string, values: unknown[] = []) => Number((await one<{ n: string | number }>(sql, values)).n);

beforeAll(async () => {
  database = await createTestDatabase('seed');
  storageDir = mkdtempSync(join(tmpdir(), 'snapcracks-seed-'));
  report = await seedDatabase({ databaseUrl: database.url, ...SIZE, images: 1, storageDir, seed: 7 });
  pool = openTestPool(database.url, 2);
}, 180_000);

afterAll(async () => {
  await pool?.end();
  await database?.drop();
  if (storageDir) rmSync(storageDir, { recursive: true, force: true });
});

describe('pnpm seed at a small size', () => {
  it('writes the members, photos and votes asked for, through every service’s tables', async () => {
    expect(await number(`SELECT COUNT(*) AS n FROM auth.users WHERE is_enabled AND has_accepted_terms`)).toBe(SIZE.users);
    expect(await number(`SELECT COUNT(*) AS n FROM auth.users WHERE is_admin`)).toBe(1);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.uploaders`)).toBe(SIZE.users);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.photos`)).toBe(SIZE.photos);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.ratings`)).toBe(SIZE.photos);
    expect(await number(`SELECT COALESCE(SUM(vote_count), 0) AS n FROM photo.ratings`)).toBe(SIZE.votes);
    expect(await number(`SELECT COUNT(*) AS n FROM vote.photo_votes`)).toBe(SIZE.votes);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.photo_raters`)).toBe(SIZE.votes);
    expect(await number(`SELECT COUNT(*) AS n FROM vote.votable_photos`)).toBe(SIZE.photos);
    expect(await number(`SELECT COUNT(*) AS n FROM vote.rater_figures`)).toBe(await number(`SELECT COUNT(DISTINCT user_id) AS n FROM vote.photo_votes`));
    expect(report.timings.map((t) => t.step)).toEqual(expect.arrayContaining(['photo.photos', 'photo.ratings (score from the prior)', 'vote.photo_votes']));
  });

  it('has mostly approved photos, some pending and rejected, approvals spread over 90 days and recent ones', async () => {
    const byStatus = await one<{ approved: string; pending: string; rejected: string }>(
      `SELECT COUNT(*) FILTER (WHERE status = 'approved') AS approved, COUNT(*) FILTER (WHERE status = 'pending') AS pending,
              COUNT(*) FILTER (WHERE status = 'rejected') AS rejected FROM photo.photos`,
    );
    expect(Number(byStatus.approved)).toBeGreaterThan(SIZE.photos * 0.7);
    expect(Number(byStatus.pending)).toBeGreaterThan(0);
    expect(Number(byStatus.rejected)).toBeGreaterThan(0);
    const spread = await one<{ oldest: number; week: string }>(
      `SELECT (EXTRACT(epoch FROM now() - MIN(approved_at)) / 86400)::float8 AS oldest, COUNT(*) FILTER (WHERE approved_at > now() - interval '7 days') AS week
       FROM photo.photos WHERE status = 'approved'`,
    );
    expect(spread.oldest).toBeGreaterThan(30);
    expect(spread.oldest).toBeLessThanOrEqual(92);
    expect(Number(spread.week)).toBeGreaterThan(0);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.photos WHERE approved_at > now() OR created_at > COALESCE(reviewed_at, now())`)).toBe(0);
  });

  it('casts one vote per member and photo, on approved photos of others only, ratings skewed around 3.4', async () => {
    expect(await number(`SELECT COUNT(*) AS n FROM vote.photo_votes v JOIN photo.photos p ON p.id = v.photo_id WHERE p.user_id = v.user_id OR p.status <> 'approved'`)).toBe(0);
    const ratings = await one<{ mean: number; fives: string; ones: string }>(
      `SELECT AVG(rating)::float8 AS mean, COUNT(*) FILTER (WHERE rating = 5) AS fives, COUNT(*) FILTER (WHERE rating = 1) AS ones FROM vote.photo_votes`,
    );
    expect(ratings.mean).toBeGreaterThan(3.0);
    expect(ratings.mean).toBeLessThan(3.8);
    expect(Number(ratings.fives)).toBeGreaterThan(Number(ratings.ones));
    expect(report.meanRating).toBeCloseTo(ratings.mean, 6);
  });

  it('leaves every read model consistent with its source', async () => {
    const checks = await verifyDatabase(database.url);
    expect(checks.filter((c) => !c.ok)).toEqual([]);
    expect(checks.length).toBeGreaterThanOrEqual(20);
  });

  it('answers the gallery’s own queries as a direct count would', async () => {
    const gallery = new PgGalleryRepository(pool);
    const approved = await number(`SELECT COUNT(*) AS n FROM photo.photos WHERE status = 'approved'`);
    const page = await gallery.page({ order: 'top_rated', offset: 0, limit: 9 });
    expect(page.total).toBe(approved);
    const voter = await one<{ user_id: string }>(`SELECT user_id FROM vote.photo_votes GROUP BY user_id ORDER BY COUNT(*) DESC, user_id LIMIT 1`);
    const unrated = await number(
      `SELECT COUNT(*) AS n FROM photo.photos p WHERE p.status = 'approved' AND p.user_id <> $1
         AND NOT EXISTS (SELECT 1 FROM vote.photo_votes v WHERE v.photo_id = p.id AND v.user_id = $1)`,
      [voter.user_id],
    );
    expect((await gallery.page({ order: 'fewest_votes', unratedBy: voter.user_id, offset: 0, limit: 1 })).total).toBe(unrated);
    const direct = await pool.query<{ id: number; vote_count: number; rating_sum: number }>(
      `SELECT p.id, r.vote_count, r.rating_sum FROM photo.photos p JOIN photo.ratings r ON r.photo_id = p.id
       WHERE p.status = 'approved' ORDER BY r.score DESC, r.vote_count DESC, p.approved_at DESC, p.id DESC LIMIT 9`,
    );
    expect(page.photos.map((p) => ({ id: p.id, vote_count: p.voteCount, rating_sum: p.ratingSum }))).toEqual(direct.rows);
    expect(page.photos.every((p) => p.uploader !== null)).toBe(true);
  });

  it('stores real images where storage looks for them', async () => {
    const keys = await pool.query<{ key: string }>(`SELECT DISTINCT display_key AS key FROM photo.photos`);
    expect(keys.rows.length).toBe(1);
    expect(existsSync(join(storageDir, keys.rows[0]!.key.replace(/^local:/, '')))).toBe(true);
    const medium = await pool.query<{ key: string }>(`SELECT DISTINCT medium_key AS key FROM photo.photos`);
    expect(medium.rows.map((row) => row.key)).toEqual([expect.stringMatching(/^local:photos\/.*-medium\.webp$/)]);
    expect(existsSync(join(storageDir, medium.rows[0]!.key.replace(/^local:/, '')))).toBe(true);
  });

  it('refuses a database that already has photos, and adds to it with force, still consistent', async () => {
    await expect(seedDatabase({ databaseUrl: database.url, users: 10, photos: 20, votes: 50, images: 1, storageDir })).rejects.toThrow(SeedRefusedError);
    const more = await seedDatabase({ databaseUrl: database.url, users: 10, photos: 20, votes: 50, images: 1, storageDir, force: true, seed: 8 });
    expect(more.firstUser).toBe(SIZE.users + 1);
    expect(more.firstPhotoId).toBe(SIZE.photos + 1);
    expect(await number(`SELECT COUNT(*) AS n FROM photo.photos`)).toBe(SIZE.photos + 20);
    expect(await number(`SELECT COUNT(*) AS n FROM vote.photo_votes`)).toBe(SIZE.votes + 50);
    expect((await verifyDatabase(database.url)).filter((c) => !c.ok)).toEqual([]);
  }, 180_000);

  it('finds a read model that disagrees with its source', async () => {
    const photo = await one<{ id: number }>(`SELECT photo_id AS id FROM photo.ratings WHERE vote_count > 0 ORDER BY photo_id LIMIT 1`);
    const listed = await one<{ id: number }>(`SELECT photo_id AS id FROM photo.ratings WHERE approved_at IS NOT NULL ORDER BY photo_id DESC LIMIT 1`);
    await pool.query(`UPDATE photo.ratings SET vote_count = vote_count + 1 WHERE photo_id = $1`, [photo.id]);
    await pool.query(`UPDATE photo.ratings SET approved_at = approved_at - interval '1 second' WHERE photo_id = $1`, [listed.id]);
    await pool.query(`UPDATE photo.approved_per_day SET approved = approved + 1 WHERE day = (SELECT MAX(day) FROM photo.approved_per_day)`);
    try {
      const failed = (await verifyDatabase(database.url)).filter((c) => !c.ok);
      expect(failed.map((c) => c.name)).toEqual(
        expect.arrayContaining([
          'photo.ratings vote_count, rating_sum = votes per photo',
          'photo.ratings = one row per photo, approved_at while approved',
          'photo.approved_per_day = approved photos by UTC day',
        ]),
      );
      expect(failed.find((c) => c.name.startsWith('photo.ratings vote_count'))).toMatchObject({ mismatches: 1, sample: [expect.stringContaining(`photo ${photo.id}:`)] });
      expect(failed.find((c) => c.name.startsWith('photo.ratings = one row'))).toMatchObject({ mismatches: 1, sample: [expect.stringContaining(`photo ${listed.id}:`)] });
    } finally {
      await pool.query(`UPDATE photo.ratings SET vote_count = vote_count - 1 WHERE photo_id = $1`, [photo.id]);
      await pool.query(`UPDATE photo.ratings SET approved_at = approved_at + interval '1 second' WHERE photo_id = $1`, [listed.id]);
      await pool.query(`UPDATE photo.approved_per_day SET approved = approved - 1 WHERE day = (SELECT MAX(day) FROM photo.approved_per_day)`);
    }
  });
});
