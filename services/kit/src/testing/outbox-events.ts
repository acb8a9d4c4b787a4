import type { Envelope } from '@snapcracks/proto/events/v1';
import { decodeEvents } from '../bus/event-messages.js';
import { qualifiedTable, type SqlClient } from '../outbox/sql-client.js';

/** The events a component has written to its outbox, oldest first (a batch row's in their order): what a test expects a change to announce. */
export async function outboxEvents(db: SqlClient, schema: string): Promise<Envelope[]> {
  const rows = await db.$queryRawUnsafe<{ payload: Uint8Array }[]>(`SELECT "payload" FROM ${qualifiedTable(schema, 'outbox')} ORDER BY "created_at", "id"`);
  return rows.flatMap((row) => decodeEvents(row.payload));
}

/** The (consumer, event id) pairs a component has recorded as handled. */
export async function processedEvents(db: SqlClient, schema: string): Promise<{ consumer: string; eventId: string }[]> {
  return db.$queryRawUnsafe<{ consumer: string; eventId: string }[]>(
    `SELECT "consumer", "event_id"::text AS "eventId" FROM ${qualifiedTable(schema, 'processed_events')} ORDER BY "processed_at"`,
  );
}
