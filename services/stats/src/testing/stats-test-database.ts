import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaStatsRepository } from '../stats.repository.js';

export interface StatsTestDatabase {
  readonly db: Database<PrismaClient>;
  readonly repository: PrismaStatsRepository;
}

/**
 * For one test file: a database of its own with the stats schema migrated, `max` connections (as many as the file
 * delivers events at once), emptied before each test and dropped at the end.
 */
export function useStatsTestDatabase(prefix: string, max: number): StatsTestDatabase {
  let database: TestDatabase | undefined;
  let db: Database<PrismaClient> | undefined;
  let repository: PrismaStatsRepository | undefined;

  beforeAll(async () => {
    database = await createTestDatabase(prefix);
    await applyMigrations({ databaseUrl: database.url, schema: 'stats', migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)) });
    db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'stats', logger: createLogger('test', 'silent'), max });
    repository = new PrismaStatsRepository(db.prisma);
  });
  afterAll(async () => {
    await db?.close();
    await database?.drop();
  });
  beforeEach(async () => {
    await db!.prisma.$executeRawUnsafe('TRUNCATE stats.photos, stats.owners, stats.community_counters, stats.processed_events');
  });

  return {
    get db() {
      return db!;
    },
    get repository() {
      return repository!;
    },
  };
}
