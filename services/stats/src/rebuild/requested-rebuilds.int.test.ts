import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, openDirectPool, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import type { BackfillSources } from './backfill.sources.js';
import { rebuildIfRequested } from './requested-rebuilds.js';

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../../prisma/migrations', import.meta.url));
const MIGRATION_NAMES = readdirSync(MIGRATIONS).filter((name) => /^\d+_/.test(name)).sort();
/** The last migration before per_star_votes: the schema the star columns were added to. */
const BEFORE_PER_STAR_VOTES = MIGRATION_NAMES[MIGRATION_NAMES.findIndex((name) => name.endsWith('_per_star_votes')) - 1]!;
const APPROVED_AT = new Date('2026-11-20T10:00:00Z');

const opened: { database: TestDatabase; db: Database<PrismaClient> }[] = [];
afterEach(async () => {
  for (const { db, database } of opened.splice(0)) {
    await db.close();
    await database.drop();
  }
});
const scratch = mkdtempSync(join(tmpdir(), 'stats-migrations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stats schema migrated up to (and including) `lastMigration`, or all the way. */
async function statsDatabase(lastMigration?: string): Promise<Database<PrismaClient>> {
  const database = await createTestDatabase('stats_requested_rebuild');
  let migrationsDir = MIGRATIONS;
  if (lastMigration) {
    migrationsDir = mkdtempSync(join(scratch, 'upto-'));
    for (const name of MIGRATION_NAMES.filter((n) => n <= lastMigration)) cpSync(join(MIGRATIONS, name), join(migrationsDir, name), { recursive: true });
  }
  await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir });
  const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger, max: 3 });
  opened.push({ database, db });
  return db;
}

/** The source services for one approved photo of `owner` with four votes: 5, 4, 4 and 2 stars. */
function sources(calls: { count: number }): BackfillSources {
  async function* once<T>(page: T[]): AsyncIterable<T[]> {
    calls.count++;
    yield page;
  }
  const state = { ownerId: 'owner', status: 'approved' as const, filename: 'a.jpg', description: null, createdAt: APPROVED_AT, approvedAt: APPROVED_AT, version: 3 };
  return {
    photos: () => once([{ photoId: 1, state, reviewedAt: APPROVED_AT }]),
    votes: () => once([{ photoId: 1, totals: { voteCount: 4, ratingSum: 15, version: 4 }, stars: [0, 1, 0, 2, 1] }]),
    userIds: () => once(['owner']),
  };
}

const starsOf = async (db: Database<PrismaClient>) =>
  (await db.pool.query(`SELECT "stars_1", "stars_2", "stars_3", "stars_4", "stars_5", "vote_count" FROM "stats"."photos" WHERE "photo_id" = 1`)).rows[0];
const requests = async (db: Database<PrismaClient>) => Number((await db.pool.query(`SELECT COUNT(*) AS n FROM "stats"."rebuild_requests"`)).rows[0].n);

describe('rebuilds requested by a migration', { timeout: 30_000 }, () => {
  it('fills in the votes per star of photos projected before per_star_votes, once, when the service starts', async () => {
    // Yesterday's schema with a photo and its vote totals, as the consumers left them.
    const db = await statsDatabase(BEFORE_PER_STAR_VOTES);
    await db.pool.query(
      `INSERT INTO "stats"."photos" ("photo_id", "owner_id", "status", "filename", "created_at", "approved_at", "reviewed_at", "version", "review_version", "vote_count", "rating_sum", "rating_version")
       VALUES (1, 'owner', 'approved', 'a.jpg', $1, $1, $1, 3, 3, 4, 15, 4)`,
      [APPROVED_AT],
    );
    // Today's migrations over it: the star columns arrive empty, and a rebuild is asked for.
    await applyMigrations({ databaseUrl: opened[0]!.database.url, schema: 'stats', migrationsDir: MIGRATIONS });
    expect(await starsOf(db)).toMatchObject({ stars_4: 0, stars_5: 0, vote_count: 4 });
    expect(await requests(db)).toBe(1);

    const calls = { count: 0 };
    await expect(rebuildIfRequested(db.pool, () => sources(calls), logger)).resolves.toBe(true);
    expect(await starsOf(db)).toEqual({ stars_1: 0, stars_2: 1, stars_3: 0, stars_4: 2, stars_5: 1, vote_count: 4 });
    expect(await requests(db)).toBe(0);
    expect(calls.count).toBe(3);

    // The next start finds nothing to do and reads no source.
    await expect(rebuildIfRequested(db.pool, () => sources(calls), logger)).resolves.toBe(true);
    expect(calls.count).toBe(3);
  });

  it('asks for nothing on a new database', async () => {
    const db = await statsDatabase();
    expect(await requests(db)).toBe(0);
  });

  it('leaves the request to the replica holding the lock, and keeps it when a source fails', async () => {
    const db = await statsDatabase();
    await db.pool.query(`INSERT INTO "stats"."rebuild_requests" ("reason") VALUES ('test')`);
    const other = await db.pool.connect();
    try {
      await other.query(`SELECT pg_advisory_lock(hashtext('stats.requested-rebuild'))`);
      await expect(rebuildIfRequested(db.pool, () => sources({ count: 0 }), logger)).resolves.toBe(false);
      await other.query(`SELECT pg_advisory_unlock(hashtext('stats.requested-rebuild'))`);
    } finally {
      other.release();
    }
    const failing: BackfillSources = { ...sources({ count: 0 }), userIds: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('auth is not up yet')) }) }) };
    await expect(rebuildIfRequested(db.pool, () => failing, logger)).rejects.toThrow('auth is not up yet');
    expect(await requests(db)).toBe(1);
    await expect(rebuildIfRequested(db.pool, () => sources({ count: 0 }), logger)).resolves.toBe(true);
    expect(await requests(db)).toBe(0);
  });

  it('needs one connection, straight to PostgreSQL and without a statement timeout, for the lock and the rebuild', async () => {
    const db = await statsDatabase();
    await db.pool.query(`INSERT INTO "stats"."rebuild_requests" ("reason") VALUES ('test')`);
    const direct = openDirectPool({ databaseUrl: opened.at(-1)!.database.url, component: 'stats', logger, settings: { statementTimeoutMs: 1_000 } });
    try {
      await expect(rebuildIfRequested(direct, () => sources({ count: 0 }), logger)).resolves.toBe(true);
      expect(await requests(db)).toBe(0);
      expect(await starsOf(db)).toMatchObject({ stars_4: 2, vote_count: 4 });
    } finally {
      await direct.end();
    }
  });
});
