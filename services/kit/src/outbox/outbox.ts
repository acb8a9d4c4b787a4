import type { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import type { EventBus } from '../bus/event-bus.js';
import { outboxTable } from './outbox-table.js';
import { createOutboxRelay, type OutboxRelayOptions } from './outbox-relay.js';
import type { SqlClient } from './sql-client.js';
import type { Statement } from './pg-sql-client.js';
import { observeOutbox } from '../metrics/outbox.js';

export interface OutboxOptions extends OutboxRelayOptions {
  /**
   * Where the relay claims and marks rows, one statement at a time (no transaction): the service's pool
   * (`poolSqlClient(pool)`), which costs a fraction of Prisma's per-call overhead for the same statements, or its
   * Prisma client.
   */
  db?: SqlClient;
  /** The same as `db`, under the name it had when only a Prisma client would do. */
  prisma?: SqlClient;
  /** The Postgres schema holding the service's `outbox` table; given explicitly so no search_path is assumed. */
  schema: string;
  bus: EventBus;
  logger: Logger;
  /** Names the service in its metrics; the schema's name by default (each service's schema is named after it). */
  component?: string;
}

/**
 * A service's transactional outbox: an event is stored in the same transaction as the change it reports and
 * published by the relay once committed, so a change is never without its event nor an event without its change.
 */
export interface Outbox {
  /** Stores `event` inside the caller's transaction: `prisma.$transaction(async (tx) => { ...; await outbox.enqueue(tx, event) })`. */
  enqueue(tx: SqlClient, event: Envelope): Promise<void>;
  /** Stores several events inside the caller's transaction in one statement, in their order. */
  enqueueAll(tx: SqlClient, events: readonly Envelope[]): Promise<void>;
  /**
   * The one statement enqueueAll would run for `events` (null for none), for a transaction that sends it with its
   * COMMIT (`tx.commitWith`).
   */
  statementFor(events: readonly Envelope[]): Statement | null;
  /** Starts publishing committed events in the background. */
  startRelay(): void;
  /** Stops the relay after the batch it is publishing. */
  stopRelay(): Promise<void>;
  /** Tells the relay that a transaction with events just committed, so it publishes now rather than at the next poll. */
  nudge(): void;
}

export function createOutbox({ db, prisma, schema, bus, logger, component, ...relayOptions }: OutboxOptions): Outbox {
  const table = outboxTable(schema);
  const client = db ?? prisma;
  if (!client) throw new Error('createOutbox: give it the service\'s database (`db`)');
  const relay = createOutboxRelay({ db: client, table, bus, logger }, relayOptions);
  let unobserve: (() => void) | undefined;
  return {
    enqueue: (tx, event) => table.insert(tx, event),
    enqueueAll: (tx, events) => table.insertAll(tx, events),
    statementFor: (events) => table.insertAllStatement(events),
    startRelay: () => {
      unobserve ??= observeOutbox(client, { schema, component: component ?? schema });
      relay.start();
    },
    stopRelay: async () => {
      unobserve?.();
      unobserve = undefined;
      await relay.stop();
    },
    nudge: () => relay.nudge(),
  };
}
