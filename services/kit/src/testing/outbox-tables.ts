import { readFileSync } from 'node:fs';
import pg from 'pg';
import { quoteIdentifier } from '../outbox/sql-client.js';

const kitMigration = readFileSync(new URL('../../migrations/0001_outbox_claims/migration.sql', import.meta.url), 'utf8');

/**
 * Creates `schema` with the outbox and processed_events tables exactly as the kit's migration makes them
 * in every component's schema, so the kit's tests run against the real shape.
 */
export async function createOutboxTables(databaseUrl: string, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA ${s}; SET search_path TO ${s};`);
    await client.query(kitMigration);
  } finally {
    await client.end();
  }
}
