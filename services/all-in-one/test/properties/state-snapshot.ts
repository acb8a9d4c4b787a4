import { setTimeout as sleep } from 'node:timers/promises';
import type { openTestPool } from '@snapcracks/kit/testing';

type Pool = ReturnType<typeof openTestPool>;

/**
 * What the services hold, as one comparable value: per table, its row count and a hash of its rows.
 *
 * Which state counts:
 * - every table of every service schema (auth, photo, vote, moderation, stats, support, storage), including the
 *   outboxes (a refused request must not announce anything) and the consumers' processed-event records;
 * - not the gateway's schema: `sessions`, the callers' own sign-in state, which a refusal may rightly change (a failed
 *   sign-in callback ends the pending sign-in; a stale cookie is cleared) and which holds no product data, and
 *   `data_exports`, members' requests for a copy of their data (never made by these runs: json-routes.int.test.ts leaves
 *   that route out); nor the `_migrations` tables, which only migrations write;
 * - without the relay's and consumers' bookkeeping columns, which move on their own after any write: an outbox row's
 *   `published_at` / `claimed_until` and a processed event's `processed_at`; and the gallery prior's `refreshed_at`,
 *   which a timer in the photo service bumps. No table in the service schemas logs refusals, so nothing else is left out.
 */
export type Snapshot = Map<string, { rows: number; hash: string }>;

const VOLATILE_COLUMNS: Record<string, string[]> = {
  outbox: ['published_at', 'claimed_until'],
  processed_events: ['processed_at'],
  gallery_prior: ['refreshed_at'],
};
const EXCLUDED_SCHEMAS = ['gateway', 'pg_catalog', 'information_schema', 'public'];

const quote = (identifier: string) => `"${identifier.replaceAll('"', '""')}"`;

export class StateSnapshots {
  private constructor(
    private readonly pool: Pool,
    private readonly query: string,
    private readonly unpublishedQuery: string,
  ) {}

  /** Reads the service schemas' tables and columns once (they do not change while the system runs). */
  static async open(pool: Pool): Promise<StateSnapshots> {
    const { rows } = await pool.query<{ schema: string; table: string; columns: string[] }>(
      `SELECT c.table_schema AS schema, c.table_name AS table, array_agg(c.column_name::text ORDER BY c.ordinal_position) AS columns
         FROM information_schema.columns c
         JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name AND t.table_type = 'BASE TABLE'
        WHERE c.table_schema <> ALL($1) AND c.table_name <> '_migrations'
        GROUP BY 1, 2 ORDER BY 1, 2`,
      [EXCLUDED_SCHEMAS],
    );
    if (rows.length === 0) throw new Error('No service tables found: are the migrations applied?');
    const selects = rows.map(({ schema, table, columns }) => {
      const kept = columns.filter((column) => !VOLATILE_COLUMNS[table]?.includes(column));
      // Each row as text, hashed, the hashes in order: a stable digest whatever order PostgreSQL reads the rows in.
      const row = `md5(row(${kept.map((column) => `t.${quote(column)}`).join(', ')})::text)`;
      return `SELECT ${`'${schema}.${table}'`} AS name, count(*)::int AS rows, coalesce(md5(string_agg(${row}, '' ORDER BY ${row})), '') AS hash FROM ${quote(schema)}.${quote(table)} t`;
    });
    const outboxes = rows.filter(({ table }) => table === 'outbox');
    const unpublished = outboxes.map(({ schema }) => `(SELECT count(*) FROM ${quote(schema)}.outbox WHERE published_at IS NULL)`).join(' + ');
    return new StateSnapshots(pool, selects.join('\nUNION ALL\n'), `SELECT (${unpublished || '0'})::int AS n`);
  }

  async take(): Promise<Snapshot> {
    const { rows } = await this.pool.query<{ name: string; rows: number; hash: string }>(this.query);
    return new Map(rows.map(({ name, rows: count, hash }) => [name, { rows: count, hash }]));
  }

  /**
   * The state once the events a request set off have been handled: no outbox row waits to be published, and then
   * either the state is `expected` (the usual case, one read) or two reads a little apart agree. The in-process bus
   * marks a row published only once every consumer has handled it, and a consumer's own events land in its outbox in
   * the same transaction, so this covers the whole cascade.
   */
  async settled(expected?: Snapshot, timeoutMs = 10_000): Promise<Snapshot> {
    const deadline = Date.now() + timeoutMs;
    const overdue = (what: string) => {
      if (Date.now() > deadline) throw new Error(`The state did not settle within ${timeoutMs} ms: ${what}`);
    };
    for (;;) {
      const { rows } = await this.pool.query<{ n: number }>(this.unpublishedQuery);
      if (rows[0]!.n === 0) break;
      overdue(`${rows[0]!.n} events wait to be published`);
      await sleep(10);
    }
    let previous = await this.take();
    if (expected && sameState(previous, expected)) return previous;
    for (;;) {
      await sleep(25);
      const current = await this.take();
      if (sameState(previous, current)) return current;
      overdue(describeChanges(previous, current));
      previous = current;
    }
  }
}

export function sameState(a: Snapshot, b: Snapshot): boolean {
  return describeChanges(a, b) === '';
}

/** The tables whose rows differ, with their counts before → after; empty when none. */
export function describeChanges(before: Snapshot, after: Snapshot): string {
  const names = new Set([...before.keys(), ...after.keys()]);
  const changed = [...names].filter((name) => before.get(name)?.hash !== after.get(name)?.hash || before.get(name)?.rows !== after.get(name)?.rows);
  return changed.map((name) => `${name} (${before.get(name)?.rows ?? 0} → ${after.get(name)?.rows ?? 0} rows)`).join(', ');
}
