import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { applyMigrations } from './migrations.js';
import { createTestDatabase, type TestDatabase } from './testing/index.js';

let database: TestDatabase | undefined;
afterEach(async () => {
  await database?.drop();
  database = undefined;
});

function migrationsDir(migrations: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'migrations-'));
  for (const [name, sql] of Object.entries(migrations)) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'migration.sql'), sql);
  }
  return dir;
}

async function tables(url: string, schema: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY 1', [schema]);
  await client.end();
  return rows.map((r) => r.table_name);
}

describe('applyMigrations', () => {
  it('creates the schema, applies each migration once, in order, inside that schema', async () => {
    database = await createTestDatabase('migrations');
    const dir = migrationsDir({
      '20260101000000_init': 'CREATE TABLE "things" ("id" INT PRIMARY KEY);',
      '20260102000000_more': 'ALTER TABLE "things" ADD COLUMN "name" TEXT;',
    });
    expect((await applyMigrations({ databaseUrl: database.url, schema: 'alpha', migrationsDir: dir })).applied).toEqual(['20260101000000_init', '20260102000000_more', 'kit:0001_outbox_claims']);
    expect((await applyMigrations({ databaseUrl: database.url, schema: 'alpha', migrationsDir: dir })).applied).toEqual([]);
    expect(await tables(database.url, 'alpha')).toEqual(['_migrations', 'outbox', 'processed_events', 'things']);
    expect(await tables(database.url, 'public')).toEqual([]);
  });

  it('applies concurrent runs exactly once', async () => {
    database = await createTestDatabase('migrations');
    const dir = migrationsDir({ '1_init': 'CREATE TABLE "once" ("id" INT);' });
    const runs = await Promise.all([1, 2, 3].map(() => applyMigrations({ databaseUrl: database!.url, schema: 'beta', migrationsDir: dir })));
    expect(runs.flatMap((r) => r.applied)).toEqual(['1_init', 'kit:0001_outbox_claims']);
  });

  it('rolls back a failing migration and refuses an applied one that was edited', async () => {
    database = await createTestDatabase('migrations');
    const good = migrationsDir({ '1_init': 'CREATE TABLE "a" ("id" INT);' });
    await applyMigrations({ databaseUrl: database.url, schema: 'gamma', migrationsDir: good });
    const edited = migrationsDir({ '1_init': 'CREATE TABLE "a" ("id" BIGINT);' });
    await expect(applyMigrations({ databaseUrl: database.url, schema: 'gamma', migrationsDir: edited })).rejects.toThrow(/changed after it was applied/);
    const broken = migrationsDir({ '1_init': 'CREATE TABLE "a" ("id" INT);', '2_bad': 'CREATE TABLE "b" ("id" INT); SELECT no_such_function();' });
    await expect(applyMigrations({ databaseUrl: database.url, schema: 'gamma', migrationsDir: broken })).rejects.toThrow(/2_bad failed/);
    expect(await tables(database.url, 'gamma')).toEqual(['_migrations', 'a', 'outbox', 'processed_events']);
  });

  it("brings a schema whose own first migration made the kit's tables to the kit's current shape", async () => {
    database = await createTestDatabase('migrations');
    const early = migrationsDir({
      '1_init': `CREATE TABLE "outbox" ("id" UUID NOT NULL, "type" TEXT NOT NULL, "payload" BYTEA NOT NULL, "trace_parent" TEXT,
        "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "published_at" TIMESTAMPTZ(3), CONSTRAINT "outbox_pkey" PRIMARY KEY ("id"));
        CREATE INDEX "outbox_published_at_created_at_idx" ON "outbox"("published_at", "created_at");
        INSERT INTO "outbox" ("id", "type", "payload") VALUES ('00000000-0000-0000-0000-000000000001', 'a.b.c', '\\x00');`,
    });
    await applyMigrations({ databaseUrl: database.url, schema: 'delta', migrationsDir: early });
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    try {
      const { rows } = await client.query(`SELECT "id"::text, "claimed_until" FROM delta.outbox`);
      expect(rows).toEqual([{ id: '00000000-0000-0000-0000-000000000001', claimed_until: null }]);
    } finally {
      await client.end();
    }
  });
});
