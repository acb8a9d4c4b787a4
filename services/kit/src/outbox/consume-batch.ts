import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import type pg from 'pg';
import type { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import { inTransaction, type PgTransaction } from './pg-sql-client.js';
import { qualifiedTable } from './sql-client.js';

export interface BatchConsumption {
  /** The consuming service's pool (kit's Database.pool). */
  pool: pg.Pool;
  /** The Postgres schema holding its `processed_events` table. */
  schema: string;
  /** Names the reaction, e.g. "stats.votes"; one event is handled once per consumer. */
  consumer: string;
  /**
   * The reaction to the events of a batch not handled before (in delivery order, each id once), run in the
   * transaction that records them. Throwing rolls the whole batch back.
   */
  handle: (events: Envelope[], tx: PgTransaction) => Promise<void>;
  /** Most events in one transaction. */
  maxBatch?: number;
  logger: Logger;
}

interface Waiting {
  event: Envelope;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Idempotent consumption on the pool, many events per transaction (group commit): events delivered while a batch
 * commits wait and go together into the next one, so a busy consumer pays BEGIN, the record of the ids and COMMIT once
 * per batch instead of once per event, and an idle one handles an event at once. Give the bus a concurrency above
 * `maxBatch` (the next batch gathers while one commits).
 *
 * The guarantees of consumeIdempotently hold per event: one statement records every id of the batch in
 * `processed_events` and answers the new ones; only those are handled, in the same transaction, so a redelivery (or a
 * duplicate in the batch) changes nothing, and a concurrent duplicate in another transaction waits on the row lock and
 * then finds it recorded. When a batch fails (a handler threw, a deadlock), its events are handled again one per
 * transaction, so one bad event fails alone and the bus redelivers only it. Returns the bus's handler: it resolves once
 * the event's batch committed (or it was handled before) and rejects with the error its own transaction met.
 */
export function createBatchConsumer({ pool, schema, consumer, handle, maxBatch = 64, logger }: BatchConsumption): (event: Envelope) => Promise<void> {
  const record = `INSERT INTO ${qualifiedTable(schema, 'processed_events')} ("consumer", "event_id")
    SELECT $1, "id" FROM unnest($2::uuid[]) WITH ORDINALITY AS ids("id", "n") ORDER BY "n"
    ON CONFLICT DO NOTHING RETURNING "event_id"::text AS "id"`;
  const waiting: Waiting[] = [];
  let draining = false;

  async function commit(events: Envelope[]): Promise<void> {
    await inTransaction(pool, async (tx) => {
      // Sorted: two transactions recording overlapping ids (replicas given the same redelivery) then wait in one order, not in a circle.
      const recorded = await tx.$queryRawUnsafe<{ id: string }[]>(record, consumer, events.map((e) => e.id).sort());
      const fresh = new Set(recorded.map((r) => r.id));
      // PostgreSQL answers a uuid in lower case, whatever case the producer wrote it in.
      const todo = events.filter((e) => fresh.has(e.id.toLowerCase()));
      if (todo.length > 0) await handle(todo, tx);
    });
  }

  async function handleBatch(batch: Waiting[]): Promise<void> {
    const events = [...new Map(batch.map((w) => [w.event.id, w.event])).values()];
    const settle = (id: string, error?: unknown) => {
      for (const w of batch) {
        if (w.event.id !== id) continue;
        if (error === undefined) w.resolve();
        else w.reject(error);
      }
    };
    try {
      await commit(events);
      for (const w of batch) w.resolve();
      return;
    } catch (error) {
      if (events.length === 1) return settle(events[0]!.id, error);
      logger.warn({ err: error, consumer, events: events.length }, 'event batch failed; handling its events one by one');
    }
    for (const event of events) {
      await commit([event]).then(
        () => settle(event.id),
        (error: unknown) => settle(event.id, error ?? new Error('event handler failed')),
      );
    }
  }

  async function drain(): Promise<void> {
    while (waiting.length > 0) await handleBatch(waiting.splice(0, maxBatch));
    draining = false;
  }

  return (event) =>
    new Promise<void>((resolve, reject) => {
      waiting.push({ event, resolve, reject });
      if (draining) return;
      draining = true;
      // From the next macrotask, so the events the bus hands over together make one batch; outside the delivering
      // event's trace, as the batch serves many (each event keeps its own consumer span, waiting for its batch).
      context.with(ROOT_CONTEXT, () => setImmediate(() => void drain()));
    });
}
