import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DATA_EXPORT } from '@snapcracks/http-contract';
import { decodeEvent, isServiceError, type Logger, type Subscription } from '@snapcracks/kit';
import type { EventSource } from '../gateway-events.js';
import { UserDeleted } from '@snapcracks/proto/events/v1';
import type { Clients } from '../clients.js';
import type { UserDirectory } from '../user-directory.js';
import type { DataExportRepository, DataExportRow } from './data-export.repository.js';
import { STEPS, writeExport } from './export-archive.js';
import { ProgressThrottle } from './export-layout.js';

const HOUR_MS = 60 * 60 * 1000;

export interface RunnerOptions {
  /** How often an idle runner looks for work (and expired copies); a request on this replica wakes it at once. */
  pollMs: number;
  /** A running export whose heartbeat is older than this lost its runner: another claims it. */
  staleMs: number;
  /** How often a runner at work moves its heartbeat, progress or not. */
  heartbeatMs: number;
  /** Progress is written at most this often. */
  progressIntervalMs: number;
  /** Claims of one export before it fails for good. */
  maxAttempts: number;
  /** How long a ready copy is kept. */
  keepMs: number;
}

export const RUNNER_DEFAULTS: RunnerOptions = {
  pollMs: 5_000,
  staleMs: 2 * 60_000,
  heartbeatMs: 20_000,
  progressIntervalMs: 1_000,
  maxAttempts: 3,
  keepMs: DATA_EXPORT.keepHours * HOUR_MS,
};

/** The export is no longer this runner's (claimed again by another after a stall, or discarded). */
class LostClaimError extends Error {
  constructor() {
    super('The export was claimed by another runner');
    this.name = 'LostClaimError';
  }
}

/** The message a member sees for a failure: the size limit says so, anything else asks to try again (the log has why). */
export function failureMessage(error: unknown): string {
  const text = isServiceError(error) ? error.details : error instanceof Error ? error.message : '';
  return text === DATA_EXPORT.tooLarge ? DATA_EXPORT.tooLarge : DATA_EXPORT.failed;
}

/** A deleted account's exports are forgotten. */
export const DATA_EXPORT_EVENTS = ['auth.user.deleted'];

/**
 * Makes members' exports in the background, in every gateway replica: claims the oldest waiting one (FOR UPDATE SKIP
 * LOCKED, so replicas never take the same; one whose runner stopped beating is taken again), one at a time per
 * process, and between exports deletes the files of copies past their time. A request on this replica wakes it at
 * once; otherwise it looks every `pollMs`. Stopping hands the export in progress back to the queue for another replica.
 */
export class DataExportRunner {
  readonly id = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private stopped = false;
  private woken = false;
  private wakeUp: (() => void) | undefined;
  private loop: Promise<void> | undefined;
  private current: AbortController | undefined;
  private subscription: Subscription | undefined;

  constructor(
    private readonly exports: DataExportRepository,
    private readonly clients: Clients,
    private readonly users: Pick<UserDirectory, 'get'>,
    private readonly logger: Pick<Logger, 'info' | 'warn' | 'error'>,
    private readonly options: RunnerOptions = RUNNER_DEFAULTS,
  ) {}

  /** Starts the loop, and forgets the exports of accounts deleted from now on. */
  async start(bus?: EventSource): Promise<void> {
    this.subscription = await bus?.subscribe(
      async (event) => {
        await this.forgetUser(decodeEvent(event, UserDeleted).userId);
      },
      { types: DATA_EXPORT_EVENTS },
    );
    this.loop = this.run();
  }

  /** Looks for work now (an export was just asked for on this replica). */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.current?.abort(new Error('The gateway is stopping'));
    this.wake();
    await this.subscription?.close();
    await this.loop;
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      try {
        await this.expireDue();
        if (this.stopped) break;
        const job = await this.exports.claim(this.id, {
          staleMs: this.options.staleMs,
          maxAttempts: this.options.maxAttempts,
          step: STEPS.starting,
          gaveUp: DATA_EXPORT.failed,
        });
        if (job) {
          await this.work(job);
          continue;
        }
      } catch (error) {
        this.logger.warn({ err: error }, 'data export runner: a pass failed; trying again');
      }
      await this.idle();
    }
  }

  private idle(): Promise<void> {
    if (this.woken || this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = undefined;
        resolve();
      };
      const timer = setTimeout(done, this.options.pollMs);
      this.wakeUp = done;
    });
  }

  private async work(job: DataExportRow): Promise<void> {
    const controller = new AbortController();
    this.current = controller;
    let lost = false;
    let last = { percent: 0, step: STEPS.starting as string };
    const beat = async (percent: number, step: string) => {
      if (!(await this.exports.progress(job.id, this.id, percent, step))) {
        lost = true;
        const error = new LostClaimError();
        controller.abort(error);
        throw error;
      }
    };
    const throttle = new ProgressThrottle(beat, this.options.progressIntervalMs);
    const heartbeat = setInterval(() => {
      beat(last.percent, last.step).catch((error: unknown) => {
        if (!(error instanceof LostClaimError)) this.logger.warn({ err: error, exportId: job.id }, 'data export heartbeat failed');
      });
    }, this.options.heartbeatMs);
    heartbeat.unref();
    const started = Date.now();
    try {
      const user = await this.users.get(job.userId, { fresh: true });
      if (!user?.isEnabled || !user.hasAcceptedTerms) {
        await this.exports.fail(job.id, this.id, DATA_EXPORT.accountUnavailable);
        return;
      }
      await throttle.flush(0, STEPS.profile);
      const stored = await writeExport(this.clients, {
        exportId: job.id,
        user,
        madeAt: new Date(),
        signal: controller.signal,
        progress: async (percent, step) => {
          last = { percent, step };
          await throttle.report(percent, step);
        },
      });
      // Not this runner's any more (another took it after a stall): the other writes the same file and finishes it.
      if (!(await this.exports.finish(job.id, this.id, { ...stored, keepMs: this.options.keepMs }))) return;
      this.logger.info({ exportId: job.id, userId: job.userId, bytes: stored.size, ms: Date.now() - started }, 'data export ready');
    } catch (error) {
      if (lost) {
        this.logger.warn({ exportId: job.id }, 'data export taken over by another runner');
      } else if (this.stopped) {
        await this.exports.release(job.id, this.id).catch((releaseError: unknown) => this.logger.warn({ err: releaseError, exportId: job.id }, 'could not hand a data export back'));
      } else {
        this.logger.error({ err: error, exportId: job.id, userId: job.userId }, 'data export failed');
        // Storage removes what it had of a failed stream; the row keeps the member's message.
        await this.exports.fail(job.id, this.id, failureMessage(error));
      }
    } finally {
      clearInterval(heartbeat);
      this.current = undefined;
    }
  }

  /** Deletes the files of ready copies past their time, then marks them expired (a file that will not go is tried again). */
  async expireDue(): Promise<number> {
    let expired = 0;
    for (const row of await this.exports.due()) {
      try {
        if (row.blobKey) await this.clients.storage.call.deleteBlobs({ keys: [row.blobKey] }, { caller: null });
        await this.exports.expire(row.id);
        expired += 1;
      } catch (error) {
        this.logger.warn({ err: error, exportId: row.id }, 'could not delete an expired data export');
      }
    }
    return expired;
  }

  /** A member discards their copies now: files first, then the rows say expired (the rows stay, so the daily limit holds). */
  async discard(rows: DataExportRow[]): Promise<void> {
    const keys = rows.flatMap((row) => (row.blobKey ? [row.blobKey] : []));
    if (keys.length > 0) await this.clients.storage.call.deleteBlobs({ keys }, { caller: null });
    for (const row of rows) await this.exports.expire(row.id);
  }

  /** A deleted account's exports go, files first. */
  private async forgetUser(userId: string): Promise<void> {
    const rows = await this.exports.ofUser(userId);
    const keys = rows.flatMap((row) => (row.blobKey ? [row.blobKey] : []));
    if (keys.length > 0) await this.clients.storage.call.deleteBlobs({ keys }, { caller: null });
    await this.exports.forgetUser(userId);
  }
}
