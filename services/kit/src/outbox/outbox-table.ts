import { newEventId } from '../bus/event-ids.js';
import { Envelope } from '@snapcracks/proto/events/v1';
import { encodeEvents } from '../bus/event-messages.js';
import { qualifiedTable, type SqlClient } from './sql-client.js';
import type { Statement } from './pg-sql-client.js';

/** A row waiting for the relay: one event (its id is the row's) or a batch of events of one type. */
export interface UnpublishedRow {
  id: string;
  type: string;
  payload: Uint8Array;
}

interface NewRow {
  id: string;
  type: string;
  payload: Uint8Array;
  traceParent: string | null;
}

/** What became of claimed rows: on the bus for good, or handed back at once for the next attempt (the publish failed). */
export interface RelayOutcomes {
  published: string[];
  released: string[];
}
const NO_OUTCOMES: RelayOutcomes = { published: [], released: [] };

/** A batch row stays one modest bus message (NATS refuses messages over 1 MB by default). */
const MAX_BATCH_EVENTS = 500;
const MAX_BATCH_BYTES = 256 * 1024;

/** An event's encoded size, closely enough to bound a batch without encoding it twice. */
const approximateSize = (e: Envelope) => e.payload.length + e.id.length + e.type.length + e.source.length + e.traceparent.length + 24;

/**
 * The rows that store `events` in their order: each run of consecutive events of one type becomes one batch row
 * (within the bounds above), a lone event its own row with its own id, exactly as `insert` stores it.
 */
function rowsOf(events: readonly Envelope[]): NewRow[] {
  const rows: NewRow[] = [];
  let run: Envelope[] = [];
  let runBytes = 0;
  const flush = () => {
    if (run.length === 1) rows.push({ id: run[0]!.id, type: run[0]!.type, payload: encodeEvents(run), traceParent: run[0]!.traceparent || null });
    else if (run.length > 1) rows.push({ id: newEventId(), type: run[0]!.type, payload: encodeEvents(run), traceParent: null });
    run = [];
    runBytes = 0;
  };
  for (const event of events) {
    const size = approximateSize(event);
    const full = run.length >= MAX_BATCH_EVENTS || (run.length > 0 && runBytes + size > MAX_BATCH_BYTES);
    if (run.length > 0 && (run[0]!.type !== event.type || full)) flush();
    run.push(event);
    runBytes += size;
  }
  flush();
  return rows;
}

/** Rows stamped in one process keep their enqueue order even within one millisecond (the column keeps ms). */
let lastCreatedAt = 0;
function monotonicNow(): Date {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt);
}

/** The SQL of a service's `outbox` and `processed_events` tables; the schema name comes from code and is quoted. */
export function outboxTable(schema: string) {
  const table = qualifiedTable(schema, 'outbox');
  const processed = qualifiedTable(schema, 'processed_events');
  const insertOne = (event: Envelope): Statement => ({
    text: `INSERT INTO ${table} ("id", "type", "payload", "trace_parent", "created_at") VALUES ($1::uuid, $2, $3, $4, $5)`,
    values: [event.id, event.type, Envelope.encode(event).finish(), event.traceparent || null, monotonicNow()],
  });
  return {
    /** Stores the whole encoded envelope, so the relay publishes exactly what the producer built. */
    async insert(tx: SqlClient, event: Envelope): Promise<void> {
      const { text, values } = insertOne(event);
      await tx.$executeRawUnsafe(text, ...values);
    },
    /**
     * Stores several events in one statement, in their order (a batch of changes committing together): consecutive
     * events of one type share a row, which the relay publishes as one message.
     */
    async insertAll(tx: SqlClient, events: readonly Envelope[]): Promise<void> {
      const statement = this.insertAllStatement(events);
      if (statement) await tx.$executeRawUnsafe(statement.text, ...statement.values);
    },
    /** The statement insertAll runs, for a transaction that sends it itself (with its COMMIT); null for no events. */
    insertAllStatement(events: readonly Envelope[]): Statement | null {
      if (events.length === 0) return null;
      if (events.length === 1) return insertOne(events[0]!);
      const rows = rowsOf(events);
      return {
        text: `INSERT INTO ${table} ("id", "type", "payload", "trace_parent", "created_at")
         SELECT * FROM unnest($1::uuid[], $2::text[], $3::bytea[], $4::text[], $5::timestamptz[])`,
        values: [
          rows.map((r) => r.id),
          rows.map((r) => r.type),
          rows.map((r) => Buffer.from(r.payload)),
          rows.map((r) => r.traceParent),
          rows.map(() => monotonicNow()),
        ],
      };
    },
    /**
     * Records what became of rows this relay claimed before (`outcomes`: published, or handed back after a failed
     * publish) and claims the oldest unpublished rows that nobody holds, in one short statement: each claimed row gets
     * a lease of `leaseMs`, during which other relays skip it; `skip` names rows this relay is still publishing, and
     * must name those being recorded (one statement cannot change a row twice). With a lease of 0 (one relay in the
     * process, nobody to share with) leases are ignored. A limit of 0 only records.
     */
    async claim(db: SqlClient, limit: number, leaseMs: number, skip: string[], outcomes: RelayOutcomes = NO_OUTCOMES): Promise<UnpublishedRow[]> {
      const free = leaseMs > 0 ? `AND ("claimed_until" IS NULL OR "claimed_until" < now())` : '';
      const rows = await db.$queryRawUnsafe<(UnpublishedRow & { created_at: Date })[]>(
        `WITH "published" AS (
           UPDATE ${table} SET "published_at" = CURRENT_TIMESTAMP, "claimed_until" = NULL WHERE "id" = ANY($4::uuid[])
         ), "released" AS (
           UPDATE ${table} SET "claimed_until" = NULL WHERE "id" = ANY($5::uuid[]) AND "published_at" IS NULL
         )
         UPDATE ${table} SET "claimed_until" = now() + make_interval(secs => $2::double precision / 1000)
         WHERE "id" IN (
           SELECT "id" FROM ${table}
           WHERE "published_at" IS NULL ${free} AND NOT ("id" = ANY($3::uuid[]))
           ORDER BY "created_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED)
         RETURNING "id"::text AS "id", "type", "payload", "created_at"`,
        limit,
        leaseMs,
        skip,
        outcomes.published,
        outcomes.released,
      );
      // UPDATE … RETURNING keeps no order.
      return rows.sort((a, b) => a.created_at.getTime() - b.created_at.getTime() || (a.id < b.id ? -1 : 1));
    },
    deletePublishedBefore(db: SqlClient, cutoff: Date): PromiseLike<number> {
      return db.$executeRawUnsafe(`DELETE FROM ${table} WHERE "published_at" < $1`, cutoff);
    },
    /** Forgets handled event ids the bus can no longer redeliver. */
    deleteProcessedBefore(db: SqlClient, cutoff: Date): PromiseLike<number> {
      return db.$executeRawUnsafe(`DELETE FROM ${processed} WHERE "processed_at" < $1`, cutoff);
    },
  };
}
export type OutboxTable = ReturnType<typeof outboxTable>;
