import { randomUUID } from 'node:crypto';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { forEachAtMost, type Caller, type Logger, type PromiseClient } from '@snapcracks/kit';
import type { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { ReviewList } from '@snapcracks/proto/photo/v1';
import type { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import type { ModerationActionRepository } from './moderation-action.repository.js';
import type { ModerationService, PhotoCalls } from './moderation.service.js';

/** The storage service's calls a cleanup makes. */
export type StorageCalls = Pick<PromiseClient<StorageServiceClient>, 'listBlobs' | 'deleteBlobs'>;
/** The auth service's call a cleanup makes. */
export type AuthCalls = Pick<PromiseClient<AuthServiceClient>, 'findReferencedAvatars'>;

export type CleanupKind = 'orphaned' | 'rejected';

export interface CleanupResult {
  /** What the admin is shown, with the counts. */
  message: string;
  /** Files (orphaned) or photos (rejected) removed. */
  removed: number;
  /** Files or photos that could not be removed this time. */
  failed: number;
}

/** Blobs younger than this are never orphans: an upload in flight writes its blobs before the row that uses them. */
export const ORPHAN_MIN_AGE_MS = 60 * 60 * 1000;
/** Blobs examined per page (storage answers at most 1000, and photo and auth take 1000 keys a call). */
const BLOB_PAGE_SIZE = 500;
const REJECTED_PAGE_SIZE = 100;
/** Deletions of rejected photos in flight at once. */
const REJECTED_CONCURRENCY = 4;
/**
 * A cleanup stops starting new work after this long and says so; running it again carries on where it stopped. Its
 * calls act for the admin with the gateway's user assertion, which lives 30 s from when the gateway made it (up to
 * 10 s before the request): the budget ends before the assertion does.
 */
export const CLEANUP_BUDGET_MS = 15_000;

/** Paths of the blobs storage writes for photos and avatars; anything else is never a cleanup's to remove. */
const PHOTO_PATH = /^[a-z0-9]+:photos\//;
const AVATAR_PATH = /^[a-z0-9]+:avatars\/(.+)$/;

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The file cleanups (spec: Cleanup Files, orphaned and rejected), run by an admin and recorded in the audit log.
 *
 * Orphaned files: storage lists, oldest first and a page at a time, the blobs created more than an hour before the
 * cleanup started; for each page the photo service says which keys its photos use and the auth service which avatar
 * names its accounts use, and storage deletes the rest, each from the backend that holds it. References are asked
 * right before each page is deleted, and storage deletes only blobs older than the same cut-off, so a blob an
 * upload wrote a second ago, or one some photo or avatar uses, is never removed. (Nothing ever starts using an
 * old blob: uploads and privacy-bar edits reference only blobs they have just written.)
 *
 * Rejected photos: deleted one by one through the normal admin deletion (photo service: row, event, then blobs),
 * each with its own audit entry, so every consumer hears of it.
 */
export class CleanupService {
  constructor(
    private readonly actions: ModerationActionRepository,
    private readonly moderation: Pick<ModerationService, 'deletePhoto'>,
    private readonly photos: Pick<PhotoCalls, 'listPhotosForReview' | 'findReferencedBlobs'>,
    private readonly storage: StorageCalls,
    private readonly auth: AuthCalls,
    private readonly logger: Pick<Logger, 'warn' | 'info'>,
    private readonly now: () => Date = () => new Date(),
    private readonly budgetMs = CLEANUP_BUDGET_MS,
  ) {}

  async run(admin: Caller, kind: CleanupKind): Promise<CleanupResult> {
    const result = kind === 'orphaned' ? await this.orphaned(admin) : await this.rejected(admin);
    try {
      await this.actions.record({
        id: randomUUID(),
        actorId: admin.userId,
        action: kind === 'orphaned' ? 'cleanup_orphaned' : 'cleanup_rejected',
        photoId: null,
        reason: result.message,
        photoOwnerId: null,
      });
    } catch (error) {
      // The files are gone whatever happens here; say so in the log rather than fail the answer.
      this.logger.warn({ err: error, kind, removed: result.removed }, 'cleanup done but its audit entry was not written');
    }
    this.logger.info({ kind, actorId: admin.userId, removed: result.removed, failed: result.failed }, 'cleanup');
    return result;
  }

  private async orphaned(admin: Caller): Promise<CleanupResult> {
    const started = this.now();
    const cutoff = new Date(started.getTime() - ORPHAN_MIN_AGE_MS);
    const removedBy = new Map<string, number>();
    let removed = 0;
    let failed = 0;
    let checked = 0;
    let pageToken = '';
    let unfinished = false;
    do {
      if (this.outOfTime(started)) {
        unfinished = true;
        break;
      }
      const page = await this.storage.listBlobs({ pageToken, pageSize: BLOB_PAGE_SIZE, createdBefore: cutoff }, { caller: admin });
      checked += page.blobs.length;
      const orphans = await this.unreferenced(
        admin,
        page.blobs.map((blob) => blob.key),
      );
      for (const [backend, keys] of groupByBackend(orphans)) {
        try {
          const { deleted } = await this.storage.deleteBlobs({ keys, createdBefore: cutoff }, { caller: admin });
          removed += deleted;
          removedBy.set(backend, (removedBy.get(backend) ?? 0) + deleted);
        } catch (error) {
          // One backend down or no longer configured: the others are still cleaned; these wait for the next run.
          failed += keys.length;
          this.logger.warn({ err: error, backend, files: keys.length }, 'orphaned files not removed from one backend');
        }
      }
      pageToken = page.nextPageToken;
    } while (pageToken);

    const where = removed > 0 ? ` (${[...removedBy].filter(([, n]) => n > 0).map(([backend, n]) => `${backend}: ${n}`).join(', ')})` : '';
    let message = `Removed ${plural(removed, 'orphaned file')}${where}; checked ${plural(checked, 'file')} older than an hour.`;
    if (failed > 0) message += ` ${plural(failed, 'file')} could not be removed now; run the cleanup again later.`;
    if (unfinished) message += ' More files remain to be checked; run the cleanup again.';
    return { message, removed, failed };
  }

  /** The keys no photo and no avatar uses, among cleanable paths (photos/…, avatars/…). */
  private async unreferenced(admin: Caller, keys: string[]): Promise<string[]> {
    const candidates = keys.filter((key) => PHOTO_PATH.test(key) || AVATAR_PATH.test(key));
    if (candidates.length === 0) return [];
    const avatarNames = new Map<string, string>();
    for (const key of candidates) {
      const name = AVATAR_PATH.exec(key)?.[1];
      if (name) avatarNames.set(key, name);
    }
    const [photoRefs, avatarRefs] = await Promise.all([
      this.photos.findReferencedBlobs({ keys: candidates }, { caller: admin }),
      avatarNames.size > 0 ? this.auth.findReferencedAvatars({ names: [...new Set(avatarNames.values())] }, { caller: admin }) : { names: [] },
    ]);
    const usedKeys = new Set(photoRefs.keys);
    const usedAvatars = new Set(avatarRefs.names);
    return candidates.filter((key) => {
      if (usedKeys.has(key)) return false;
      const avatar = avatarNames.get(key);
      return avatar === undefined || !usedAvatars.has(avatar);
    });
  }

  private async rejected(admin: Caller): Promise<CleanupResult> {
    const started = this.now();
    const attempted = new Set<number>();
    let removed = 0;
    let failed = 0;
    let unfinished = false;
    let page = 1;
    for (;;) {
      if (this.outOfTime(started)) {
        unfinished = true;
        break;
      }
      // Deleted photos leave the list, so the first page is always the next work, past any that failed.
      const { photos } = await this.photos.listPhotosForReview({ list: ReviewList.REVIEW_LIST_REJECTED, page: { page, limit: REJECTED_PAGE_SIZE } }, { caller: admin });
      if (photos.length === 0) break;
      const fresh = photos.map((photo) => photo.id).filter((id) => !attempted.has(id));
      if (fresh.length === 0) {
        page += 1;
        continue;
      }
      for (const id of fresh) attempted.add(id);
      await forEachAtMost(fresh, REJECTED_CONCURRENCY, async (id) => {
        try {
          await this.moderation.deletePhoto(admin, id);
          removed += 1;
        } catch (error) {
          // Someone deleted it meanwhile: it is gone, which is what was asked.
          if ((error as { code?: number }).code === GrpcStatus.NOT_FOUND) return;
          failed += 1;
          this.logger.warn({ err: error, photoId: id }, 'rejected photo not deleted by the cleanup');
        }
      });
    }
    let message = `Deleted ${plural(removed, 'rejected photo')} and their files.`;
    if (failed > 0) message += ` ${plural(failed, 'photo')} could not be deleted now; run the cleanup again later.`;
    if (unfinished) message += ' More rejected photos remain; run the cleanup again.';
    return { message, removed, failed };
  }

  private outOfTime(started: Date): boolean {
    return this.now().getTime() - started.getTime() >= this.budgetMs;
  }
}

/** `local:photos/…` → `local`, grouped so each storage call touches one backend. */
function groupByBackend(keys: string[]): Map<string, string[]> {
  const groups = new Map<string, string[]>();
  for (const key of keys) {
    const backend = key.slice(0, key.indexOf(':'));
    groups.set(backend, [...(groups.get(backend) ?? []), key]);
  }
  return groups;
}
