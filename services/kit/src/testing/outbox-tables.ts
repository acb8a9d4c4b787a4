import pg from 'pg';
import { quoteIdentifier } from '../outbox/sql-client.js';

/**
 * Creates `schema` with the outbox and processed_events tables exactly as a service's Prisma migration
 * does, so the kit's tests run against the real shape.
 */
export async function createOutboxTables(databaseUrl: string, schema: string): Promise<void> {
  const s = quoteIdentifier(schema);
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(`
      CREATE SCHEMA ${s};
      CREATE TABLE ${s}."outbox" ("id" UUID NOT NULL, "type" TEXT NOT NULL, "payload" BYTEA NOT NULL, "trace_parent" TEXT, "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, "published_at" TIMESTAMPTZ(3), CONSTRAINT "outbox_pkey" PRIMARY KEY ("id"));
      CREATE INDEX "outbox_published_at_created_at_idx" ON ${s}."outbox"("published_at", "created_at");
      CREATE TABLE ${s}."processed_events" ("consumer" TEXT NOT NULL, "event_id" UUID NOT NULL, "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP, CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer","event_id"));
    `);
  } finally {
    await client.end();
  }
}
