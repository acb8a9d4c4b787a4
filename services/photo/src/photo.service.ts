import { randomBytes, randomUUID } from 'node:crypto';
import {
  AbortedError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  ResourceExhaustedError,
  controlCharactersMessage,
  hasControlCharacters,
  makeEvent,
  type Caller,
  type Logger,
} from '@snapcracks/kit';
import { ALLOWANCE, ALT_TEXT, DESCRIPTION, PAGES, REFUSALS, REJECTION_REASON, RESUBMIT, REVERSAL, REVIEW, pageProblem, privacyBarsProblem } from '@snapcracks/http-contract';
import { uploadAllowance, type Allowance, type AllowanceSettings } from './upload-allowance.js';
import { PhotoStatus as PhotoStatusMessage, type PrivacyBar } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, PhotoUpdated, PhotoUploaded, type PhotoState } from '@snapcracks/proto/events/v1';
import type { PhotoOwnerStore } from './consumers/photo-owners.store.js';
import { PendingLimitReached, type EventOf, type Photo, type PhotoChanges, type PhotoImages, type PhotoRepository, type PhotoStatus, type ReviewQuery } from './photo.repository.js';
import type { PhotoStorage, StoredBlob } from './storage.client.js';
import { MAX_REFERENCE_KEYS, type ReviewMarks } from './review-marks.js';

export const PHOTO_NOT_FOUND = 'Photo not found';
export const CHANGED_MEANWHILE = 'The photo changed meanwhile. Please try again.';
const SOURCE = 'photo';
const MAX_ORIGINAL_NAME = 255;
const DAY_MS = 24 * 60 * 60 * 1000;
/** Storage deletes at most 1000 blobs per call. */
const MAX_DELETE_KEYS = 1000;
/** GetPhotosForReview answers at most this many photos a call. */
export const MAX_REVIEW_IDS = 100;
/** The review queue leaves out at most this many photos (every desk's claims, and this desk's own). */
export const MAX_QUEUE_EXCLUDED = 1000;
/** Who a hold is by in its status event: the community's reports, not a person. */
export const HELD_BY = 'reports';
/** A privacy-bar change writes its images over a medium image the backfill stored meanwhile; more than twice is not that. */
const MAX_BAR_ATTEMPTS = 3;

export type ImageVariant = 'display' | 'medium' | 'thumbnail' | 'original';
export type ReviewList = 'pending' | 'approved_today' | 'rejected_today' | 'all' | 'rejected';
/** A photo of an admin's review list: pending ones carry their repeat-upload marks (review-marks.ts), when any. */
export type ReviewPhoto = Photo & { reviewMarks?: ReviewMarks };

/** The header of an upload, as the client sent it. */
export interface UploadHeader {
  originalName: string;
  description?: string | undefined;
  altText?: string | undefined;
}

/** The fields of an upload that followed its bytes, each only when the header does not have it. */
export interface LateUploadFields {
  description?: string | undefined;
  altText?: string | undefined;
}

export interface ResolvedImage {
  blobKey: string;
  contentType: string;
  etag: string;
  size: number;
  /** Anyone may see it (an approved photo's redacted derivative). */
  public: boolean;
  imageVersion: number;
  /** The variant asked for is not made yet (a medium image the backfill has not reached): this is the display image. */
  fallback: boolean;
}

/**
 * Photo rules: who may see and change which photo, what a description and privacy bars may be, and how a photo
 * moves from pending to approved or rejected. It decides; the repository stores each change together with the event
 * this class builds for it, and storage keeps the bytes.
 */
export class PhotoService {
  constructor(
    private readonly photos: PhotoRepository,
    private readonly storage: PhotoStorage,
    private readonly logger: Pick<Logger, 'warn'>,
    private readonly now: () => Date = () => new Date(),
    private readonly newActionId: () => string = randomUUID,
  ) {}

  /**
   * Stores the upload in storage, then the row and its event in one transaction. Nothing is sent to storage before
   * the header is valid, and if the row cannot be stored the blobs are deleted: a failed upload leaves neither. The
   * description and alt text are in the header, or else may follow the bytes (`lateFields`, known once they are read).
   */
  async upload(caller: Caller, header: UploadHeader, chunks: AsyncIterable<Buffer>, lateFields: () => LateUploadFields | undefined = () => undefined): Promise<Photo> {
    // A full allowance is refused before a byte is processed; the row's insert checks again, under a lock.
    const allowance = await this.allowance(caller);
    if (allowance.pending >= allowance.limit) throw new ResourceExhaustedError(ALLOWANCE.full(allowance.pending, allowance.limit));
    let description = optionalDescription(header.description);
    let altText = optionalAltText(header.altText);
    const originalName = safeBasename(header.originalName);
    // Fields that follow the bytes are checked before storage hears the upload is whole: a refused one makes storage
    // drop the upload, so nothing is stored and nothing announced.
    async function* thenLateFields(): AsyncIterable<Buffer> {
      yield* chunks;
      const late = lateFields();
      if (late?.description !== undefined) {
        if (header.description !== undefined) throw new InvalidArgumentError('Only one description is allowed');
        description = optionalDescription(late.description);
      }
      if (late?.altText !== undefined) {
        if (header.altText !== undefined) throw new InvalidArgumentError(ALT_TEXT.duplicate);
        altText = optionalAltText(late.altText);
      }
    }
    const image = await this.storage.storeImage(caller, thenLateFields());
    const keys = blobKeys(image.original, image.display, image.medium, image.thumbnail);
    try {
      return await this.photos.create(
        {
          userId: caller.userId,
          filename: `${randomBytes(16).toString('hex')}.webp`,
          originalName,
          mimeType: image.sourceMimeType,
          size: image.sourceSize,
          description,
          altText,
          storageType: image.original.storageType,
          driveFileId: image.original.driveFileId,
          originalKey: image.original.key,
          originalEtag: image.original.etag,
          originalSize: image.original.size,
          originalType: image.original.contentType,
          displayKey: image.display.key,
          displayEtag: image.display.etag,
          displaySize: image.display.size,
          thumbnailKey: image.thumbnail.key,
          thumbnailEtag: image.thumbnail.etag,
          thumbnailSize: image.thumbnail.size,
          ...mediumColumns(image.medium),
          width: image.width,
          height: image.height,
          contentSha256: image.contentSha256,
          perceptualHash: image.perceptualHash,
        },
        (photo) => makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: photoState(photo) }, { source: SOURCE }),
        { maxPending: allowance.limit },
      );
    } catch (error) {
      await this.deleteBlobs(caller, keys, 'after a failed upload');
      if (error instanceof PendingLimitReached) throw new ResourceExhaustedError(ALLOWANCE.full(error.pending, allowance.limit));
      throw error;
    }
  }

  /** How many photos the member may have waiting for review at once, how many they have, and why (upload-allowance.ts). */
  async allowance(member: Caller): Promise<Allowance> {
    const [settings, facts] = await Promise.all([this.photos.allowanceSettings(), this.photos.allowanceFacts(member.userId, this.now())]);
    return uploadAllowance(settings, facts);
  }

  allowanceSettings(): Promise<AllowanceSettings> {
    return this.photos.allowanceSettings();
  }

  /** An admin's new allowances: whole numbers from 1 to ALLOWANCE.maxSetting, the larger one at least the basic one. */
  setAllowanceSettings(admin: Caller, settings: AllowanceSettings): Promise<AllowanceSettings> {
    const whole = (n: number) => Number.isInteger(n) && n >= 1 && n <= ALLOWANCE.maxSetting;
    const { pendingLimit, trustedAfter, trustedPendingLimit } = settings;
    if (![pendingLimit, trustedAfter, trustedPendingLimit].every(whole) || trustedPendingLimit < pendingLimit) throw new InvalidArgumentError(ALLOWANCE.settingInvalid);
    return this.photos.setAllowanceSettings({ pendingLimit, trustedAfter, trustedPendingLimit }, admin.userId);
  }

  listMine(caller: Caller): Promise<Photo[]> {
    return this.photos.listByUser(caller.userId);
  }

  /** Owners and admins see any photo; everyone else only approved ones. */
  async get(caller: Caller | null, id: number): Promise<Photo> {
    const photo = await this.findPhoto(id);
    if (!photo || !mayView(photo, caller)) throw new NotFoundError(PHOTO_NOT_FOUND);
    return photo;
  }

  /** The description, and the alt text when `rawAltText` is given (blank clears it). */
  async updateDescription(caller: Caller, id: number, rawDescription: string, rawAltText?: string): Promise<Photo> {
    await this.editable(caller, id);
    const description = requiredDescription(rawDescription);
    const changes: PhotoChanges = rawAltText === undefined ? { description } : { description, altText: optionalAltText(rawAltText) };
    return found(await this.photos.update(id, changes, updatedEvent(caller)));
  }

  /**
   * Burns the bars into new derivatives before answering, so the acknowledged bars are in every image anyone else
   * can fetch. The row changes only if no other image change happened meanwhile; the replaced derivatives are
   * deleted after the commit. A medium image the backfill stored meanwhile is no such change (it was rendered with
   * the bars these replace, and leaves the image version alone): the row is written over it, and it is deleted too.
   */
  async setPrivacyBars(caller: Caller, id: number, rawBars: readonly PrivacyBar[]): Promise<{ bars: PrivacyBar[]; photo: Photo }> {
    const photo = await this.editable(caller, id);
    const bars = validateBars(rawBars);
    if (!photo.originalKey) throw new FailedPreconditionError('This photo has no stored original to redact');
    const rendered = await this.storage.renderDerivatives(caller, photo.originalKey, bars);
    const newKeys = blobKeys(rendered.display, rendered.medium, rendered.thumbnail);
    const changes: PhotoChanges = {
      privacyBars: JSON.stringify(bars),
      displayKey: rendered.display.key,
      displayEtag: rendered.display.etag,
      displaySize: rendered.display.size,
      // Without a new medium image (storage of the previous release), none: the old one shows the old bars.
      ...mediumColumns(rendered.medium),
      thumbnailKey: rendered.thumbnail.key,
      thumbnailEtag: rendered.thumbnail.etag,
      thumbnailSize: rendered.thumbnail.size,
    };
    let updated: Photo | null = null;
    let replaced: Photo = photo;
    try {
      for (let attempt = 1; ; attempt += 1) {
        const when = { imageVersion: photo.imageVersion, mediumKey: replaced.mediumKey };
        updated = await this.photos.update(id, changes, updatedEvent(caller), { when, newImages: true });
        if (updated || attempt === MAX_BAR_ATTEMPTS) break;
        const current = await this.photos.findById(id);
        if (!current || current.imageVersion !== photo.imageVersion || current.mediumKey === replaced.mediumKey) break;
        replaced = current;
      }
    } catch (error) {
      await this.deleteBlobs(caller, newKeys, 'after a failed privacy-bar change');
      throw error;
    }
    if (!updated) {
      await this.deleteBlobs(caller, newKeys, 'after a conflicting privacy-bar change');
      throw new AbortedError(CHANGED_MEANWHILE);
    }
    const oldKeys = blobKeys(photo.displayKey, replaced.mediumKey, photo.thumbnailKey).filter((key) => !newKeys.includes(key));
    await this.deleteBlobs(caller, oldKeys, 'replaced by new privacy bars');
    return { bars, photo: updated };
  }

  async getPrivacyBars(caller: Caller, id: number): Promise<PrivacyBar[]> {
    return parseBars((await this.editable(caller, id)).privacyBars);
  }

  /**
   * The owner, or an admin (the moderation service passes its audit entry as `actionId`). The row and its event go in
   * one transaction; the blobs are deleted afterwards, and a failure there is only logged (cleanup removes orphans).
   */
  async delete(caller: Caller, id: number, actionId?: string): Promise<Photo> {
    await this.editable(caller, id);
    const deletedAt = this.now();
    const deleted = found(
      await this.photos.delete(id, (photo) =>
        makeEvent(
          'photo.photo.deleted',
          PhotoDeleted,
          // The deletion is a change too: its state is one version past the last one consumers saw.
          { photo: { ...photoState(photo), version: photo.version + 1 }, deletedBy: caller.userId, actionId, deletedAt },
          { source: SOURCE },
        ),
      ),
    );
    await this.deleteBlobs(caller, imageKeys(deleted), 'of a deleted photo');
    return deleted;
  }

  /**
   * Every photo of a deleted account (the users consumer, in its transaction): the rows go with a photo.photo.deleted
   * each, so votes, stats and the gallery follow as for any deletion. Their blobs are then deleted a batch at a time
   * without holding the consumer's transaction open on storage (`blobsDeleted` settles when that is done); a failure
   * there is only logged: the photos are gone either way, and the orphaned-files cleanup removes what is left. Should
   * the transaction fail after all, the redelivered event deletes the rows, and deleting blobs twice is harmless.
   */
  async deleteAllOf(owners: PhotoOwnerStore, userId: string): Promise<{ photos: Photo[]; blobsDeleted: Promise<void> }> {
    const photos = await owners.deleteAllOf(userId, photoDeletedEvent(this.now()));
    const keys = photos.flatMap(imageKeys);
    const blobsDeleted = (async () => {
      for (let start = 0; start < keys.length; start += MAX_DELETE_KEYS) {
        await this.deleteBlobs(null, keys.slice(start, start + MAX_DELETE_KEYS), 'of a deleted account');
      }
    })();
    return { photos, blobsDeleted };
  }

  /**
   * Which blob answers an image request. Approved photos' redacted images are for everyone; originals, and every
   * image of a photo not approved, only for the owner and admins. Anyone else learns nothing, not even that it exists.
   * The medium image is seen by whoever may see the display image, and until the photo has one (a photo stored before
   * there were any, which the medium backfill has not reached) the display image answers for it, marked `fallback`.
   */
  async resolveImage(caller: Caller | null, filename: string, variant: ImageVariant): Promise<ResolvedImage> {
    const images = filename.length > 0 && filename.length <= 255 ? await this.photos.findImages(filename) : null;
    if (!images) throw new NotFoundError(PHOTO_NOT_FOUND);
    const privileged = isOwnerOrAdmin(images, caller);
    const isPublic = images.status === 'approved' && variant !== 'original';
    if (!isPublic && !privileged) throw new NotFoundError(PHOTO_NOT_FOUND);
    const fallback = variant === 'medium' && !images.medium;
    const blob = fallback ? images.display : imageOf(images, variant);
    if (!blob) throw new NotFoundError(PHOTO_NOT_FOUND);
    return { blobKey: blob.key, contentType: blob.contentType, etag: blob.etag, size: blob.size, public: isPublic, imageVersion: images.imageVersion, fallback };
  }

  /**
   * An admin's decision: approve or reject a pending photo, or (a removal) reject an approved one as well, or (a
   * reinstatement) approve a rejected one after all. Approving a photo that was approved before (held for review by
   * reports, or removed) keeps its first approval time, so it returns to the gallery where it was instead of as new.
   */
  async setStatus(
    admin: Caller,
    id: number,
    decision: { status: PhotoStatus | null; rejectionReason?: string | undefined; actionId: string; removal?: boolean; reinstate?: boolean; note?: string | undefined },
  ): Promise<Photo> {
    const { status } = decision;
    if (status !== 'approved' && status !== 'rejected') throw new InvalidArgumentError(REVIEW.statusInvalid);
    let reason: string | null = null;
    if (status === 'rejected') {
      reason = decision.rejectionReason?.trim() ?? '';
      if (!reason) throw new InvalidArgumentError(REJECTION_REASON.required);
      if (reason.length > REJECTION_REASON.maxLength) throw new InvalidArgumentError(REJECTION_REASON.tooLong);
    }
    const photo = await this.findPhoto(id);
    if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND);
    const removable = status === 'rejected' && decision.removal === true && photo.status === 'approved';
    const reinstatable = status === 'approved' && decision.reinstate === true && photo.status === 'rejected';
    if (photo.status !== 'pending' && !removable && !reinstatable) {
      throw new FailedPreconditionError(
        decision.removal ? 'Only pending or approved photos can be removed' : decision.reinstate ? REVERSAL.notRejected : 'Only pending photos can be approved or rejected',
      );
    }
    const at = this.now();
    const changes: PhotoChanges =
      status === 'approved'
        ? { status, approvedBy: admin.userId, approvedAt: photo.approvedAt ?? at, rejectionReason: null, reviewedAt: at, heldAt: null }
        : { status, rejectionReason: reason, reviewedAt: at, heldAt: null, rejectedDescription: photo.description, rejectedPrivacyBars: photo.privacyBars };
    const note = reinstatable ? decision.note?.trim() || null : null;
    const event = this.statusEvent(photo.status, admin.userId, decision.actionId, at, reason, note);
    const updated = await this.photos.update(id, changes, event, { when: { status: photo.status } });
    if (updated) return updated;
    throw new AbortedError(CHANGED_MEANWHILE);
  }

  /**
   * Takes an approved photo out of the gallery and back to pending, on no admin's behalf (reports reached their
   * threshold). Its votes stay, uncounted while it is not approved; its first approval time stays too, which is what
   * marks it as under review rather than new.
   */
  async holdForReview(id: number, actionId: string): Promise<Photo> {
    const photo = await this.findPhoto(id);
    if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND);
    if (photo.status !== 'approved') throw new FailedPreconditionError('Only approved photos can be held for review');
    const at = this.now();
    const updated = await this.photos.update(id, { status: 'pending', heldAt: at }, this.statusEvent('approved', HELD_BY, actionId, at, null), { when: { status: 'approved' } });
    if (updated) return updated;
    throw new AbortedError(CHANGED_MEANWHILE);
  }

  /**
   * The owner's answer to a rejection: the photo, fixed with the usual edits, goes back to pending with their note.
   * Once per photo, within RESUBMIT.windowDays of the rejection; a photo rejected again after it is rejected for good.
   * The status event carries an action id of this service's, so the audit log records the resubmission too.
   */
  async resubmit(owner: Caller, id: number, rawNote: string | undefined): Promise<Photo> {
    const note = rawNote?.trim() ?? '';
    if (note.length > RESUBMIT.noteMaxLength) throw new InvalidArgumentError(RESUBMIT.noteTooLong);
    const photo = await this.findPhoto(id);
    if (!photo || !mayView(photo, owner)) throw new NotFoundError(PHOTO_NOT_FOUND);
    if (photo.userId !== owner.userId) throw new PermissionDeniedError(REFUSALS.ownPhotosOnly);
    const at = this.now();
    if (photo.status !== 'rejected') throw new FailedPreconditionError(RESUBMIT.notRejected);
    if (photo.resubmittedAt) throw new FailedPreconditionError(RESUBMIT.final);
    if (!resubmitDeadline(photo, at)) throw new FailedPreconditionError(RESUBMIT.expired);
    const changes: PhotoChanges = {
      status: 'pending',
      resubmittedAt: at,
      resubmissionNote: note || null,
      previousRejectionReason: photo.rejectionReason,
      rejectionReason: null,
    };
    const updated = await this.photos.update(id, changes, this.statusEvent('rejected', owner.userId, this.newActionId(), at, null, note || null), {
      when: { status: 'rejected' },
    });
    if (updated) return updated;
    throw new AbortedError(CHANGED_MEANWHILE);
  }

  /** Photos by id at any status, for an admin; ids not found are left out. */
  async getForReview(ids: number[]): Promise<Photo[]> {
    const unique = [...new Set(ids)].filter(isPhotoId);
    if (unique.length > MAX_REVIEW_IDS) throw new InvalidArgumentError(`At most ${MAX_REVIEW_IDS} photo ids at a time`);
    return unique.length > 0 ? this.photos.findByIds(unique) : [];
  }

  private statusEvent(previous: PhotoStatus, changedBy: string, actionId: string, changedAt: Date, rejectionReason: string | null, note: string | null = null): EventOf {
    return (photo) =>
      makeEvent(
        'photo.photo.status_changed',
        PhotoStatusChanged,
        {
          photo: photoState(photo),
          previousStatus: statusToMessage(previous),
          changedBy,
          rejectionReason: rejectionReason ?? undefined,
          changedAt,
          actionId,
          note: note ?? undefined,
        },
        { source: SOURCE },
      );
  }

  /**
   * The admin lists: pending oldest first, today's decisions (UTC day) newest first, everything newest first, and
   * every rejected photo oldest first (for the cleanup). Pending photos carry their repeat-upload marks.
   */
  async listForReview(list: ReviewList | null, page: { page?: number; limit?: number } = {}): Promise<{ photos: ReviewPhoto[]; total: number; totalPages: number }> {
    const pageNumber = page.page || 1;
    const limit = page.limit || PAGES.limits.adminPhotos.default;
    const problem = pageProblem(pageNumber, limit, PAGES.limits.adminPhotos);
    if (problem) throw new InvalidArgumentError(problem);
    const now = this.now();
    const dayStart = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()));
    const today = { reviewedFrom: dayStart, reviewedBefore: new Date(dayStart.getTime() + DAY_MS) };
    const filters: Record<ReviewList, Omit<ReviewQuery, 'offset' | 'limit'>> = {
      pending: { status: 'pending', order: 'oldest' },
      approved_today: { status: 'approved', ...today, order: 'newest_reviewed' },
      rejected_today: { status: 'rejected', ...today, order: 'newest_reviewed' },
      all: { order: 'newest' },
      // The rejected-photos cleanup: a rejection its owner may still answer with a resubmission is kept until then.
      rejected: { status: 'rejected', settledBefore: new Date(now.getTime() - RESUBMIT.windowDays * DAY_MS), order: 'oldest' },
    };
    if (!list || !(list in filters)) throw new InvalidArgumentError('Unknown review list');
    const { photos, total } = await this.photos.listForReview({ ...filters[list], offset: (pageNumber - 1) * limit, limit });
    const pendingIds = photos.filter((photo) => photo.status === 'pending').map((photo) => photo.id);
    const marks = pendingIds.length > 0 ? await this.photos.reviewMarks(pendingIds) : new Map<number, ReviewMarks>();
    const marked = photos.map((photo): ReviewPhoto => {
      const photoMarks = marks.get(photo.id);
      return photoMarks ? { ...photo, reviewMarks: photoMarks } : photo;
    });
    return { photos: marked, total, totalPages: Math.ceil(total / limit) };
  }

  /**
   * The review desk's queue: pending photos, the longest waiting first, leaving out `excludeIds` (claimed at other
   * desks, or done with at this one), with their repeat-upload marks.
   */
  async reviewQueue(excludeIds: number[], limit: number): Promise<{ photos: ReviewPhoto[]; total: number }> {
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_REVIEW_IDS) throw new InvalidArgumentError(`Limit must be between 1 and ${MAX_REVIEW_IDS}`);
    const excluded = [...new Set(excludeIds)].filter(isPhotoId);
    if (excluded.length > MAX_QUEUE_EXCLUDED) throw new InvalidArgumentError(`At most ${MAX_QUEUE_EXCLUDED} photos can be left out`);
    const { photos, total } = await this.photos.reviewQueue({ excludeIds: excluded, limit });
    const marks = photos.length > 0 ? await this.photos.reviewMarks(photos.map((photo) => photo.id)) : new Map<number, ReviewMarks>();
    return { photos: photos.map((photo): ReviewPhoto => (marks.has(photo.id) ? { ...photo, reviewMarks: marks.get(photo.id)! } : photo)), total };
  }

  /** Which of `keys` some photo uses (the orphaned-files cleanup asks before deleting blobs). */
  async referencedBlobKeys(keys: string[]): Promise<string[]> {
    const unique = [...new Set(keys)];
    if (unique.length > MAX_REFERENCE_KEYS) throw new InvalidArgumentError(`At most ${MAX_REFERENCE_KEYS} keys at a time`);
    return this.photos.referencedBlobKeys(unique);
  }

  /** A photo the caller may change: someone else's is NOT_FOUND when they cannot see it, PERMISSION_DENIED otherwise. */
  private async editable(caller: Caller, id: number): Promise<Photo> {
    const photo = await this.findPhoto(id);
    if (!photo || !mayView(photo, caller)) throw new NotFoundError(PHOTO_NOT_FOUND);
    if (!isOwnerOrAdmin(photo, caller)) throw new PermissionDeniedError(REFUSALS.ownPhotosOnly);
    return photo;
  }

  /** Ids are SERIAL: anything that cannot be one is simply not found. */
  private findPhoto(id: number): Promise<Photo | null> {
    return isPhotoId(id) ? this.photos.findById(id) : Promise.resolve(null);
  }

  private async deleteBlobs(caller: Caller | null, keys: string[], why: string): Promise<void> {
    if (keys.length === 0) return;
    try {
      await this.storage.deleteBlobs(caller, keys);
    } catch (error) {
      this.logger.warn({ err: error, keys }, `could not delete blobs ${why}; the orphan cleanup will remove them`);
    }
  }
}

function isPhotoId(id: number): boolean {
  return Number.isSafeInteger(id) && id > 0 && id <= 2_147_483_647;
}

function isOwnerOrAdmin(photo: { userId: string }, caller: Caller | null): boolean {
  return caller !== null && (caller.isAdmin || caller.userId === photo.userId);
}

/** Pending again after an approval: members' reports took it back to review until an admin decides. */
export function isUnderReview(photo: Pick<Photo, 'status' | 'heldAt'>): boolean {
  return photo.status === 'pending' && photo.heldAt !== null;
}

/**
 * Until when the owner may resubmit a rejected photo: RESUBMIT.windowDays after the rejection, if it was never
 * resubmitted; null when they may not (not rejected, resubmitted once already, or too late).
 */
export function resubmitDeadline(photo: Pick<Photo, 'status' | 'resubmittedAt' | 'reviewedAt'>, now: Date): Date | null {
  if (photo.status !== 'rejected' || photo.resubmittedAt || !photo.reviewedAt) return null;
  const deadline = new Date(photo.reviewedAt.getTime() + RESUBMIT.windowDays * DAY_MS);
  return deadline > now ? deadline : null;
}

function mayView(photo: { userId: string; status: PhotoStatus }, caller: Caller | null): boolean {
  return photo.status === 'approved' || isOwnerOrAdmin(photo, caller);
}

function imageOf(images: PhotoImages, variant: ImageVariant) {
  return images[variant];
}

/** Every blob a photo's row names. */
function imageKeys(photo: Pick<Photo, 'originalKey' | 'displayKey' | 'mediumKey' | 'thumbnailKey'>): string[] {
  return blobKeys(photo.originalKey, photo.displayKey, photo.mediumKey, photo.thumbnailKey);
}

function blobKeys(...blobs: (string | { key: string } | null | undefined)[]): string[] {
  return blobs.flatMap((blob) => (typeof blob === 'string' ? [blob] : blob ? [blob.key] : []));
}

/** The medium image's columns for a stored blob, or none. */
function mediumColumns(medium: StoredBlob | null): { mediumKey: string | null; mediumEtag: string | null; mediumSize: number | null } {
  return { mediumKey: medium?.key ?? null, mediumEtag: medium?.etag ?? null, mediumSize: medium?.size ?? null };
}

function found(photo: Photo | null): Photo {
  if (!photo) throw new NotFoundError(PHOTO_NOT_FOUND);
  return photo;
}

function optionalDescription(raw: string | undefined): string | null {
  // Streamed messages pass no check of the gRPC server's, which refuses control characters in unary requests only.
  if (raw !== undefined && hasControlCharacters(raw)) throw new InvalidArgumentError(controlCharactersMessage('description'));
  const description = raw?.trim() ?? '';
  if (description.length > DESCRIPTION.maxLength) throw new InvalidArgumentError(DESCRIPTION.tooLong);
  return description || null;
}

function optionalAltText(raw: string | undefined): string | null {
  if (raw !== undefined && hasControlCharacters(raw)) throw new InvalidArgumentError(controlCharactersMessage('altText'));
  const altText = raw?.trim() ?? '';
  if (altText.length > ALT_TEXT.maxLength) throw new InvalidArgumentError(ALT_TEXT.tooLong);
  return altText || null;
}

function requiredDescription(raw: string): string {
  const description = raw.trim();
  if (!description) throw new InvalidArgumentError(DESCRIPTION.required);
  if (description.length > DESCRIPTION.maxLength) throw new InvalidArgumentError(DESCRIPTION.tooLong);
  return description;
}

/** The client's file name reduced to a safe base name: no path, no control characters, at most 255 characters. */
export function safeBasename(raw: string): string {
  const base = raw.split(/[/\\]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const clean = base.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g, '').trim();
  const name = Array.from(clean).slice(0, MAX_ORIGINAL_NAME).join('');
  return name === '' || name === '.' || name === '..' ? 'photo' : name;
}

/** Checks and normalises privacy bars (the contract's rule); anything else is refused with a message the user sees, and nothing changes. */
export function validateBars(bars: readonly PrivacyBar[]): PrivacyBar[] {
  const problem = privacyBarsProblem(bars);
  if (problem) throw new InvalidArgumentError(problem);
  return bars.map(({ x, y, width, height }) => ({ x, y, width, height }));
}

/** The stored bars (JSON text); an unreadable value reads as none. */
export function parseBars(text: string | null): PrivacyBar[] {
  if (!text) return [];
  try {
    const value: unknown = JSON.parse(text);
    if (!Array.isArray(value)) return [];
    return value
      .filter((b): b is PrivacyBar => typeof b === 'object' && b !== null && ['x', 'y', 'width', 'height'].every((k) => typeof (b as Record<string, unknown>)[k] === 'number'))
      .map(({ x, y, width, height }) => ({ x, y, width, height }));
  } catch {
    return [];
  }
}

const STATUS_TO_MESSAGE: Record<PhotoStatus, PhotoStatusMessage> = {
  pending: PhotoStatusMessage.PHOTO_STATUS_PENDING,
  approved: PhotoStatusMessage.PHOTO_STATUS_APPROVED,
  rejected: PhotoStatusMessage.PHOTO_STATUS_REJECTED,
};

export function statusToMessage(status: PhotoStatus): PhotoStatusMessage {
  return STATUS_TO_MESSAGE[status];
}

export function statusFromMessage(status: PhotoStatusMessage): PhotoStatus | null {
  return (Object.entries(STATUS_TO_MESSAGE).find(([, value]) => value === status)?.[0] as PhotoStatus | undefined) ?? null;
}

/** The state every photo event carries (and the stats backfill streams). */
export function photoState(photo: Pick<Photo, 'id' | 'userId' | 'filename' | 'status' | 'createdAt' | 'approvedAt' | 'version' | 'description'>): PhotoState {
  return {
    photoId: photo.id,
    userId: photo.userId,
    filename: photo.filename,
    status: statusToMessage(photo.status),
    createdAt: photo.createdAt,
    approvedAt: photo.approvedAt ?? undefined,
    version: photo.version,
    description: photo.description ?? undefined,
  };
}

/** photo.photo.deleted for a photo deleted with its owner's account: no actor or action id, as it is no moderation decision. */
export function photoDeletedEvent(deletedAt: Date): EventOf {
  // The deletion is a change too: its state is one version past the last one consumers saw.
  return (photo) => makeEvent('photo.photo.deleted', PhotoDeleted, { photo: { ...photoState(photo), version: photo.version + 1 }, deletedAt }, { source: SOURCE });
}

function updatedEvent(caller: Caller): EventOf {
  return (photo) => makeEvent('photo.photo.updated', PhotoUpdated, { photo: photoState(photo), changedBy: caller.userId }, { source: SOURCE });
}
