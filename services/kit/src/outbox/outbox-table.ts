import { Envelope } from '@snapcracks/proto/events/v1';
import { qualifiedTable, type SqlClient } from './sql-client.js';

export interface UnpublishedRow {
  id: string;
  payload: Uint8Array;
}

/** Rows stamped in one process keep their enqueue order even within one millisecond (the column keeps ms). */
let lastCreatedAt = 0;
function monotonicNow(): Date {
  lastCreatedAt = Math.max(Date.now(), lastCreatedAt + 1);
  return new Date(lastCreatedAt);
}

/** The SQL of a service's `outbox` table; the schema name comes from code and is quoted. */
export function outboxTable(schema: string) {
  const table = qualifiedTable(schema, 'outbox');
  return {
    /** Stores the whole encoded envelope, so the relay publishes exactly what the producer built. */
    async insert(tx: SqlClient, event: Envelope): Promise<void> {
      await tx.$executeRawUnsafe(
        `INSERT INTO ${table} ("id", "type", "payload", "trace_parent", "created_at") VALUES ($1::uuid, $2, $3, $4, $5)`,
        event.id,
        event.type,
        Envelope.encode(event).finish(),
        event.traceparent || null,
        monotonicNow(),
      );
    },

    /** The oldest unpublished rows that no other relay holds, locked until the transaction ends. */
    lockUnpublished(tx: SqlClient, limit: number): PromiseLike<UnpublishedRow[]> {
      return tx.$queryRawUnsafe<UnpublishedRow[]>(
        `SELECT "id"::text AS "id", "payload" FROM ${table} WHERE "published_at" IS NULL ORDER BY "created_at", "id" LIMIT $1 FOR UPDATE SKIP LOCKED`,
        limit,
      );
    },

    async markPublished(tx: SqlClient, ids: string[]): Promise<void> {
      await tx.$executeRawUnsafe(`UPDATE ${table} SET "published_at" = CURRENT_TIMESTAMP WHERE "id" = ANY($1::uuid[])`, ids);
    },

    deletePublishedBefore(db: SqlClient, cutoff: Date): PromiseLike<number> {
      return db.$executeRawUnsafe(`DELETE FROM ${table} WHERE "published_at" < $1`, cutoff);
    },
  };
}

export type OutboxTable = ReturnType<typeof outboxTable>;
