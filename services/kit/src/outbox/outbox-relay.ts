import { Envelope } from '@snapcracks/proto/events/v1';
import type { Logger } from '../logger.js';
import type { EventBus } from '../bus/event-bus.js';
import { backoffDelayMs, type Backoff } from '../bus/retry-policy.js';
import type { OutboxTable } from './outbox-table.js';
import type { TransactionalSqlClient } from './sql-client.js';

export interface OutboxRelayOptions {
  /** Rows published per transaction. */
  batchSize?: number;
  /** How often the outbox is checked when nobody nudges. */
  pollIntervalMs?: number;
  /** Waits between attempts while the bus or the database fails; capped so recovery is noticed soon. */
  retryBackoff?: Backoff;
  /** How long published rows are kept (for inspection) before they are deleted. */
  retentionMs?: number;
  cleanupIntervalMs?: number;
}

export interface OutboxRelay {
  start(): void;
  stop(): Promise<void>;
  nudge(): void;
}

/** Held while a batch is published: enough for a full batch even when the bus acknowledges slowly. */
const BATCH_TRANSACTION = { maxWait: 10_000, timeout: 60_000 };

/**
 * Publishes committed outbox rows in the order they were written and marks them published. Rows are locked
 * with SKIP LOCKED, so every replica of a service can relay at once without publishing a row twice. When
 * the bus fails, the rows published so far are marked and the rest wait for the next attempt: nothing is lost,
 * and a repeat after an unclear failure is dropped by the bus's deduplication on the event id.
 */
export function createOutboxRelay(
  deps: { prisma: TransactionalSqlClient; table: OutboxTable; bus: EventBus; logger: Logger },
  options: OutboxRelayOptions = {},
): OutboxRelay {
  const { prisma, table, bus, logger } = deps;
  const batchSize = options.batchSize ?? 100;
  const pollIntervalMs = options.pollIntervalMs ?? 500;
  const retryBackoff = options.retryBackoff ?? { initialDelayMs: 500, maxDelayMs: 30_000 };
  const retentionMs = options.retentionMs ?? 24 * 60 * 60_000;
  const cleanupIntervalMs = options.cleanupIntervalMs ?? 10 * 60_000;

  let running = false;
  let loop: Promise<void> | undefined;
  let nudged = false;
  let wake: ((reason: 'nudge' | 'stop') => void) | undefined;
  let lastCleanup = 0;

  /** Publishes one batch; returns whether the outbox may hold more. Throws after marking what did get out. */
  async function relayBatch(): Promise<boolean> {
    nudged = false; // this batch sees every commit made before it starts
    const { count, failure } = await prisma.$transaction(async (tx) => {
      const rows = await table.lockUnpublished(tx, batchSize);
      const published: string[] = [];
      let failure: unknown;
      for (const row of rows) {
        try {
          await bus.publish(Envelope.decode(row.payload));
          published.push(row.id);
        } catch (error) {
          failure = error;
          break;
        }
      }
      if (published.length > 0) await table.markPublished(tx, published);
      return { count: rows.length, failure };
    }, BATCH_TRANSACTION);
    if (failure !== undefined) throw failure;
    return count === batchSize;
  }

  async function cleanUpIfDue(): Promise<void> {
    if (Date.now() - lastCleanup < cleanupIntervalMs) return;
    lastCleanup = Date.now();
    const deleted = await table.deletePublishedBefore(prisma, new Date(Date.now() - retentionMs));
    if (deleted > 0) logger.debug({ deleted }, 'outbox: deleted old published events');
  }

  /** Resolves after `ms`, on stop, and (when `nudgeable`) on a nudge, including one that came before. */
  function pause(ms: number, nudgeable: boolean): Promise<void> {
    if (!running || (nudgeable && nudged)) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      wake = (reason) => {
        if (reason === 'stop' || nudgeable) done();
      };
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
    });
  }

  async function run(): Promise<void> {
    let failures = 0;
    while (running) {
      try {
        await cleanUpIfDue();
        const more = await relayBatch();
        if (failures > 0) logger.info({ failures }, 'outbox relay recovered');
        failures = 0;
        if (!more) await pause(pollIntervalMs, true);
      } catch (error) {
        failures += 1;
        const retryInMs = backoffDelayMs(failures, retryBackoff);
        logger.warn({ err: error, failures, retryInMs }, 'outbox relay failed; will retry');
        // Commits keep nudging during an outage; only the backoff decides when to try again.
        await pause(retryInMs, false);
      }
    }
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
    },
    nudge() {
      nudged = true;
      wake?.('nudge');
    },
  };
}
