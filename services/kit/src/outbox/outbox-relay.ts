import type { Logger } from '../logger.js';
import type { EventBus } from '../bus/event-bus.js';
import { backoffDelayMs, type Backoff } from '../bus/retry-policy.js';
import type { OutboxTable, RelayOutcomes, UnpublishedRow } from './outbox-table.js';
import type { SqlClient } from './sql-client.js';

export interface OutboxRelayOptions {
  /** Rows claimed per statement. */
  batchSize?: number;
  /** Rows being published at once; more wait until some are done. */
  maxInFlight?: number;
  /** How often the outbox is checked when nobody nudges. */
  pollIntervalMs?: number;
  /**
   * While checks find nothing, the interval doubles up to this: every writer nudges its own relay, so the poll is
   * there for rows another replica or an earlier run left, and an idle service need not ask twice a second.
   */
  idlePollIntervalMs?: number;
  /** Waits between attempts while the bus or the database fails; capped so recovery is noticed soon. */
  retryBackoff?: Backoff;
  /** How long a claimed row is left to its relay before another may take it (relays in other processes). */
  leaseMs?: number;
  /** How long published rows are kept (for inspection) before they are deleted. */
  retentionMs?: number;
  /** How long handled event ids are kept: longer than the bus can redeliver an event. */
  processedRetentionMs?: number;
  cleanupIntervalMs?: number;
  /** On stop, how long to wait for events still being published. */
  stopGraceMs?: number;
}

export interface OutboxRelay {
  start(): void;
  stop(): Promise<void>;
  nudge(): void;
}

type Wake = 'nudge' | 'settled';

/** The stream keeps events 7 days (nats-jetstream-setup.ts); a day more covers a late redelivery. */
const PROCESSED_RETENTION_MS = 8 * 24 * 60 * 60_000;

/**
 * Publishes committed outbox rows and marks them published once the bus has them for good: stored in the
 * stream (NATS) or handled by every consumer (the in-process bus). Rows are claimed with a short lease in one
 * statement, which also marks the rows published since the previous one, and published outside any transaction, many at a time in the order they were written, so a slow
 * bus never holds a database transaction and one slow event never holds the others. Replicas of a service
 * share the work through the leases; a relay that dies leaves its rows to be claimed again when the lease
 * runs out. A failed publish hands its row back for the next attempt: nothing is lost, and a repeat after an
 * unclear failure is dropped by the bus's deduplication on the event id (and by idempotent consumers). Order
 * is kept except across a failure, where a later event may overtake the one being retried — events carry
 * state with a version for that reason.
 */
export function createOutboxRelay(
  deps: { db: SqlClient; table: OutboxTable; bus: EventBus; logger: Logger },
  options: OutboxRelayOptions = {},
): OutboxRelay {
  const { db, table, bus, logger } = deps;
  const batchSize = options.batchSize ?? 200;
  const maxInFlight = Math.max(batchSize, options.maxInFlight ?? 1_000);
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const idlePollIntervalMs = Math.max(pollIntervalMs, options.idlePollIntervalMs ?? 4_000);
  const retryBackoff = options.retryBackoff ?? { initialDelayMs: 500, maxDelayMs: 30_000 };
  // Inside one process nobody shares the outbox, and a restart must not wait for leases of the run before.
  const leaseMs = options.leaseMs ?? (bus.inProcess ? 0 : 30_000);
  const retentionMs = options.retentionMs ?? 24 * 60 * 60_000;
  const processedRetentionMs = options.processedRetentionMs ?? PROCESSED_RETENTION_MS;
  const cleanupIntervalMs = options.cleanupIntervalMs ?? 10 * 60_000;
  const stopGraceMs = options.stopGraceMs ?? 5_000;

  let running = false;
  let loop: Promise<void> | undefined;
  let nudged = false;
  let wake: ((reason: Wake | 'stop') => void) | undefined;
  let lastCleanup = 0;
  /** Claimed rows whose outcome has not been recorded yet. */
  const inFlight = new Set<string>();
  /** Outcomes since the last statement: the next claim records them. */
  let outcomes: RelayOutcomes = { published: [], released: [] };
  let failure: unknown;
  let failures = 0;
  /** Checks in a row that found nothing to claim or record. */
  let emptyChecks = 0;

  const recordable = () => outcomes.published.length + outcomes.released.length;
  /** The poll interval, doubled for each empty check after the first, at most idlePollIntervalMs. */
  const nextCheckInMs = () => Math.min(idlePollIntervalMs, pollIntervalMs * 2 ** Math.min(Math.max(emptyChecks - 1, 0), 16));

  function dispatch(row: UnpublishedRow): void {
    inFlight.add(row.id);
    bus.publishEncoded({ id: row.id, type: row.type, data: row.payload }).then(
      () => outcomes.published.push(row.id),
      (error: unknown) => {
        outcomes.released.push(row.id);
        failure ??= error;
      },
    ).finally(() => wake?.('settled'));
  }

  /**
   * Claims up to `limit` rows and records the outcomes gathered since the last statement, in that same statement: under
   * load the relay writes once per round instead of once to claim and once to mark. The loop is the only writer.
   */
  async function claimAndRecord(limit: number): Promise<UnpublishedRow[]> {
    const recording = outcomes;
    outcomes = { published: [], released: [] };
    let rows: UnpublishedRow[];
    try {
      rows = await table.claim(db, limit, leaseMs, [...inFlight], recording);
    } catch (error) {
      // Still in flight (so not claimed again here); the next statement records them.
      outcomes.published.push(...recording.published);
      outcomes.released.push(...recording.released);
      throw error;
    }
    for (const id of recording.published) inFlight.delete(id);
    for (const id of recording.released) inFlight.delete(id);
    if (recording.published.length > 0 && recording.released.length === 0 && failures > 0) {
      logger.info({ failures }, 'outbox relay recovered');
      failures = 0;
    }
    return rows;
  }

  async function cleanUpIfDue(): Promise<void> {
    if (Date.now() - lastCleanup < cleanupIntervalMs) return;
    lastCleanup = Date.now();
    const deleted = await table.deletePublishedBefore(db, new Date(Date.now() - retentionMs));
    const forgotten = await table.deleteProcessedBefore(db, new Date(Date.now() - processedRetentionMs));
    if (deleted + forgotten > 0) logger.debug({ deleted, forgotten }, 'outbox: deleted old published events and processed ids');
  }

  /**
   * Resolves after `ms`, on stop, and on the given reasons: a nudge (including one that came before) or publishes
   * settling (including ones not recorded yet), which make room and have outcomes to record.
   */
  function pause(ms: number, wakeOn: readonly Wake[]): Promise<void> {
    if (!running || (wakeOn.includes('nudge') && nudged) || (wakeOn.includes('settled') && recordable() > 0)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      wake = (reason) => {
        if (reason === 'stop' || wakeOn.includes(reason)) done();
      };
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
    });
  }

  async function run(): Promise<void> {
    while (running) {
      try {
        await cleanUpIfDue();
        if (failure !== undefined) {
          const error = failure;
          failure = undefined;
          throw error;
        }
        const room = maxInFlight - inFlight.size + recordable();
        if (room <= 0) {
          await pause(pollIntervalMs, ['settled']);
          continue;
        }
        nudged = false; // this claim sees every commit made before it
        const limit = Math.min(batchSize, room);
        const recorded = recordable();
        const rows = await claimAndRecord(limit);
        rows.forEach(dispatch);
        emptyChecks = rows.length === 0 && recorded === 0 ? emptyChecks + 1 : 0;
        if (rows.length < limit) await pause(nextCheckInMs(), ['nudge', 'settled']);
      } catch (error) {
        failures += 1;
        const retryInMs = backoffDelayMs(failures, retryBackoff);
        logger.warn({ err: error, failures, retryInMs }, 'outbox relay failed; will retry');
        // Commits keep nudging during an outage; only the backoff decides when to try again.
        await pause(retryInMs, []);
      }
    }
  }

  /** On stop: waits (within the grace) for publishes still out, then records every outcome, claiming nothing. */
  async function settle(): Promise<void> {
    const deadline = Date.now() + stopGraceMs;
    while (inFlight.size > recordable() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    if (recordable() > 0) {
      // Unrecorded rows are published again after the next start; the bus and the consumers drop the repeats.
      await claimAndRecord(0).catch((error: unknown) => logger.warn({ err: error }, 'outbox: could not record published events'));
    }
    const unfinished = inFlight.size - recordable();
    if (unfinished > 0) logger.info({ unfinished }, 'outbox: events still being delivered at stop; they are sent again at the next start');
  }

  return {
    start() {
      if (running) return;
      running = true;
      loop = run();
    },
    async stop() {
      running = false;
      wake?.('stop');
      await loop;
      loop = undefined;
      await settle();
    },
    nudge() {
      nudged = true;
      wake?.('nudge');
    },
  };
}
