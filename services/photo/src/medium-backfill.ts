import { status as GrpcStatus } from '@grpc/grpc-js';
import { forEachAtMost, type Logger } from '@snapcracks/kit';
import type { MediumBackfillStore, PhotoWithoutMedium } from './medium-backfill.pg-repository.js';
import { parseBars } from './photo.service.js';
import type { PhotoStorage } from './storage.client.js';

export interface MediumBackfillOptions {
  /** Photos rendered at once. Storage renders them in its media process, at background priority, one per image thread. */
  concurrency?: number;
  /** Photos listed per query. */
  batchSize?: number;
  /** The first look for work after start(): start-up never waits for it. */
  startDelayMs?: number;
  /** Then a look every so often, for photos stored meanwhile without one (through storage of the previous release). */
  intervalMs?: number;
  /** The next look after a pass that failed (storage or the database unavailable). */
  retryMs?: number;
}

export interface MediumBackfillReport {
  /** Photos given their medium image. */
  made: number;
  /** Rendered, then not recorded: the photo got new bars (and with them a medium image), or was deleted, meanwhile. */
  superseded: number;
  /** Storage could not render from the photo's original (missing or unreadable); not tried again until a restart. */
  unreadable: number;
}

/** Storage's answers that will not change by trying again. */
const PERMANENT = new Set<number>([GrpcStatus.NOT_FOUND, GrpcStatus.INVALID_ARGUMENT, GrpcStatus.FAILED_PRECONDITION]);
const PROGRESS_EVERY = 1_000;

/**
 * Gives every photo stored before there were medium images (960 px) its medium image, rendered by storage from the
 * photo's original with its privacy bars burned in: no one uploads anything again. Until a photo has one, its display
 * image answers for it (PhotoService.resolveImage).
 *
 * A pass walks the photos without one in id order and renders `concurrency` at a time, in storage's media process at
 * background priority, so the API keeps its speed (an upload waits for at most that many renders before its own). It
 * is idempotent and resumable: a photo is done once its row names a medium image, which is recorded only if the photo's
 * images did not change meanwhile, so a pass stopped anywhere (a restart, storage down) goes on where it stopped at
 * the next look, and a repeated pass finds nothing to do. One replica at a time runs a pass (an advisory lock); the
 * others find it taken and look again later.
 */
export class MediumBackfill {
  readonly #unreadable = new Set<number>();
  readonly #concurrency: number;
  readonly #batchSize: number;
  readonly #startDelayMs: number;
  readonly #intervalMs: number;
  readonly #retryMs: number;
  #stopping = false;

  constructor(
    private readonly store: MediumBackfillStore,
    private readonly storage: Pick<PhotoStorage, 'renderMedium' | 'deleteBlobs'>,
    private readonly logger: Pick<Logger, 'info' | 'warn'>,
    options: MediumBackfillOptions = {},
  ) {
    this.#concurrency = options.concurrency ?? 2;
    this.#batchSize = options.batchSize ?? 100;
    this.#startDelayMs = options.startDelayMs ?? 30_000;
    this.#intervalMs = options.intervalMs ?? 15 * 60_000;
    this.#retryMs = options.retryMs ?? 60_000;
  }

  /**
   * One pass over every photo without a medium image; null when another replica is running one. It throws when
   * storage or the database fails (what it recorded so far stays recorded).
   */
  async runOnce(): Promise<MediumBackfillReport | null> {
    const report: MediumBackfillReport = { made: 0, superseded: 0, unreadable: 0 };
    const locked = await this.store.whileLocked(async () => {
      let after = 0;
      while (!this.#stopping) {
        const batch = await this.store.photosWithoutMedium(after, this.#batchSize);
        if (batch.length === 0) break;
        after = batch.at(-1)!.id;
        await forEachAtMost(
          batch.filter((photo) => !this.#unreadable.has(photo.id)),
          this.#concurrency,
          (photo) => this.#giveMedium(photo, report),
          { until: () => this.#stopping },
        );
      }
    });
    return locked.ran ? report : null;
  }

  /** Looks for work `startDelayMs` from now and then every `intervalMs`, in the background, until stopped. */
  start(): { stop(): Promise<void> } {
    let timer: NodeJS.Timeout | undefined;
    let running: Promise<void> = Promise.resolve();
    const schedule = (delayMs: number) => {
      if (this.#stopping) return;
      timer = setTimeout(() => (running = look()), delayMs);
      timer.unref();
    };
    const look = async (): Promise<void> => {
      let next = this.#intervalMs;
      try {
        const report = await this.runOnce();
        if (report && report.made + report.superseded + report.unreadable > 0) logger.info(report, 'medium backfill pass done');
      } catch (error) {
        logger.warn({ err: error, retryInMs: this.#retryMs }, 'medium backfill stopped; it goes on from there later');
        next = this.#retryMs;
      }
      schedule(next);
    };
    const logger = this.logger;
    schedule(this.#startDelayMs);
    return {
      stop: async () => {
        this.#stopping = true;
        clearTimeout(timer);
        await running;
      },
    };
  }

  async #giveMedium(photo: PhotoWithoutMedium, report: MediumBackfillReport): Promise<void> {
    let medium;
    try {
      medium = await this.storage.renderMedium(null, photo.originalKey, parseBars(photo.privacyBars));
    } catch (error) {
      if (!PERMANENT.has((error as { code?: number }).code ?? -1)) throw error;
      this.#unreadable.add(photo.id);
      report.unreadable += 1;
      this.logger.warn({ err: error, photoId: photo.id }, 'medium backfill: storage cannot render this photo from its original; its display image stands in');
      return;
    }
    let recorded = false;
    try {
      recorded = await this.store.setMedium(photo.id, photo.imageVersion, medium);
    } finally {
      if (!recorded) {
        await this.storage.deleteBlobs(null, [medium.key]).catch((error: unknown) => {
          this.logger.warn({ err: error, key: medium.key }, 'medium backfill: could not delete an unused medium image; the orphan cleanup will');
        });
      }
    }
    if (recorded) report.made += 1;
    else report.superseded += 1;
    if (recorded && report.made % PROGRESS_EVERY === 0) this.logger.info(report, 'medium backfill progress');
  }
}
