import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServer, type AddressInfo } from 'node:net';
import { openDatabase, openDirectPool, type Database } from './db.js';
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

describe('pool settings', () => {
  it('names the connections after their component and gives them the configured timeouts and size', async () => {
    const db = openDatabase(PrismaClient, {
      databaseUrl: database.url,
      schema: 'public',
      component: 'vote',
      logger: createRecordingLogger().logger,
      max: 10,
      settings: { poolMax: 3, connectTimeoutMs: 2_000, statementTimeoutMs: 1_234 },
    });
    try {
      const { rows } = await db.pool.query<{ name: string; timeout: string }>(`SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout`);
      expect(rows[0]).toEqual({ name: 'snapcracks-vote', timeout: '1234ms' });
      expect(db.pool.options.max).toBe(3);
      expect(db.pool.options.connectionTimeoutMillis).toBe(2_000);
      await expect(db.pool.query('SELECT pg_sleep(2)')).rejects.toThrow(/statement timeout/);
    } finally {
      await db.close();
    }
  });

  it('keeps the component default without DATABASE_POOL_MAX, and the defaults of 5 s to connect and 30 s per statement', async () => {
    const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'public', component: 'photo', logger: createRecordingLogger().logger, max: 8 });
    try {
      expect(db.pool.options.max).toBe(8);
      expect(db.pool.options.connectionTimeoutMillis).toBe(5_000);
      const { rows } = await db.pool.query<{ timeout: string }>(`SELECT current_setting('statement_timeout') AS timeout`);
      expect(rows[0]!.timeout).toBe('30s');
    } finally {
      await db.close();
    }
  });

  it('gives the direct connection its own URL, one connection and no statement timeout', async () => {
    const pool = openDirectPool({
      databaseUrl: 'postgres://nobody@127.0.0.1:1/none',
      component: 'stats',
      logger: createRecordingLogger().logger,
      settings: { connectTimeoutMs: 2_000, statementTimeoutMs: 1_000, directUrl: database.url },
    });
    try {
      const { rows } = await pool.query<{ name: string; timeout: string }>(`SELECT current_setting('application_name') AS name, current_setting('statement_timeout') AS timeout`);
      expect(rows[0]).toEqual({ name: 'snapcracks-stats-direct', timeout: '0' });
      expect(pool.options.max).toBe(1);
    } finally {
      await pool.end();
    }
  });

  it('fails a connection to a server that does not answer within the connect timeout', async () => {
    // A listener that accepts and never speaks: what a half-dead server or a black-holed address looks like.
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const { port } = silent.address() as AddressInfo;
    const db = openDatabase(PrismaClient, { databaseUrl: `postgres://x@127.0.0.1:${port}/x`, schema: 'public', logger: createRecordingLogger().logger, settings: { connectTimeoutMs: 300 } });
    const started = Date.now();
    try {
      await expect(db.pool.query('SELECT 1')).rejects.toThrow();
      expect(Date.now() - started).toBeLessThan(2_000);
    } finally {
      await db.close();
      silent.close();
    }
  });
});
