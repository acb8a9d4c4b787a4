import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from './db.js';
import { PrismaClient } from './testing/prisma/generated/client.js';
import { createRecordingLogger, createTestDatabase, type TestDatabase } from './testing/index.js';

let database: TestDatabase;
beforeAll(async () => {
  database = await createTestDatabase('db');
});
afterAll(async () => {
  await database?.drop();
});

describe('openDatabase', () => {
  it('survives the server dropping its idle connections: logs it and reconnects on next use', async () => {
    const { logger, records } = createRecordingLogger();
    const db: Database<PrismaClient> = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'public', logger });
    try {
      expect(await db.prisma.$queryRaw`SELECT 1 AS one`).toEqual([{ one: 1 }]);
      const admin = new pg.Client({ connectionString: database.url });
      await admin.connect();
      await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
      await admin.end();
      await expect.poll(() => records.some((r) => r.msg === 'database connection lost'), { timeout: 5_000 }).toBe(true);
      expect(await db.prisma.$queryRaw`SELECT 2 AS two`).toEqual([{ two: 2 }]);
    } finally {
      await db.close();
    }
  });
});
