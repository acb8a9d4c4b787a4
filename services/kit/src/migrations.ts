import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { Logger } from './logger.js';

/** The kit's own migrations (the outbox and processed-events tables), applied to every component's schema. */
const KIT_MIGRATIONS_DIR = fileURLToPath(new URL('../migrations', import.meta.url));
const KIT_PREFIX = 'kit:';

/**
 * Applies a service's committed Prisma migrations (`prisma/migrations/<timestamp>_<name>/migration.sql`)
 * to its own Postgres schema. Prisma authors the SQL (`pnpm db:migration`); this small runner applies it,
 * because Prisma 6's WebAssembly migrate engine cannot deploy through the pg adapter on every server.
 *
 * Each migration runs in its own transaction with `search_path` set to the service's schema, under an
 * advisory lock so that concurrent starts (several replicas, a migration job) apply it exactly once.
 * An applied migration whose file changed afterwards stops the run: history is never rewritten silently.
 * After the component's own migrations come the kit's (recorded as `kit:<name>`), so every schema has the
 * kit's tables in their current shape.
 */
export async function applyMigrations(options: {
  databaseUrl: string;
  schema: string;
  migrationsDir: string;
  logger?: Logger;
}): Promise<{ applied: string[] }> {
  const { databaseUrl, schema, migrationsDir, logger } = options;
  const migrations = [...(await readMigrations(migrationsDir)), ...(await readMigrations(KIT_MIGRATIONS_DIR, KIT_PREFIX))];
  const client = new pg.Client({ connectionString: databaseUrl, application_name: 'snapcracks-migrate' });
  await client.connect();
  const applied: string[] = [];
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', [`snapcracks.migrations.${schema}`]);
    const s = quoteIdent(schema);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${s}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${s}."_migrations" (name TEXT PRIMARY KEY, checksum TEXT NOT NULL, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ name: string; checksum: string }>(`SELECT name, checksum FROM ${s}."_migrations"`);
    const done = new Map(rows.map((r) => [r.name, r.checksum]));
    for (const migration of migrations) {
      const previous = done.get(migration.name);
      if (previous !== undefined) {
        if (previous !== migration.checksum) {
          throw new Error(`Migration ${schema}/${migration.name} was changed after it was applied; add a new migration instead`);
        }
        continue;
      }
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO ${s}`);
        await client.query(migration.sql);
        await client.query(`INSERT INTO ${s}."_migrations" (name, checksum) VALUES ($1, $2)`, [migration.name, migration.checksum]);
        await client.query('COMMIT');
      } catch (error) {
        await client.query('ROLLBACK');
        throw new Error(`Migration ${schema}/${migration.name} failed: ${(error as Error).message}`, { cause: error });
      }
      applied.push(migration.name);
      logger?.info({ schema, migration: migration.name }, 'applied migration');
    }
  } finally {
    await client.query('SELECT pg_advisory_unlock(hashtext($1))', [`snapcracks.migrations.${schema}`]).catch(() => undefined);
    await client.end();
  }
  return { applied };
}

interface Migration {
  name: string;
  sql: string;
  checksum: string;
}

async function readMigrations(dir: string, prefix = ''): Promise<Migration[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const names = entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  return Promise.all(
    names.map(async (name) => {
      const sql = await readFile(join(dir, name, 'migration.sql'), 'utf8');
      return { name: prefix + name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
    }),
  );
}

export function quoteIdent(identifier: string): string {
  return `"${identifier.replaceAll('"', '""')}"`;
}
