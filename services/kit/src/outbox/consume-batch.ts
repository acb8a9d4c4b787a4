import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import type pg from 'pg';
import type { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import { inTransaction, poolSqlClient, type PgTransaction } from './pg-sql-client.js';
import { qualifiedTable } from './sql-client.js';

/** A statement and its values ($1, $2, … in the text). */
export interface BatchStatement {
  text: string;
  values: unknown[];
}

/** Any work in the transaction that records the batch's events: BEGIN, the record, the work, COMMIT. */
export interface BatchInTransaction {
  /**
   * The reaction to the events of a batch not handled before (in delivery order, each id once), run in the
   * transaction that records them. Throwing rolls the whole batch back.
   */
  handle: (events: Envelope[], tx: PgTransaction) => Promise<void>;
}

/**
 * The whole reaction as one statement on the pool: one round trip, atomic by itself, instead of the four or more of a
 * transaction. Null when the batch asks nothing of the database.
 */
export interface BatchInOneStatement {
  statementOf: (events: Envelope[]) => BatchStatement | null;
  /**
   * False for a statement that is idempotent by itself (absolute values with versions, inserts that ignore repeats):
   * it gets every event delivered and records none. True for one that is not: it starts with WITH, and the kit puts
   * first in that list `"recorded"("event_id" uuid)`, the ids of the batch it has just recorded as handled, which
   * were not before; the statement must leave out every event whose id is not there.
   */
  deduplicate: boolean;
}

export type BatchConsumption = (BatchInTransaction | BatchInOneStatement) & {
  /** The consuming service's pool (kit's Database.pool). */
  pool: pg.Pool;
  /** The Postgres schema holding its `processed_events` table. */
  schema: string;
  /** Names the reaction, e.g. "stats.votes"; one event is handled once per consumer. */
  consumer: string;
  /** Most events in one transaction. */
  maxBatch?: number;
  /**
   * Called once a transaction that handled new events committed (BatchInTransaction), e.g. to nudge the outbox relay
   * so that the events the handler stored leave now rather than at its next poll.
   */
  afterCommit?: () => void;
  logger: Logger;
};

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
 * then finds it recorded. A reaction that fits one statement (BatchInOneStatement) skips the transaction: the record,
 * when it needs one, goes into the statement. When a batch fails (a handler threw, a deadlock), its events are handled
 * again one at a time, so one bad event fails alone and the bus redelivers only it. Returns the bus's handler: it
 * resolves once the event's batch committed (or it was handled before) and rejects with the error
 * its own attempt met.
 */
export function createBatchConsumer(consumption: BatchConsumption): (event: Envelope) => Promise<void> {
  const { pool, schema, consumer, maxBatch = 64, afterCommit, logger } = consumption;
  const recordTable = qualifiedTable(schema, 'processed_events');
  const record = recordSql(recordTable, 1);
  const onPool = poolSqlClient(pool);
  /** Each deduplicating statement's text with the record put first, made once (the texts come from code: few). */
  const withRecord = new Map<string, string>();
  const waiting: Waiting[] = [];
  let draining = false;

  // Sorted: two transactions recording overlapping ids (replicas given the same redelivery) then wait in one order, not in a circle.
  const sortedIds = (events: Envelope[]) => events.map((e) => e.id).sort();

  async function commit(events: Envelope[]): Promise<void> {
    if ('handle' in consumption) {
      const handled = await inTransaction(pool, async (tx) => {
        const recorded = await tx.$queryRawUnsafe<{ event_id: string }[]>(record, consumer, sortedIds(events));
        const fresh = new Set(recorded.map((r) => r.event_id));
        // PostgreSQL answers a uuid in lower case, whatever case the producer wrote it in.
        const todo = events.filter((e) => fresh.has(e.id.toLowerCase()));
        if (todo.length > 0) await consumption.handle(todo, tx);
        return todo.length > 0;
      });
      if (handled) afterCommit?.();
      return;
    }
    const statement = consumption.statementOf(events);
    if (!statement) return;
    if (!consumption.deduplicate) {
      await onPool.$executeRawUnsafe(statement.text, ...statement.values);
      return;
    }
    let text = withRecord.get(statement.text);
    if (text === undefined) withRecord.set(statement.text, (text = recordedFirst(statement.text, recordTable, statement.values.length + 1)));
    await onPool.$executeRawUnsafe(text, ...statement.values, consumer, sortedIds(events));
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

/**
 * Records the ids in parameter `first + 1` as handled by the consumer in parameter `first`, unless they were, and
 * answers the ones it recorded now (`"event_id"`).
 */
function recordSql(recordTable: string, first: number): string {
  return `INSERT INTO ${recordTable} ("consumer", "event_id")
    SELECT $${first}, "id" FROM unnest($${first + 1}::uuid[]) WITH ORDINALITY AS ids("id", "n") ORDER BY "n"
    ON CONFLICT DO NOTHING RETURNING "event_id"`;
}

/**
 * A deduplicating statement with the record of its batch first in its WITH list, as `"recorded"("event_id")`. A
 * concurrent duplicate in another statement waits on the row lock and then finds it recorded, as in a transaction.
 */
function recordedFirst(text: string, recordTable: string, first: number): string {
  const opening = /^\s*WITH\s+(?!RECURSIVE\b)/i.exec(text);
  if (!opening) throw new Error('a deduplicating batch statement starts with WITH (not WITH RECURSIVE): the record of its events goes first in that list');
  return `WITH "recorded" AS (${recordSql(recordTable, first)}), ${text.slice(opening[0].length)}`;
}
