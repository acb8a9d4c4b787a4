import { openDatabase, type Logger } from '@snapcracks/kit';
import { PrismaClient } from '../generated/prisma/client.js';
import { NO_STARS, applyPhotoChange, applyVoteTotals, unknownPhoto, type PhotoChange } from '../stats.projection.js';
import type { BackfillSources, BackfilledPhoto, BackfilledVotes } from './backfill.sources.js';
import { rebuildTransaction, type Pool, type RebuildConnection, type RebuildRow, type RebuildStore } from './rebuild.pg-repository.js';

export interface RebuildReport {
  photos: number;
  photosWithVotes: number;
  users: number;
  tombstoned: number;
  ownersDeleted: number;
  ms: number;
}

/**
 * Rebuilds every stats read model from the source services (docs/stats.md): in one transaction that holds
 * the tables against the consumers, each photo's current state is merged into its row as a synthetic photo event would
 * be (applyPhotoChange: the newer version wins, a tombstone stays), then its vote totals (applyVoteTotals) with its
 * votes per rating read at the same version; photos that were known but are gone become tombstones, and the owners'
 * figures and the community counters are derived from the rows. Readers see the old figures until the commit, and
 * events the consumers handle afterwards apply on top by their versions.
 *
 * Photos are read before votes and both before the accounts: an owner met in the photos therefore existed when the
 * account stream began, and is missing from it only if their account was deleted.
 */
export async function rebuildStats(pool: Pool, sources: BackfillSources, logger: Logger): Promise<RebuildReport> {
  const client = await pool.connect();
  try {
    return await rebuildStatsOn(client, sources, logger);
  } finally {
    client.release();
  }
}

/** rebuildStats on a connection the caller holds (the one that holds the rebuild's lock). */
export async function rebuildStatsOn(client: RebuildConnection, sources: BackfillSources, logger: Logger): Promise<RebuildReport> {
  const started = Date.now();
  return rebuildTransaction(client, async (store) => {
    const photos = await mergePhotos(store, sources.photos());
    logger.info({ photos }, 'stats rebuild: photo states merged');
    const photosWithVotes = await mergeVotes(store, sources.votes());
    logger.info({ photosWithVotes }, 'stats rebuild: vote totals merged');
    let users = 0;
    for await (const page of sources.userIds()) {
      await store.addUsers(page);
      users += page.length;
    }
    const totals = await store.finish();
    return { photos, photosWithVotes, users, ...totals, ms: Date.now() - started };
  });
}

/**
 * The rebuild as the command runs it, on a connection of its own to the stats schema (one is all a transaction needs),
 * straight to PostgreSQL and with no statement timeout: its statements over every row may take long on a large community.
 */
export async function rebuildStatsDatabase(databaseUrl: string, sources: BackfillSources, logger: Logger): Promise<RebuildReport> {
  const database = openDatabase(PrismaClient, { databaseUrl, schema: 'stats', component: 'stats-rebuild', logger, max: 1, settings: { statementTimeoutMs: 0 } });
  try {
    return await rebuildStats(database.pool, sources, logger);
  } finally {
    await database.close();
  }
}

const asRow = (row: RebuildRow | undefined, photoId: number): RebuildRow => row ?? { ...unknownPhoto(photoId), stars: [...NO_STARS], starsBaseline: 0 };

async function mergePhotos(store: RebuildStore, pages: AsyncIterable<BackfilledPhoto[]>): Promise<number> {
  let merged = 0;
  for await (const page of pages) {
    const ids = page.map((p) => p.photoId);
    const stored = await store.rows(ids);
    const changed: RebuildRow[] = [];
    for (const photo of page) {
      const before = asRow(stored.get(photo.photoId), photo.photoId);
      // The event that would carry this state: a review decision when it has been reviewed (it alone carries the time).
      const change: PhotoChange = photo.reviewedAt ? { kind: 'reviewed', state: photo.state, reviewedAt: photo.reviewedAt } : { kind: 'state', state: photo.state };
      const after = applyPhotoChange(before, change);
      if (after) changed.push({ ...before, ...after });
    }
    await store.write(changed);
    await store.markSeen(ids);
    merged += page.length;
  }
  return merged;
}

async function mergeVotes(store: RebuildStore, pages: AsyncIterable<BackfilledVotes[]>): Promise<number> {
  let merged = 0;
  for await (const page of pages) {
    const stored = await store.rows(page.map((p) => p.photoId));
    const rows = page.map((votes): RebuildRow => {
      const before = asRow(stored.get(votes.photoId), votes.photoId);
      // The counts per rating are absolute at the totals' version: every vote event up to it is in them (the baseline
      // makes the consumer skip those), and no later one can have been handled while the tables are held.
      return { ...before, ...applyVoteTotals(before, votes.totals), stars: votes.stars, starsBaseline: votes.totals.version };
    });
    await store.write(rows);
    merged += page.length;
  }
  return merged;
}
