import type { Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { Photo } from './photo.repository.js';

/** The gallery's orders (spec §2 Gallery home). Every one ends in the id, so pages never overlap or skip a photo. */
export type GalleryOrder = 'top_rated' | 'fewest_votes' | 'newest';

export interface GalleryQuery {
  order: GalleryOrder;
  /** Only photos approved at or after this instant (the new-* windows). */
  approvedFrom?: Date | undefined;
  /** Leave out the viewer's own photos and those they have rated (need-your-vote). */
  unratedBy?: string | undefined;
  offset: number;
  limit: number;
}

/** A preview for the landing page. */
export interface PhotoPreview {
  id: number;
  filename: string;
  imageVersion: number;
}

/**
 * The gallery's read path: approved photos in the gallery's orders, and their totals. Reads only, through the pg
 * pool (Prisma costs more per call than these queries do). Nothing here counts rows of the photos table per request:
 * totals come from `approved_per_day` (kept by a trigger), and need-your-vote subtracts the viewer's own photos and
 * ratings, which cost what the viewer has done, not what the community has.
 */
export interface GalleryRepository {
  page(query: GalleryQuery): Promise<Photo[]>;
  /** Approved photos, or those approved since `approvedFrom`. */
  countApproved(approvedFrom?: Date): Promise<number>;
  /** Approved photos that are not the user's own and that they have not rated. */
  countUnratedBy(userId: string): Promise<number>;
  newest(limit: number): Promise<PhotoPreview[]>;
  /**
   * Recomputes the prior's mean from every vote on approved photos and, when it moved by at least `minChange`,
   * stores it and rescores every approved photo in the same transaction. Answers the mean now in force.
   */
  refreshPrior(minChange: number): Promise<{ mean: number; rescored: number }>;
}

type Pool = Database<PrismaClient>['pool'];

const ORDER_BY: Record<GalleryOrder, string> = {
  top_rated: `p."score" DESC, p."vote_count" DESC, p."approved_at" DESC, p."id" DESC`,
  fewest_votes: `p."vote_count" ASC, p."approved_at" DESC, p."id" DESC`,
  newest: `p."approved_at" DESC, p."id" DESC`,
};

// Every column of a photo under its Photo name, with its uploader's names beside it.
const PHOTO_COLUMNS = `
  p."id", p."user_id" AS "userId", p."filename", p."original_name" AS "originalName", p."mime_type" AS "mimeType",
  p."size", p."description", p."status", p."approved_by" AS "approvedBy", p."approved_at" AS "approvedAt",
  p."rejection_reason" AS "rejectionReason", p."privacy_bars" AS "privacyBars", p."drive_file_id" AS "driveFileId",
  p."storage_type" AS "storageType", p."created_at" AS "createdAt", p."updated_at" AS "updatedAt",
  p."original_key" AS "originalKey", p."original_etag" AS "originalEtag", p."original_size" AS "originalSize",
  p."original_type" AS "originalType", p."display_key" AS "displayKey", p."display_etag" AS "displayEtag",
  p."display_size" AS "displaySize", p."thumbnail_key" AS "thumbnailKey", p."thumbnail_etag" AS "thumbnailEtag",
  p."thumbnail_size" AS "thumbnailSize", p."width", p."height", p."image_version" AS "imageVersion",
  p."version"::float8 AS "version", p."content_sha256" AS "contentSha256", p."perceptual_hash" AS "perceptualHash",
  p."reviewed_at" AS "reviewedAt", p."rating_sum" AS "ratingSum", p."vote_count" AS "voteCount", p."score",
  u."id" AS "uploaderId", u."first_name" AS "uploaderFirstName", u."last_name" AS "uploaderLastName",
  u."display_name" AS "uploaderDisplayName", u."profile_image_url" AS "uploaderProfileImageUrl",
  u."custom_profile_image" AS "uploaderCustomProfileImage", u."updated_at" AS "uploaderUpdatedAt"`;

type PhotoRow = Omit<Photo, 'uploader'> & {
  uploaderId: string | null;
  uploaderFirstName: string | null;
  uploaderLastName: string | null;
  uploaderDisplayName: string | null;
  uploaderProfileImageUrl: string | null;
  uploaderCustomProfileImage: string | null;
  uploaderUpdatedAt: Date | null;
};

export class PgGalleryRepository implements GalleryRepository {
  constructor(private readonly pool: Pool) {}

  // The page's ids are found on the order's partial index alone, then only those rows are read and joined: an
  // offset walks index entries, not photos with their uploaders.
  async page(query: GalleryQuery): Promise<Photo[]> {
    const params: unknown[] = [query.limit, query.offset];
    const where = [`p."status" = 'approved'`];
    if (query.approvedFrom) {
      params.push(query.approvedFrom);
      where.push(`p."approved_at" >= $${params.length}`);
    }
    if (query.unratedBy !== undefined) {
      params.push(query.unratedBy);
      const viewer = `$${params.length}`;
      where.push(`p."user_id" <> ${viewer}`);
      where.push(`NOT EXISTS (SELECT 1 FROM "photo"."photo_raters" r WHERE r."user_id" = ${viewer} AND r."photo_id" = p."id")`);
    }
    const order = ORDER_BY[query.order];
    const { rows } = await this.pool.query<PhotoRow>(
      `WITH "page" AS MATERIALIZED (
         SELECT p."id" FROM "photo"."photos" p WHERE ${where.join(' AND ')} ORDER BY ${order} LIMIT $1 OFFSET $2)
       SELECT ${PHOTO_COLUMNS}
       FROM "page" JOIN "photo"."photos" p USING ("id") LEFT JOIN "photo"."uploaders" u ON u."id" = p."user_id"
       ORDER BY ${order}`,
      params,
    );
    return rows.map(toPhoto);
  }

  async countApproved(approvedFrom?: Date): Promise<number> {
    const { rows } = approvedFrom
      ? await this.pool.query<{ total: string }>(
          `SELECT COALESCE(SUM("approved"), 0) AS "total" FROM "photo"."approved_per_day" WHERE "day" >= ($1::timestamptz AT TIME ZONE 'UTC')::date`,
          [approvedFrom],
        )
      : await this.pool.query<{ total: string }>(`SELECT COALESCE(SUM("approved"), 0) AS "total" FROM "photo"."approved_per_day"`);
    return Number(rows[0]!.total);
  }

  async countUnratedBy(userId: string): Promise<number> {
    const { rows } = await this.pool.query<{ total: string }>(
      `SELECT (SELECT COALESCE(SUM("approved"), 0) FROM "photo"."approved_per_day")
            - (SELECT COUNT(*) FROM "photo"."photos" WHERE "user_id" = $1 AND "status" = 'approved')
            - (SELECT COUNT(*) FROM "photo"."photo_raters" r JOIN "photo"."photos" p ON p."id" = r."photo_id"
               WHERE r."user_id" = $1 AND p."status" = 'approved' AND p."user_id" <> $1) AS "total"`,
      [userId],
    );
    return Math.max(0, Number(rows[0]!.total));
  }

  async newest(limit: number): Promise<PhotoPreview[]> {
    const { rows } = await this.pool.query<PhotoPreview>(
      `SELECT p."id", p."filename", p."image_version" AS "imageVersion" FROM "photo"."photos" p
       WHERE p."status" = 'approved' ORDER BY ${ORDER_BY.newest} LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async refreshPrior(minChange: number): Promise<{ mean: number; rescored: number }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One replica at a time; the others find the lock taken and leave the refresh to it.
      const { rows: locked } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('photo.gallery_prior')) AS "locked"`);
      const { rows: prior } = await client.query<{ mean: number; observed: number | null }>(
        `SELECT g."mean", (SELECT SUM("rating_sum")::float8 / NULLIF(SUM("vote_count"), 0) FROM "photo"."photos" WHERE "status" = 'approved') AS "observed"
         FROM "photo"."gallery_prior" g WHERE g."id" = 1`,
      );
      const { mean, observed } = prior[0]!;
      if (!locked[0]!.locked || observed === null || Math.abs(observed - mean) < minChange) {
        await client.query('COMMIT');
        return { mean, rescored: 0 };
      }
      await client.query(`UPDATE "photo"."gallery_prior" SET "mean" = $1, "refreshed_at" = now() WHERE "id" = 1`, [observed]);
      const { rowCount } = await client.query(
        `UPDATE "photo"."photos" p SET "score" = (g."weight" * g."mean" + p."rating_sum") / (g."weight" + p."vote_count")
         FROM "photo"."gallery_prior" g WHERE g."id" = 1 AND p."status" = 'approved'`,
      );
      await client.query('COMMIT');
      return { mean: observed, rescored: rowCount ?? 0 };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }
}

function toPhoto(row: PhotoRow): Photo {
  const {
    uploaderId,
    uploaderFirstName,
    uploaderLastName,
    uploaderDisplayName,
    uploaderProfileImageUrl,
    uploaderCustomProfileImage,
    uploaderUpdatedAt,
    ...photo
  } = row;
  const uploader =
    uploaderId !== null && uploaderUpdatedAt !== null
      ? {
          id: uploaderId,
          firstName: uploaderFirstName,
          lastName: uploaderLastName,
          displayName: uploaderDisplayName,
          profileImageUrl: uploaderProfileImageUrl,
          customProfileImage: uploaderCustomProfileImage,
          updatedAt: uploaderUpdatedAt,
        }
      : null;
  return { ...photo, uploader };
}
