import type { Logger } from '@snapcracks/kit';
import { rebuildStatsOn } from './rebuild.js';
import type { BackfillSources } from './backfill.sources.js';
import type { Pool } from './rebuild.pg-repository.js';

/** One replica rebuilds at a time; the others find the lock taken and look again later. */
const LOCK = `hashtext('stats.requested-rebuild')`;

export interface RequestedRebuilds {
  /** Waits for a rebuild in progress (its transaction commits or rolls back), then stops looking. */
  stop(): Promise<void>;
}

/**
 * A migration that adds a figure events cannot fill in for the past (votes per star) asks for a rebuild by inserting a
 * row into `rebuild_requests`. Every stats replica looks when it starts, and one of them rebuilds from the source
 * services (rebuildStats) and removes the requests it served. A source that is not up yet (a rolling upgrade, peers
 * still starting) only means another try after `retryMs`; the figures stay as they were meanwhile. This is what makes
 * such a migration complete in the all-in-one mode, where `pnpm stats:rebuild` cannot reach the services.
 */
export function serveRequestedRebuilds(pool: Pool, sources: () => BackfillSources, logger: Logger, retryMs = 30_000): RequestedRebuilds {
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();

  const attempt = async (): Promise<void> => {
    let done = false;
    try {
      done = await rebuildIfRequested(pool, sources, logger);
    } catch (error) {
      logger.warn({ err: error, retryInMs: retryMs }, 'requested stats rebuild failed; nothing was changed');
    }
    if (!done && !stopped) timer = setTimeout(() => (running = attempt()), retryMs);
  };
  running = attempt();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

/**
 * Rebuilds when a request is waiting and this replica holds the lock. Answers whether nothing is left to do here.
 * `sources` is called only then: without a request, no peer is needed (nor its address). The lock (a session advisory
 * lock) and the rebuild's transaction share one connection of `pool`, which the service opens straight to PostgreSQL
 * (DATABASE_DIRECT_URL, no statement timeout): one connection is all it takes.
 */
export async function rebuildIfRequested(pool: Pool, sources: () => BackfillSources, logger: Logger): Promise<boolean> {
  const client = await pool.connect();
  try {
    const { rows: lock } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK}) AS "locked"`);
    if (!lock[0]!.locked) return false;
    try {
      const { rows } = await client.query<{ upTo: number | null; reasons: string[] | null }>(
        `SELECT MAX("id") AS "upTo", array_agg(DISTINCT "reason") AS "reasons" FROM "stats"."rebuild_requests"`,
      );
      const { upTo, reasons } = rows[0]!;
      if (upTo === null) return true;
      logger.info({ reasons }, 'stats rebuild requested by a migration: rebuilding from the source services');
      const report = await rebuildStatsOn(client, sources(), logger);
      // Requests made while it ran (a later migration) wait for the next start.
      await client.query(`DELETE FROM "stats"."rebuild_requests" WHERE "id" <= $1`, [upTo]);
      logger.info(report, 'stats rebuilt as requested');
      return true;
    } finally {
      await client.query(`SELECT pg_advisory_unlock(${LOCK})`);
    }
  } finally {
    client.release();
  }
}
