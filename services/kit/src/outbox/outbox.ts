import type { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import type { EventBus } from '../bus/event-bus.js';
import { outboxTable } from './outbox-table.js';
import { createOutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
import type { SqlClient, TransactionalSqlClient } from './sql-client.js';

export interface OutboxOptions extends OutboxRelayOptions {
  /** The service's Prisma client. */
  prisma: TransactionalSqlClient;
  /** The Postgres schema holding the service's `outbox` table; given explicitly so no search_path is assumed. */
  schema: string;
  bus: EventBus;
  logger: Logger;
}

/**
 * A service's transactional outbox: an event is stored in the same transaction as the change it reports and
 * published by the relay once committed, so a change is never without its event nor an event without its change.
 */
export interface Outbox {
  /** Stores `event` inside the caller's transaction: `prisma.$transaction(async (tx) => { ...; await outbox.enqueue(tx, event) })`. */
  enqueue(tx: SqlClient, event: Envelope): Promise<void>;
  /** Starts publishing committed events in the background. */
  startRelay(): void;
  /** Stops the relay after the batch it is publishing. */
  stopRelay(): Promise<void>;
  /** Tells the relay that a transaction with events just committed, so it publishes now rather than at the next poll. */
  nudge(): void;
}

export function createOutbox({ prisma, schema, bus, logger, ...relayOptions }: OutboxOptions): Outbox {
  const table = outboxTable(schema);
  const relay = createOutboxRelay({ prisma, table, bus, logger }, relayOptions);
  return {
    enqueue: (tx, event) => table.insert(tx, event),
    startRelay: () => relay.start(),
    stopRelay: () => relay.stop(),
    nudge: () => relay.nudge(),
  };
}
