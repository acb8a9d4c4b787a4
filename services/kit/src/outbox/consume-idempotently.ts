import type { Envelope } from '@snapcracks/proto/events/v1';
import { qualifiedTable, type SqlClient, type TransactionalClient } from './sql-client.js';

export interface IdempotentConsumption<Tx extends SqlClient> {
  /** The consuming service's Prisma client. */
  prisma: TransactionalClient<Tx>;
  /** The Postgres schema holding its `processed_events` table. */
  schema: string;
  /** Names the reaction, e.g. "stats.user-stats"; one event is handled once per consumer. */
  consumer: string;
  event: Pick<Envelope, 'id'>;
  /** The reaction, run in the same transaction that records the event as processed. */
  handle: (tx: Tx) => Promise<void>;
}

/**
 * Handles `event` at most once per consumer, however often the bus delivers it: the event id is recorded in
 * the same transaction as the handler's changes, and a delivery whose id is already recorded changes nothing.
 * A concurrent duplicate waits on the first one's row lock and then finds it recorded. Returns whether the
 * handler ran.
 */
export async function consumeIdempotently<Tx extends SqlClient>({
  prisma,
  schema,
  consumer,
  event,
  handle,
}: IdempotentConsumption<Tx>): Promise<boolean> {
  const table = qualifiedTable(schema, 'processed_events');
  return prisma.$transaction(async (tx) => {
    const inserted = await tx.$executeRawUnsafe(
      `INSERT INTO ${table} ("consumer", "event_id") VALUES ($1, $2::uuid) ON CONFLICT DO NOTHING`,
      consumer,
      event.id,
    );
    if (inserted === 0) return false;
    await handle(tx);
    return true;
  });
}
