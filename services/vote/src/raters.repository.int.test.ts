import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, inTransaction, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { RatersRepository } from './raters.repository.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let raters: RatersRepository;

beforeAll(async () => {
  database = await createTestDatabase('vote_raters');
  await applyMigrations({ databaseUrl: database.url, schema: 'vote', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'vote', logger, max: 12 });
  raters = new RatersRepository(db.pool);
  // Three voters on ten photos; the totals are what the votes add up to.
  await db.pool.query(
    `INSERT INTO vote.photo_votes (photo_id, user_id, rating, created_at)
     SELECT p, u, 1 + (p + length(u)) % 5, now() - (p || ' minutes')::interval FROM generate_series(1, 10) p, unnest(ARRAY['ann', 'bob', 'cy']) u`,
  );
  await db.pool.query(
    `INSERT INTO vote.photo_ratings (photo_id, vote_count, rating_sum, version)
     SELECT photo_id, count(*), sum(rating), 1 FROM vote.photo_votes GROUP BY 1`,
  );
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const figures = async () => (await db.pool.query<{ user_id: string; voided: number }>(`SELECT user_id, voided FROM vote.rater_figures ORDER BY user_id`)).rows;

describe('RatersRepository', () => {
  it("refreshes one voter's figures while the whole table is computed again and while others refresh theirs, without a conflict", async () => {
    for (let round = 0; round < 15; round++) {
      const outcomes = await Promise.allSettled([
        raters.refreshAll(),
        ...['ann', 'ann', 'bob', 'ann'].map((userId) => inTransaction(db.pool, (tx) => raters.refreshOne(tx, userId))),
      ]);
      expect(outcomes.filter((o) => o.status === 'rejected')).toEqual([]);
    }
    // A whole-table refresh that found a voter's refresh under way skipped its round; alone, it computes everyone.
    expect(await raters.refreshAll()).toBe(3);
    expect((await figures()).map((f) => f.user_id)).toEqual(['ann', 'bob', 'cy']);
  });

  it("never leaves figures older than a change that committed before they were written", async () => {
    await raters.refreshAll();
    // A void commits together with its voter's figures while the whole table is being computed again.
    await Promise.all([
      raters.refreshAll(),
      inTransaction(db.pool, async (tx) => {
        await tx.$executeRawUnsafe(`UPDATE vote.photo_votes SET voided_at = now(), voided_by = 'admin', void_reason = 'x' WHERE user_id = 'bob'`);
        await raters.refreshOne(tx, 'bob');
      }),
    ]);
    expect((await figures()).find((f) => f.user_id === 'bob')).toMatchObject({ voided: 10 });
  });

  it('removes the figures of a voter who has no votes left', async () => {
    await raters.refreshAll();
    await inTransaction(db.pool, async (tx) => {
      await tx.$executeRawUnsafe(`DELETE FROM vote.photo_votes WHERE user_id = 'cy'`);
      await raters.refreshOne(tx, 'cy');
    });
    expect((await figures()).map((f) => f.user_id)).toEqual(['ann', 'bob']);
  });

  it('leaves figures computed within the given time as they are, and computes them again once they are older', async () => {
    expect(await raters.refreshAll()).toBe(2);
    await db.pool.query(`UPDATE vote.photo_votes SET rating = 5 WHERE user_id = 'ann'`);
    expect(await raters.refreshAll({ unlessComputedWithinMs: 60_000 })).toBeNull();
    const mean = async () => (await db.pool.query<{ mean: number }>(`SELECT mean FROM vote.rater_figures WHERE user_id = 'ann'`)).rows[0]!.mean;
    expect(await mean()).not.toBe(5);

    // A voter's refresh since makes their row newer, not the table: the oldest row says when it was computed whole.
    await inTransaction(db.pool, (tx) => raters.refreshOne(tx, 'bob'));
    await db.pool.query(`UPDATE vote.rater_figures SET computed_at = now() - interval '2 minutes' WHERE user_id = 'ann'`);
    expect(await raters.refreshAll({ unlessComputedWithinMs: 60_000 })).toBe(2);
    expect(await mean()).toBe(5);
  });
});
