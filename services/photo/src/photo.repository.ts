import type { Envelope, Outbox } from '@snapcracks/kit';
import { ALLOWANCE } from '@snapcracks/http-contract';
import type { AllowanceFacts, AllowanceSettings } from './upload-allowance.js';
import { prismaErrorCode } from '@snapcracks/kit';
import type { Prisma, PrismaClient, Photo as PhotoModel, PhotoStatus, Uploader } from './generated/prisma/client.js';
import { SIMILAR_MAX_DISTANCE, type ReviewMarks } from './review-marks.js';

export type { PhotoStatus, StorageType, Uploader } from './generated/prisma/client.js';

/**
 * How every photo is read: the row without the previous release's rating columns (nothing reads them; see the
 * schema), with the rating totals from its `ratings` row.
 */
export const PHOTO_ROW = {
  omit: { ratingSum: true, voteCount: true, ratingVersion: true, score: true },
  include: { rating: { select: { voteCount: true, ratingSum: true } } },
} as const satisfies Prisma.PhotoDefaultArgs;
export type PhotoRow = Prisma.PhotoGetPayload<typeof PHOTO_ROW>;

const DAY_MS = 24 * 60 * 60 * 1000;

/** An upload found its member's allowance full when its row was about to be stored (another upload took the place). */
export class PendingLimitReached extends Error {
  constructor(readonly pending: number) {
    super(`the member already has ${pending} photos pending`);
    this.name = 'PendingLimitReached';
  }
}

/**
 * A photo as the service sees it: its row (version as a plain number), its rating totals and its uploader's public
 * names, when known. The totals' version and the score are the ratings projection's and the gallery's, so they are
 * left out.
 */
export type Photo = Omit<PhotoRow, 'version' | 'rating'> & { version: number; voteCount: number; ratingSum: number; uploader: Uploader | null };

/** What an upload stores; everything else takes the table's defaults (pending, version 1, image version 1). */
export type NewPhoto = Pick<
  PhotoModel,
  | 'userId'
  | 'filename'
  | 'originalName'
  | 'mimeType'
  | 'size'
  | 'description'
  | 'altText'
  | 'storageType'
  | 'driveFileId'
  | 'originalKey'
  | 'originalEtag'
  | 'originalSize'
  | 'originalType'
  | 'displayKey'
  | 'displayEtag'
  | 'displaySize'
  | 'thumbnailKey'
  | 'thumbnailEtag'
  | 'thumbnailSize'
  | 'mediumKey'
  | 'mediumEtag'
  | 'mediumSize'
  | 'width'
  | 'height'
  | 'contentSha256'
  | 'perceptualHash'
>;

/** The columns a change may set. Every change also adds 1 to `version`; ids, owner, filename and originals never change. */
export type PhotoChanges = Partial<
  Pick<
    PhotoModel,
    | 'description'
    | 'altText'
    | 'status'
    | 'approvedBy'
    | 'approvedAt'
    | 'rejectionReason'
    | 'reviewedAt'
    | 'heldAt'
    | 'rejectedDescription'
    | 'rejectedPrivacyBars'
    | 'resubmittedAt'
    | 'resubmissionNote'
    | 'previousRejectionReason'
    | 'privacyBars'
    | 'displayKey'
    | 'displayEtag'
    | 'displaySize'
    | 'thumbnailKey'
    | 'thumbnailEtag'
    | 'thumbnailSize'
    | 'mediumKey'
    | 'mediumEtag'
    | 'mediumSize'
  >
>;

export interface UpdateOptions {
  /** Change the row only while it still has these values (one atomic UPDATE … WHERE); otherwise nothing changes and null is answered. */
  when?: { status?: PhotoStatus; imageVersion?: number; mediumKey?: string | null };
  /** The images changed: add 1 to `image_version` too. */
  newImages?: boolean;
}

/** Builds the event that reports a change, from the row as the change left it (or, for a deletion, as it was). */
export type EventOf = (photo: Photo) => Envelope;

export interface BlobRef {
  key: string;
  etag: string;
  size: number;
  contentType: string;
}

/** What ResolveImage needs about a photo's images, read with one indexed query by filename. */
export interface PhotoImages {
  id: number;
  userId: string;
  status: PhotoStatus;
  imageVersion: number;
  original: BlobRef | null;
  display: BlobRef | null;
  medium: BlobRef | null;
  thumbnail: BlobRef | null;
}

export interface ReviewQuery {
  status?: PhotoStatus;
  /** reviewed_at in [reviewedFrom, reviewedBefore). */
  reviewedFrom?: Date;
  reviewedBefore?: Date;
  /** Only decisions that stand: resubmitted once already, or reviewed before this (the resubmission window is over). */
  settledBefore?: Date;
  order: 'oldest' | 'newest' | 'newest_reviewed';
  offset: number;
  limit: number;
}

/**
 * The photos table and the uploaders projection, in the service's own words. Every write commits the change and its
 * event (outbox) in one transaction, so a change is never without its event. A write to a missing photo, or one
 * whose `when` condition no longer holds, changes nothing and answers null.
 */
export interface PhotoRepository {
  findById(id: number): Promise<Photo | null>;
  /** The photos of these ids that exist, in the order of `ids`. */
  findByIds(ids: number[]): Promise<Photo[]>;
  findImages(filename: string): Promise<PhotoImages | null>;
  /** One owner's photos, every status, newest first. */
  listByUser(userId: string): Promise<Photo[]>;
  listForReview(query: ReviewQuery): Promise<{ photos: Photo[]; total: number }>;
  /**
   * Pending photos in the review desk's order: the longest waiting first, waiting since the upload, the owner's
   * resubmission or the hold by reports, whichever is latest. `total` counts the pending photos not excluded.
   */
  reviewQueue(query: { excludeIds: number[]; limit: number }): Promise<{ photos: Photo[]; total: number }>;

  /**
   * Stores a new photo with its event. With `maxPending`, only while its uploader has fewer photos waiting (uploaded or
   * resubmitted, not held by reports): counted under a lock per uploader, so two uploads at once cannot both take the
   * last place; past it nothing is stored and PendingLimitReached is thrown.
   */
  create(photo: NewPhoto, eventOf: EventOf, options?: { maxPending?: number }): Promise<Photo>;
  /** What a member's upload allowance depends on (upload-allowance.ts), counted as of `now`. */
  allowanceFacts(userId: string, now: Date): Promise<AllowanceFacts>;
  allowanceSettings(): Promise<AllowanceSettings>;
  setAllowanceSettings(settings: AllowanceSettings, by: string): Promise<AllowanceSettings>;
  update(id: number, changes: PhotoChanges, eventOf: EventOf, options?: UpdateOptions): Promise<Photo | null>;
  /** Returns the deleted photo, or null when there was none. */
  delete(id: number, eventOf: EventOf): Promise<Photo | null>;

  /** The review marks (review-marks.ts) of those of these photos that have any. */
  reviewMarks(photoIds: number[]): Promise<Map<number, ReviewMarks>>;
  /** The subset of `keys` (at most 1000) that some photo uses as its original, display, medium or thumbnail image. */
  referencedBlobKeys(keys: string[]): Promise<string[]>;
}

type Tx = Prisma.TransactionClient;

const IMAGE_COLUMNS = {
  id: true,
  userId: true,
  status: true,
  imageVersion: true,
  originalKey: true,
  originalEtag: true,
  originalSize: true,
  originalType: true,
  displayKey: true,
  displayEtag: true,
  displaySize: true,
  thumbnailKey: true,
  thumbnailEtag: true,
  thumbnailSize: true,
  mediumKey: true,
  mediumEtag: true,
  mediumSize: true,
} as const;

const WEBP = 'image/webp';

/** The photos in Prisma, with their uploaders' names read beside them. */
export class PrismaPhotoRepository implements PhotoRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
  ) {}

  async findById(id: number): Promise<Photo | null> {
    const row = await this.prisma.photo.findUnique({ where: { id }, ...PHOTO_ROW });
    return row ? (await this.withUploaders([row]))[0]! : null;
  }

  async findByIds(ids: number[]): Promise<Photo[]> {
    const photos = await this.withUploaders(await this.prisma.photo.findMany({ where: { id: { in: ids } }, ...PHOTO_ROW }));
    const byId = new Map(photos.map((photo) => [photo.id, photo]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }

  async findImages(filename: string): Promise<PhotoImages | null> {
    const row = await this.prisma.photo.findUnique({ where: { filename }, select: IMAGE_COLUMNS });
    if (!row) return null;
    const ref = (key: string | null, etag: string | null, size: number | null, contentType: string | null): BlobRef | null =>
      key && etag !== null && size !== null && contentType ? { key, etag, size, contentType } : null;
    return {
      id: row.id,
      userId: row.userId,
      status: row.status,
      imageVersion: row.imageVersion,
      original: ref(row.originalKey, row.originalEtag, row.originalSize, row.originalType),
      display: ref(row.displayKey, row.displayEtag, row.displaySize, WEBP),
      medium: ref(row.mediumKey, row.mediumEtag, row.mediumSize, WEBP),
      thumbnail: ref(row.thumbnailKey, row.thumbnailEtag, row.thumbnailSize, WEBP),
    };
  }

  async listByUser(userId: string): Promise<Photo[]> {
    return this.withUploaders(await this.prisma.photo.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], ...PHOTO_ROW }));
  }

  async listForReview(query: ReviewQuery): Promise<{ photos: Photo[]; total: number }> {
    const where: Prisma.PhotoWhereInput = {
      ...(query.status ? { status: query.status } : {}),
      ...(query.reviewedFrom || query.reviewedBefore ? { reviewedAt: { gte: query.reviewedFrom, lt: query.reviewedBefore } } : {}),
      ...(query.settledBefore ? { OR: [{ resubmittedAt: { not: null } }, { reviewedAt: { lt: query.settledBefore } }] } : {}),
    };
    const orderBy: Prisma.PhotoOrderByWithRelationInput[] =
      query.order === 'oldest'
        ? [{ createdAt: 'asc' }, { id: 'asc' }]
        : query.order === 'newest'
          ? [{ createdAt: 'desc' }, { id: 'desc' }]
          : [{ reviewedAt: 'desc' }, { id: 'desc' }];
    const [rows, total] = await Promise.all([
      this.prisma.photo.findMany({ where, orderBy, skip: query.offset, take: query.limit, ...PHOTO_ROW }),
      this.prisma.photo.count({ where }),
    ]);
    return { photos: await this.withUploaders(rows), total };
  }

  async reviewQueue({ excludeIds, limit }: { excludeIds: number[]; limit: number }): Promise<{ photos: Photo[]; total: number }> {
    // photos_review_queue answers the order (the review_queue migration).
    const [ids, [{ total }]] = await Promise.all([
      this.prisma.$queryRaw<{ id: number }[]>`
        SELECT "id" FROM "photo"."photos" WHERE "status" = 'pending' AND NOT ("id" = ANY(${excludeIds}::int[]))
        ORDER BY COALESCE("held_at", "resubmitted_at", "created_at"), "id" LIMIT ${limit}`,
      this.prisma.$queryRaw<[{ total: number }]>`
        SELECT COUNT(*)::int AS total FROM "photo"."photos" WHERE "status" = 'pending' AND NOT ("id" = ANY(${excludeIds}::int[]))`,
    ]);
    return { photos: await this.findByIds(ids.map((row) => row.id)), total };
  }

  async create(photo: NewPhoto, eventOf: EventOf, { maxPending }: { maxPending?: number } = {}): Promise<Photo> {
    const row = await this.commit(async (tx) => {
      if (maxPending !== undefined) {
        // One uploader's uploads take turns here; other members' do not wait.
        await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('photo-pending:' || ${photo.userId}))`;
        const [{ pending }] = await tx.$queryRaw<[{ pending: number }]>`
          SELECT COUNT(*)::int AS pending FROM "photo"."photos" WHERE "user_id" = ${photo.userId} AND "status" = 'pending' AND "held_at" IS NULL`;
        if (pending >= maxPending) throw new PendingLimitReached(pending);
      }
      // The photo's ratings row comes with it (the photos_ratings trigger).
      return tx.photo.create({ data: photo, ...PHOTO_ROW });
    }, eventOf);
    return (await this.withUploaders([row]))[0]!;
  }

  async allowanceFacts(userId: string, now: Date): Promise<AllowanceFacts> {
    const [facts] = await this.prisma.$queryRaw<[AllowanceFacts]>`
      SELECT COUNT(*) FILTER (WHERE "status" = 'pending' AND "held_at" IS NULL)::int AS pending,
             COUNT(*) FILTER (WHERE "status" = 'approved')::int AS approved,
             COUNT(*) FILTER (WHERE "status" = 'rejected' AND "reviewed_at" >= ${new Date(now.getTime() - ALLOWANCE.cleanRecordDays * DAY_MS)})::int AS "rejectedRecently",
             COUNT(*) FILTER (WHERE "status" = 'rejected' AND "reviewed_at" >= ${new Date(now.getTime() - ALLOWANCE.penaltyDays * DAY_MS)})::int AS "rejectedLately"
      FROM "photo"."photos" WHERE "user_id" = ${userId}`;
    return facts;
  }

  async allowanceSettings(): Promise<AllowanceSettings> {
    const row = await this.prisma.uploadAllowanceSettings.findUnique({ where: { id: 1 } });
    return row ? { pendingLimit: row.pendingLimit, trustedAfter: row.trustedAfter, trustedPendingLimit: row.trustedPendingLimit } : { ...ALLOWANCE.defaults };
  }

  async setAllowanceSettings(settings: AllowanceSettings, by: string): Promise<AllowanceSettings> {
    await this.prisma.uploadAllowanceSettings.upsert({
      where: { id: 1 },
      create: { id: 1, ...settings, updatedBy: by },
      update: { ...settings, updatedBy: by, updatedAt: new Date() },
    });
    return settings;
  }

  async update(id: number, changes: PhotoChanges, eventOf: EventOf, options: UpdateOptions = {}): Promise<Photo | null> {
    const { when = {}, newImages = false } = options;
    const where: Prisma.PhotoWhereUniqueInput = {
      id,
      ...(when.status !== undefined ? { status: when.status } : {}),
      ...(when.imageVersion !== undefined ? { imageVersion: when.imageVersion } : {}),
      ...(when.mediumKey !== undefined ? { mediumKey: when.mediumKey } : {}),
    };
    const data: Prisma.PhotoUpdateInput = { ...changes, version: { increment: 1 }, ...(newImages ? { imageVersion: { increment: 1 } } : {}) };
    const row = await nullIfMissing(this.commit((tx) => tx.photo.update({ where, data, ...PHOTO_ROW }), eventOf));
    return row ? (await this.withUploaders([row]))[0]! : null;
  }

  async delete(id: number, eventOf: EventOf): Promise<Photo | null> {
    const row = await nullIfMissing(
      this.commit(async (tx) => {
        // The photo and then its ratings row locked (the order every writer takes them in), so that the row read next has
        // the totals of a batch of votes that held the ratings row until now. The ratings row goes with the photo (ON
        // DELETE CASCADE); the raters after it: that batch's are committed by now, and a later one finds the photo gone.
        await tx.$queryRaw`SELECT 1 FROM "photo"."photos" p JOIN "photo"."ratings" r ON r."photo_id" = p."id" WHERE p."id" = ${id} FOR UPDATE`;
        const row = await tx.photo.delete({ where: { id }, ...PHOTO_ROW });
        await tx.photoRater.deleteMany({ where: { photoId: id } });
        return row;
      }, eventOf),
    );
    return row ? (await this.withUploaders([row]))[0]! : null;
  }

  async reviewMarks(photoIds: number[]): Promise<Map<number, ReviewMarks>> {
    const marks = new Map<number, ReviewMarks>();
    if (photoIds.length === 0) return marks;
    const mark = (id: number) => marks.get(id) ?? marks.set(id, {}).get(id)!;
    // The closest rejected photo within SIMILAR_MAX_DISTANCE bits. The band conditions are what the
    // rejected_hashes_band* indexes answer (see the review_marks migration): a hash that close agrees on a whole band.
    const similar = await this.prisma.$queryRaw<
      { photo_id: number; rejected_id: number; rejection_reason: string; distance: number; same_uploader: boolean; rejected_at: Date }[]
    >`
      WITH q AS (
        SELECT "id", "user_id", ('x' || "perceptual_hash")::bit(64)::bigint AS h
        FROM "photo"."photos"
        WHERE "id" = ANY(${photoIds}::int[]) AND "perceptual_hash" ~ '^[0-9a-fA-F]{16}$'
      )
      SELECT q."id" AS photo_id, m.* FROM q CROSS JOIN LATERAL (
        SELECT r."photo_id" AS rejected_id, r."rejection_reason", r."rejected_at", r."user_id" = q."user_id" AS same_uploader,
               bit_count((r."dhash" # q.h)::bit(64))::int AS distance
        FROM "photo"."rejected_hashes" r
        WHERE ((r."dhash" & 511) = (q.h & 511)
            OR ((r."dhash" >> 9) & 511) = ((q.h >> 9) & 511)
            OR ((r."dhash" >> 18) & 511) = ((q.h >> 18) & 511)
            OR ((r."dhash" >> 27) & 511) = ((q.h >> 27) & 511)
            OR ((r."dhash" >> 36) & 511) = ((q.h >> 36) & 511)
            OR ((r."dhash" >> 45) & 511) = ((q.h >> 45) & 511)
            OR ((r."dhash" >> 54) & 1023) = ((q.h >> 54) & 1023))
          AND r."photo_id" <> q."id"
          AND bit_count((r."dhash" # q.h)::bit(64)) <= ${SIMILAR_MAX_DISTANCE}
        ORDER BY 5, r."rejected_at" DESC, r."photo_id" DESC
        LIMIT 1
      ) m`;
    for (const row of similar) {
      mark(row.photo_id).similarRejected = {
        photoId: row.rejected_id,
        rejectionReason: row.rejection_reason,
        distance: row.distance,
        sameUploader: row.same_uploader,
        rejectedAt: row.rejected_at,
      };
    }
    // The uploader's oldest earlier photo with the same bytes (photos_user_id_content_sha256_idx); ids only grow.
    const duplicates = await this.prisma.$queryRaw<{ photo_id: number; duplicate_id: number; status: PhotoStatus }[]>`
      SELECT DISTINCT ON (p."id") p."id" AS photo_id, d."id" AS duplicate_id, d."status"::text AS status
      FROM "photo"."photos" p
      JOIN "photo"."photos" d ON d."user_id" = p."user_id" AND d."content_sha256" = p."content_sha256" AND d."id" < p."id"
      WHERE p."id" = ANY(${photoIds}::int[]) AND p."content_sha256" IS NOT NULL
      ORDER BY p."id", d."created_at", d."id"`;
    for (const row of duplicates) mark(row.photo_id).duplicateOf = { photoId: row.duplicate_id, status: row.status };
    return marks;
  }

  async referencedBlobKeys(keys: string[]): Promise<string[]> {
    if (keys.length === 0) return [];
    // One index probe per key and column (photos_{original,display,medium,thumbnail}_key_idx).
    const rows = await this.prisma.$queryRaw<{ key: string }[]>`
      SELECT k AS key FROM unnest(${keys}::text[]) AS k
      WHERE EXISTS (SELECT 1 FROM "photo"."photos" WHERE "original_key" = k)
         OR EXISTS (SELECT 1 FROM "photo"."photos" WHERE "display_key" = k)
         OR EXISTS (SELECT 1 FROM "photo"."photos" WHERE "medium_key" = k)
         OR EXISTS (SELECT 1 FROM "photo"."photos" WHERE "thumbnail_key" = k)`;
    return rows.map((row) => row.key);
  }

  /** Runs one write and records its event in the outbox of the same transaction. */
  private async commit(write: (tx: Tx) => Promise<PhotoRow>, eventOf: EventOf): Promise<PhotoRow> {
    const row = await this.prisma.$transaction(async (tx) => {
      const written = await write(tx);
      await this.outbox.enqueue(tx, eventOf(toPhoto(written, null)));
      return written;
    });
    this.outbox.nudge();
    return row;
  }

  private async withUploaders(rows: PhotoRow[]): Promise<Photo[]> {
    if (rows.length === 0) return [];
    const ids = [...new Set(rows.map((r) => r.userId))];
    const uploaders = new Map((await this.prisma.uploader.findMany({ where: { id: { in: ids } } })).map((u) => [u.id, u]));
    return rows.map((row) => toPhoto(row, uploaders.get(row.userId) ?? null));
  }
}

export function toPhoto(row: PhotoRow, uploader: Uploader | null): Photo {
  const { rating, ...rest } = row;
  return { ...rest, version: Number(row.version), voteCount: rating?.voteCount ?? 0, ratingSum: rating?.ratingSum ?? 0, uploader };
}

/** Prisma's "record to update or delete not found" (P2025): no such photo, or its condition no longer held. */
async function nullIfMissing(write: Promise<PhotoRow>): Promise<PhotoRow | null> {
  try {
    return await write;
  } catch (error) {
    if (prismaErrorCode(error) === 'P2025') return null;
    throw error;
  }
}
