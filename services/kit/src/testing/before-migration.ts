import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { applyMigrations } from '../migrations.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

export interface DatabaseBeforeMigration extends TestDatabase {
  /** Applies the migration under test and every later one, as the next release's migration job would. */
  migrate(): Promise<void>;
}

/**
 * For a migration's test: a fresh database with `schema` migrated up to the migration before the one named
 * `<timestamp>_<migration>` in `migrationsDir`, the state the previous release left, for the test to fill.
 */
export async function databaseBeforeMigration(options: { prefix: string; schema: string; migrationsDir: string; migration: string }): Promise<DatabaseBeforeMigration> {
  const { schema, migrationsDir } = options;
  const names = readdirSync(migrationsDir).filter((name) => /^\d+_/.test(name)).sort();
  const next = names.findIndex((name) => name.endsWith(`_${options.migration}`));
  if (next < 0) throw new Error(`No migration named ${options.migration} in ${migrationsDir}`);
  const before = mkdtempSync(join(tmpdir(), `${schema}-before-${options.migration}-`));
  for (const name of names.slice(0, next)) cpSync(join(migrationsDir, name), join(before, name), { recursive: true });
  const database = await createTestDatabase(options.prefix);
  try {
    await applyMigrations({ databaseUrl: database.url, schema, migrationsDir: before });
  } catch (error) {
    await database.drop();
    throw error;
  } finally {
    rmSync(before, { recursive: true, force: true });
  }
  return { ...database, migrate: async () => void (await applyMigrations({ databaseUrl: database.url, schema, migrationsDir })) };
}
