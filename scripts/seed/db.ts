/**
 * What the seed, its check and the gallery benchmark share: the pg driver (the kit's dependency, loaded from there
 * as the upload benchmark loads sharp from storage: the root package has no runtime dependencies), the migrations
 * as `pnpm db:migrate` applies them, and a little formatting.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

export const pg = createRequire(new URL('../../services/kit/package.json', import.meta.url))('pg') as typeof import('pg');
export type Client = import('pg').Client;
export type Pool = import('pg').Pool;

const main = fileURLToPath(new URL('../../services/all-in-one/src/main.ts', import.meta.url));

/** Applies every component's migrations to `databaseUrl`, as `pnpm db:migrate` does (SERVICE=migrate). */
export function migrate(databaseUrl: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...process.env, DATABASE_URL: databaseUrl, SERVICE: 'migrate', LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`Migrations failed (exit ${code}):\n${output.slice(-3000)}`))));
  });
}

/** Opens one connection; `work` runs on it and it is closed afterwards, whatever happens. */
export async function withClient<T>(databaseUrl: string, work: (client: Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** The same server, another database: `postgresql://…/name`. */
export function databaseUrlFor(serverUrl: string, name: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const count = (n: number) => n.toLocaleString('en-US');
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

export async function run(client: Client, sql: string, values: unknown[] = []): Promise<number> {
  const result = await client.query(sql, values);
  return result.rowCount ?? 0;
}

/**
 * Runs an INSERT into `table`; when the table is empty, its keys, foreign keys (its own and those of tables that
 * reference it) and indexes are dropped first and built once afterwards, with the names and definitions the migrations
 * gave them (read from the catalog): much faster than maintaining and checking them row by row.
 */
export async function bulkInsert(client: Client, table: string, sql: string, values: unknown[] = []): Promise<number> {
  const { rows: state } = await client.query<{ empty: boolean }>(`SELECT NOT EXISTS (SELECT 1 FROM ${table}) AS "empty"`);
  if (!state[0]!.empty) return run(client, sql, values);
  // Keys before foreign keys when they are made again (a foreign key needs the key it references), the other way round
  // when they are dropped.
  const { rows: constraints } = await client.query<{ table: string; name: string; definition: string }>(
    `SELECT conrelid::regclass::text AS "table", conname AS "name", pg_get_constraintdef(oid) AS "definition" FROM pg_constraint
     WHERE (conrelid = $1::regclass AND contype IN ('p', 'u', 'f')) OR (confrelid = $1::regclass AND contype = 'f')
     ORDER BY contype = 'f', conrelid = $1::regclass DESC`,
    [table],
  );
  const { rows: indexes } = await client.query<{ name: string; definition: string }>(
    `SELECT i.indexrelid::regclass::text AS "name", pg_get_indexdef(i.indexrelid) AS "definition" FROM pg_index i
     WHERE i.indrelid = $1::regclass AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conindid = i.indexrelid)`,
    [table],
  );
  for (const c of [...constraints].reverse()) await client.query(`ALTER TABLE ${c.table} DROP CONSTRAINT ${quoteIdent(c.name)}`);
  for (const i of indexes) await client.query(`DROP INDEX ${i.name}`);
  const rows = await run(client, sql, values);
  for (const i of indexes) await client.query(i.definition);
  for (const c of constraints) await client.query(`ALTER TABLE ${c.table} ADD CONSTRAINT ${quoteIdent(c.name)} ${c.definition}`);
  return rows;
}
