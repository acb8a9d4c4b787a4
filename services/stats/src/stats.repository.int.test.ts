import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaStatsRepository } from './stats.repository.js';
import { StatsService } from './stats.service.js';
import { deleted, reviewed, uploaded } from './testing/events.js';
import { deliver } from './testing/deliver.js';

const { PHOTO_STATUS_APPROVED: APPROVED, PHOTO_STATUS_REJECTED: REJECTED } = PhotoStatus;
const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaStatsRepository;

beforeAll(async () => {
  database = await createTestDatabase('stats_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger });
  repository = new PrismaStatsRepository(db.prisma);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

describe('the admin’s figures on PostgreSQL', () => {
  it('count the decisions of the UTC day only, for photos that still have the status decided', async () => {
    let photoId = 0;
    const decide = async (status: PhotoStatus, at: string) => {
      photoId++;
      await deliver(db.prisma, uploaded({ photoId, ownerId: 'ada' }));
      await deliver(db.prisma, reviewed({ photoId, ownerId: 'ada', status, version: 2 }, new Date(at)));
      return photoId;
    };
    await decide(APPROVED, '2030-03-09T23:59:59.999Z'); // yesterday's last millisecond
    await decide(APPROVED, '2030-03-10T00:00:00.000Z'); // today's first
    await decide(APPROVED, '2030-03-10T23:59:59.999Z'); // today's last
    await decide(APPROVED, '2030-03-11T00:00:00.000Z'); // tomorrow (a clock ahead)
    await decide(REJECTED, '2030-03-10T08:00:00.000+05:00'); // 03:00 UTC: today
    await decide(REJECTED, '2030-03-10T22:30:00.000-03:00'); // 01:30 UTC on the 11th
    const gone = await decide(APPROVED, '2030-03-10T12:00:00.000Z');
    await deliver(db.prisma, deleted({ photoId: gone, ownerId: 'ada', status: APPROVED, version: 3 }));
    await deliver(db.prisma, uploaded({ photoId: 100, ownerId: 'bob' }));

    const at = (iso: string) => new StatsService(repository, () => new Date(iso)).admin();
    expect(await at('2030-03-10T00:00:00.000Z')).toEqual({ pendingReviews: 1, approvedToday: 2, rejectedToday: 1, totalPhotos: 7 });
    expect(await at('2030-03-10T23:59:59.999Z')).toMatchObject({ approvedToday: 2, rejectedToday: 1 });
    expect(await at('2030-03-09T12:00:00.000Z')).toMatchObject({ approvedToday: 1, rejectedToday: 0 });
    expect(await at('2030-03-11T00:00:00.000Z')).toMatchObject({ approvedToday: 1, rejectedToday: 1 });
  });
});
