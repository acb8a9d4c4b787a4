import type { Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';

type Pool = Database<PrismaClient>['pool'];

/** A photo the medium backfill has yet to give a medium image, as it was when listed. */
export interface PhotoWithoutMedium {
  id: number;
  originalKey: string;
  /** The stored bars (JSON text), to burn into the medium image as into the others. */
  privacyBars: string | null;
  imageVersion: number;
}

/** The medium image's blob, as storage reports it. */
export interface MediumBlob {
  key: string;
  etag: string;
  size: number;
}

/** What the medium backfill (medium-backfill.ts) reads and writes. */
export interface MediumBackfillStore {
  /**
   * Runs `work` while this replica holds the backfill's lock, which one replica at a time holds: it answers
   * `{ ran: false }` at once, without running it, when another does. A replica that dies loses the lock with its
   * connection, so another takes over the work at its next look.
   */
  whileLocked<T>(work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
  /** Up to `limit` photos with an original and no medium image, in id order, after `afterId`. */
  photosWithoutMedium(afterId: number, limit: number): Promise<PhotoWithoutMedium[]>;
  /**
   * Records the medium image of a photo unless it has one meanwhile or its images changed since it was listed (new
   * privacy bars: its image version moved, and their change made a medium image of its own); answers whether it did.
   * Nothing else of the row changes, `version` and `updated_at` included: no event, since no consumer keeps images.
   */
  setMedium(photoId: number, imageVersion: number, medium: MediumBlob): Promise<boolean>;
}

/**
 * One replica at a time: a session-level advisory lock, held on a connection of `lockPool` while the work runs on
 * `pool`. The service gives a direct connection (DATABASE_DIRECT_URL) as `lockPool`: through a pooler in transaction
 * mode, a session lock would stay on a server connection that others then use.
 */
const LOCK = `hashtext('photo.medium-backfill')`;

export class PgMediumBackfillStore implements MediumBackfillStore {
  constructor(
    private readonly pool: Pool,
    private readonly lockPool: Pool = pool,
  ) {}

  async whileLocked<T>(work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }> {
    const client = await this.lockPool.connect();
    let broken = false;
    try {
      const { rows } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_lock(${LOCK}) AS "locked"`);
      if (!rows[0]!.locked) return { ran: false };
      try {
        return { ran: true, value: await work() };
      } finally {
        await client.query(`SELECT pg_advisory_unlock(${LOCK})`).catch(() => {
          // The connection is gone, and the lock with it; never hand it back to the pool.
          broken = true;
        });
      }
    } finally {
      client.release(broken);
    }
  }

  async photosWithoutMedium(afterId: number, limit: number): Promise<PhotoWithoutMedium[]> {
    // photos_without_medium: the rows still to do, in id order; a pass never reads the rows that have one.
    const { rows } = await this.pool.query<PhotoWithoutMedium>(
      `SELECT "id", "original_key" AS "originalKey", "privacy_bars" AS "privacyBars", "image_version" AS "imageVersion"
       FROM "photo"."photos" WHERE "medium_key" IS NULL AND "original_key" IS NOT NULL AND "id" > $1
       ORDER BY "id" LIMIT $2`,
      [afterId, limit],
    );
    return rows;
  }

  async setMedium(photoId: number, imageVersion: number, medium: MediumBlob): Promise<boolean> {
    const { rowCount } = await this.pool.query(
      `UPDATE "photo"."photos" SET "medium_key" = $3, "medium_etag" = $4, "medium_size" = $5
       WHERE "id" = $1 AND "image_version" = $2 AND "medium_key" IS NULL`,
      [photoId, imageVersion, medium.key, medium.etag, medium.size],
    );
    return rowCount === 1;
  }
}
