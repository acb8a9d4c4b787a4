import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseBeforeMigration, type DatabaseBeforeMigration } from '@snapcracks/kit/testing';
import { createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { PrismaClient } from './generated/prisma/client.js';

/**
 * The fix_and_resubmit migration over photos the previous migrations stored: a rejected photo's description and bars
 * become what it was rejected with (the best record there is), so its owner's resubmission has a "before"; photos of
 * other statuses get nothing, and no photo is resubmitted or held.
 */

const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
let database: DatabaseBeforeMigration;
let db: Database<PrismaClient>;

beforeAll(async () => {
  database = await databaseBeforeMigration({ prefix: 'resubmit_migration', schema: 'photo', migrationsDir: MIGRATIONS, migration: 'fix_and_resubmit' });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger: createLogger('test', 'silent'), max: 2 });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('the fix_and_resubmit migration', () => {
  it("records each rejected photo's description and bars as rejected, and leaves the others alone", async () => {
    const bars = JSON.stringify([{ x: 1, y: 2, width: 3, height: 4 }]);
    await db.pool.query(
      `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "description", "privacy_bars", "rejection_reason", "reviewed_at", "updated_at")
       VALUES ('u1', 'rejected.webp', 'a.jpg', 'image/jpeg', 1, 'rejected', 'Blurry crack', $1, 'Blurry', now(), now()),
              ('u1', 'pending.webp', 'b.jpg', 'image/jpeg', 1, 'pending', 'Waiting', $1, NULL, NULL, now())`,
      [bars],
    );
    await database.migrate();
    const rows = await db.prisma.photo.findMany({ orderBy: { id: 'asc' } });
    expect(rows.map((r) => [r.filename, r.rejectedDescription, r.rejectedPrivacyBars, r.resubmittedAt, r.heldAt])).toEqual([
      ['rejected.webp', 'Blurry crack', bars, null, null],
      ['pending.webp', null, null, null, null],
    ]);
  });
});
