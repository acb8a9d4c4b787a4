import type { Envelope } from '@snapcracks/kit';
import { ALLOWANCE } from '@snapcracks/http-contract';
import type { AllowanceFacts, AllowanceSettings } from '../upload-allowance.js';
import type {
  BlobRef,
  EventOf,
  NewPhoto,
  Photo,
  PhotoChanges,
  PhotoImages,
  PhotoRepository,
  ReviewQuery,
  UpdateOptions,
  Uploader,
} from '../photo.repository.js';
import { PendingLimitReached } from '../photo.repository.js';
import type { UploaderStore } from '../consumers/uploaders.store.js';
import { SIMILAR_MAX_DISTANCE, hammingDistance, hashToBigInt, type ReviewMarks } from '../review-marks.js';

type Row = Omit<Photo, 'uploader'>;

/**
 * The photos table and the uploaders projection in memory, for unit tests of the service's rules. It keeps the
 * contract of the real repository (photo.repository.contract.ts runs against both): null for a missing photo or a
 * condition that no longer holds, version + 1 on every change, and each committed change's event in `events`, in
 * order. Rows are copied in and out, so a test sees only what was stored.
 */
export class InMemoryPhotoRepository implements PhotoRepository {
  #allowance: AllowanceSettings = { ...ALLOWANCE.defaults };
  readonly events: Envelope[] = [];
  readonly #rows = new Map<number, Row>();
  readonly #uploaders = new Map<string, Uploader>();
  /** What the rejected_hashes trigger keeps: every photo that became rejected, outliving the photo. */
  readonly #rejected = new Map<number, { userId: string; hash: bigint; reason: string; at: Date }>();
  #nextId = 1;
  #clock = Date.UTC(2025, 0, 1);
  #failNext: Error | undefined;

  /** The uploaders projection, as the consumer writes it. */
  readonly uploaders: UploaderStore = {
    saveIfNewer: async (uploader) => {
      const stored = this.#uploaders.get(uploader.id);
      if (stored && stored.updatedAt.getTime() >= uploader.updatedAt.getTime()) return false;
      this.#uploaders.set(uploader.id, structuredClone(uploader));
      return true;
    },
    delete: async (id) => {
      this.#uploaders.delete(id);
    },
  };

  /** Puts a photo in place without an event, as if it had been there before the test. */
  seed(photo: Partial<Row> & Pick<Row, 'userId'>): Photo {
    const row: Row = { ...this.#newRow(blankPhoto(photo.userId, this.#nextId)), ...stripUndefined(photo) };
    this.#rows.set(row.id, row);
    this.#keepRejected(null, row);
    this.#nextId = Math.max(this.#nextId, row.id + 1);
    return this.#copy(row)!;
  }

  /** The next write throws `error` and stores nothing (a database failure). */
  failNextWrite(error: Error = new Error('database unavailable')): void {
    this.#failNext = error;
  }

  async findById(id: number): Promise<Photo | null> {
    return this.#copy(this.#rows.get(id));
  }

  async findByIds(ids: number[]): Promise<Photo[]> {
    return ids.flatMap((id) => this.#copy(this.#rows.get(id)) ?? []);
  }

  async allowanceFacts(userId: string, now: Date): Promise<AllowanceFacts> {
    const day = 24 * 60 * 60 * 1000;
    const mine = [...this.#rows.values()].filter((r) => r.userId === userId);
    const rejectedSince = (days: number) => mine.filter((r) => r.status === 'rejected' && r.reviewedAt !== null && r.reviewedAt.getTime() >= now.getTime() - days * day).length;
    return {
      pending: mine.filter((r) => r.status === 'pending' && r.heldAt === null).length,
      approved: mine.filter((r) => r.status === 'approved').length,
      rejectedRecently: rejectedSince(ALLOWANCE.cleanRecordDays),
      rejectedLately: rejectedSince(ALLOWANCE.penaltyDays),
    };
  }

  async allowanceSettings(): Promise<AllowanceSettings> {
    return { ...this.#allowance };
  }

  async setAllowanceSettings(settings: AllowanceSettings): Promise<AllowanceSettings> {
    this.#allowance = { ...settings };
    return { ...settings };
  }

  async findImages(filename: string): Promise<PhotoImages | null> {
    const row = [...this.#rows.values()].find((r) => r.filename === filename);
    if (!row) return null;
    const ref = (key: string | null, etag: string | null, size: number | null, contentType: string | null): BlobRef | null =>
      key && etag !== null && size !== null && contentType ? { key, etag, size, contentType } : null;
    return {
      id: row.id,
      userId: row.userId,
      status: row.status,
      imageVersion: row.imageVersion,
      original: ref(row.originalKey, row.originalEtag, row.originalSize, row.originalType),
      display: ref(row.displayKey, row.displayEtag, row.displaySize, 'image/webp'),
      medium: ref(row.mediumKey, row.mediumEtag, row.mediumSize, 'image/webp'),
      thumbnail: ref(row.thumbnailKey, row.thumbnailEtag, row.thumbnailSize, 'image/webp'),
    };
  }

  async listByUser(userId: string): Promise<Photo[]> {
    return this.#sorted([...this.#rows.values()].filter((r) => r.userId === userId), 'newest').map((r) => this.#copy(r)!);
  }

  async listForReview(query: ReviewQuery): Promise<{ photos: Photo[]; total: number }> {
    const matching = [...this.#rows.values()].filter(
      (r) =>
        (!query.status || r.status === query.status) &&
        (!query.reviewedFrom || (r.reviewedAt !== null && r.reviewedAt >= query.reviewedFrom)) &&
        (!query.reviewedBefore || (r.reviewedAt !== null && r.reviewedAt < query.reviewedBefore)) &&
        (!query.settledBefore || r.resubmittedAt !== null || (r.reviewedAt !== null && r.reviewedAt < query.settledBefore)),
    );
    const photos = this.#sorted(matching, query.order)
      .slice(query.offset, query.offset + query.limit)
      .map((r) => this.#copy(r)!);
    return { photos, total: matching.length };
  }

  async reviewQueue({ excludeIds, limit }: { excludeIds: number[]; limit: number }): Promise<{ photos: Photo[]; total: number }> {
    const excluded = new Set(excludeIds);
    const waitingSince = (r: { heldAt: Date | null; resubmittedAt: Date | null; createdAt: Date }) => (r.heldAt ?? r.resubmittedAt ?? r.createdAt).getTime();
    const matching = [...this.#rows.values()]
      .filter((r) => r.status === 'pending' && !excluded.has(r.id))
      .sort((a, b) => waitingSince(a) - waitingSince(b) || a.id - b.id);
    return { photos: matching.slice(0, limit).map((r) => this.#copy(r)!), total: matching.length };
  }

  async create(photo: NewPhoto, eventOf: EventOf, { maxPending }: { maxPending?: number } = {}): Promise<Photo> {
    this.#maybeFail();
    if (maxPending !== undefined) {
      const pending = [...this.#rows.values()].filter((r) => r.userId === photo.userId && r.status === 'pending' && r.heldAt === null).length;
      if (pending >= maxPending) throw new PendingLimitReached(pending);
    }
    if ([...this.#rows.values()].some((r) => r.filename === photo.filename)) throw new Error('duplicate filename');
    const row = this.#newRow({ ...blankPhoto(photo.userId, this.#nextId), ...photo });
    const event = eventOf(this.#copy(row, false)!); // built before storing: a throwing builder changes nothing
    this.#rows.set(row.id, row);
    this.#nextId += 1;
    this.events.push(event);
    return this.#copy(row)!;
  }

  async update(id: number, changes: PhotoChanges, eventOf: EventOf, options: UpdateOptions = {}): Promise<Photo | null> {
    this.#maybeFail();
    const row = this.#rows.get(id);
    const when = options.when ?? {};
    if (!row) return null;
    if (when.status !== undefined && row.status !== when.status) return null;
    if (when.imageVersion !== undefined && row.imageVersion !== when.imageVersion) return null;
    if (when.mediumKey !== undefined && row.mediumKey !== when.mediumKey) return null;
    const next: Row = {
      ...row,
      ...stripUndefined(changes),
      id,
      version: row.version + 1,
      imageVersion: options.newImages ? row.imageVersion + 1 : row.imageVersion,
      updatedAt: this.#tick(),
    };
    const event = eventOf(this.#copy(next, false)!);
    this.#rows.set(id, next);
    this.#keepRejected(row, next);
    this.events.push(event);
    return this.#copy(next)!;
  }

  async delete(id: number, eventOf: EventOf): Promise<Photo | null> {
    this.#maybeFail();
    const row = this.#rows.get(id);
    if (!row) return null;
    const event = eventOf(this.#copy(row, false)!);
    this.#rows.delete(id);
    this.events.push(event);
    return this.#copy(row)!;
  }

  async reviewMarks(photoIds: number[]): Promise<Map<number, ReviewMarks>> {
    const marks = new Map<number, ReviewMarks>();
    for (const id of photoIds) {
      const row = this.#rows.get(id);
      if (!row) continue;
      const mark: ReviewMarks = {};
      const hash = hashToBigInt(row.perceptualHash);
      if (hash !== null) {
        const closest = [...this.#rejected.entries()]
          .filter(([rejectedId]) => rejectedId !== id)
          .map(([rejectedId, r]) => ({ rejectedId, r, distance: hammingDistance(hash, r.hash) }))
          .filter((c) => c.distance <= SIMILAR_MAX_DISTANCE)
          .sort((a, b) => a.distance - b.distance || b.r.at.getTime() - a.r.at.getTime() || b.rejectedId - a.rejectedId)[0];
        if (closest) {
          mark.similarRejected = {
            photoId: closest.rejectedId,
            rejectionReason: closest.r.reason,
            distance: closest.distance,
            sameUploader: closest.r.userId === row.userId,
            rejectedAt: new Date(closest.r.at),
          };
        }
      }
      if (row.contentSha256) {
        const duplicate = this.#sorted(
          [...this.#rows.values()].filter((r) => r.id < id && r.userId === row.userId && r.contentSha256 === row.contentSha256),
          'oldest',
        )[0];
        if (duplicate) mark.duplicateOf = { photoId: duplicate.id, status: duplicate.status };
      }
      if (mark.similarRejected || mark.duplicateOf) marks.set(id, mark);
    }
    return marks;
  }

  async referencedBlobKeys(keys: string[]): Promise<string[]> {
    const used = new Set([...this.#rows.values()].flatMap((r) => [r.originalKey, r.displayKey, r.mediumKey, r.thumbnailKey]));
    return keys.filter((key) => used.has(key));
  }

  #keepRejected(before: Row | null, after: Row): void {
    const hash = hashToBigInt(after.perceptualHash);
    if (after.status !== 'rejected' || before?.status === 'rejected' || hash === null || this.#rejected.has(after.id)) return;
    this.#rejected.set(after.id, { userId: after.userId, hash, reason: after.rejectionReason ?? '', at: after.reviewedAt ?? after.updatedAt });
  }

  /** The types of the events committed so far, oldest first. */
  eventTypes(): string[] {
    return this.events.map((e) => e.type);
  }

  count(): number {
    return this.#rows.size;
  }

  #maybeFail(): void {
    const error = this.#failNext;
    this.#failNext = undefined;
    if (error) throw error;
  }

  #sorted(rows: Row[], order: ReviewQuery['order']): Row[] {
    const by = (a: Row, b: Row) => {
      if (order === 'oldest') return a.createdAt.getTime() - b.createdAt.getTime() || a.id - b.id;
      if (order === 'newest') return b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id;
      return (b.reviewedAt?.getTime() ?? -Infinity) - (a.reviewedAt?.getTime() ?? -Infinity) || b.id - a.id;
    };
    return [...rows].sort(by);
  }

  #newRow(photo: Row): Row {
    const now = this.#tick();
    return { ...photo, createdAt: now, updatedAt: now };
  }

  #copy(row: Row | undefined, withUploader = true): Photo | null {
    if (!row) return null;
    const uploader = withUploader ? this.#uploaders.get(row.userId) : undefined;
    return { ...structuredClone(row), uploader: uploader ? structuredClone(uploader) : null };
  }

  #tick(): Date {
    this.#clock += 1000;
    return new Date(this.#clock);
  }
}

function blankPhoto(userId: string, id: number): Row {
  const epoch = new Date(0);
  return {
    id,
    userId,
    filename: `${id.toString(16).padStart(32, '0')}.webp`,
    originalName: 'photo.jpg',
    mimeType: 'image/jpeg',
    size: 1000,
    description: null,
    altText: null,
    status: 'pending',
    approvedBy: null,
    approvedAt: null,
    rejectionReason: null,
    privacyBars: null,
    driveFileId: null,
    storageType: 'local',
    createdAt: epoch,
    updatedAt: epoch,
    originalKey: null,
    originalEtag: null,
    originalSize: null,
    originalType: null,
    displayKey: null,
    displayEtag: null,
    displaySize: null,
    thumbnailKey: null,
    thumbnailEtag: null,
    thumbnailSize: null,
    mediumKey: null,
    mediumEtag: null,
    mediumSize: null,
    width: null,
    height: null,
    imageVersion: 1,
    version: 1,
    contentSha256: null,
    perceptualHash: null,
    reviewedAt: null,
    heldAt: null,
    rejectedDescription: null,
    rejectedPrivacyBars: null,
    resubmittedAt: null,
    resubmissionNote: null,
    previousRejectionReason: null,
    ratingSum: 0,
    voteCount: 0,
  };
}

/** Prisma ignores undefined fields in `data`; so does the fake. */
function stripUndefined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
