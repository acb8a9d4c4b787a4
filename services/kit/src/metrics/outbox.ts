import type { SqlClient } from '../outbox/sql-client.js';
import { qualifiedTable } from '../outbox/sql-client.js';
import { onEveryProvider } from './provider.js';

/** The backlog is read at most this often, however often Prometheus scrapes (and however many readers collect). */
const REFRESH_MS = 10_000;
/** Counting stops here: past it the number only says "far behind", and counting millions of rows costs a scan. */
export const BACKLOG_COUNT_CAP = 100_000;

interface ObservedOutbox {
  db: SqlClient;
  statement: string;
  attributes: { component: string };
  last?: { at: number; backlog: number; oldestAgeSeconds: number };
  reading?: Promise<void>;
}

const outboxes = new Set<ObservedOutbox>();

onEveryProvider((meter) => {
  const backlog = meter.createObservableGauge('snapcracks.outbox.backlog', {
    description: `Outbox rows not yet published (counted up to ${BACKLOG_COUNT_CAP})`,
    unit: '{row}',
  });
  const oldestAge = meter.createObservableGauge('snapcracks.outbox.oldest_age', {
    description: 'Age of the oldest outbox row not yet published; 0 when none waits',
    unit: 's',
  });
  meter.addBatchObservableCallback(
    async (result) => {
      await Promise.all([...outboxes].map(refreshIfStale));
      for (const outbox of outboxes) {
        if (!outbox.last) continue;
        result.observe(backlog, outbox.last.backlog, outbox.attributes);
        result.observe(oldestAge, outbox.last.oldestAgeSeconds, outbox.attributes);
      }
    },
    [backlog, oldestAge],
  );
});

function refreshIfStale(outbox: ObservedOutbox): Promise<void> {
  if (outbox.last && Date.now() - outbox.last.at < REFRESH_MS) return Promise.resolve();
  outbox.reading ??= Promise.resolve(outbox.db.$queryRawUnsafe<{ backlog: number; oldest_age: number }[]>(outbox.statement))
    .then(([row]) => {
      outbox.last = { at: Date.now(), backlog: Number(row?.backlog ?? 0), oldestAgeSeconds: Number(row?.oldest_age ?? 0) };
    })
    // A failed read reports nothing new: the previous values stand until the next collection tries again.
    .catch(() => undefined)
    .finally(() => {
      outbox.reading = undefined;
    });
  return outbox.reading;
}

/**
 * Reports a service's outbox backlog (rows not yet published) and the age of its oldest unpublished row, read with one
 * indexed statement at collection time, at most every 10 s. Every replica reports the same table: aggregate with max.
 * Returns the function that stops reporting it.
 */
export function observeOutbox(db: SqlClient, options: { schema: string; component: string }): () => void {
  const table = qualifiedTable(options.schema, 'outbox');
  const observed: ObservedOutbox = {
    db,
    attributes: { component: options.component },
    // The (published_at, created_at) index answers both: the unpublished rows are one range of it.
    statement: `SELECT (SELECT count(*) FROM (SELECT 1 FROM ${table} WHERE "published_at" IS NULL LIMIT ${BACKLOG_COUNT_CAP}) AS waiting)::int AS "backlog",
      COALESCE(GREATEST(0, EXTRACT(EPOCH FROM now() - (SELECT min("created_at") FROM ${table} WHERE "published_at" IS NULL))), 0)::float8 AS "oldest_age"`,
  };
  outboxes.add(observed);
  return () => void outboxes.delete(observed);
}
