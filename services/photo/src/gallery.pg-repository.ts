import { GALLERY } from '@snapcracks/http-contract';
import type { Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { Photo } from './photo.repository.js';

/** What a gallery card and its dialog show of a photo: no storage keys, hashes or versions. */
export type GalleryPhoto = Pick<
  Photo,
  | 'id'
  | 'userId'
  | 'filename'
  | 'originalName'
  | 'mimeType'
  | 'size'
  | 'description'
  | 'altText'
  | 'status'
  | 'approvedBy'
  | 'approvedAt'
  | 'rejectionReason'
  | 'privacyBars'
  | 'driveFileId'
  | 'storageType'
  | 'createdAt'
  | 'updatedAt'
  | 'ratingSum'
  | 'voteCount'
  | 'imageVersion'
  | 'width'
  | 'height'
  | 'uploader'
>;

/** One page of a gallery order and how many photos the whole order holds. */
export interface GalleryPageRows {
  photos: GalleryPhoto[];
  total: number;
}

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
  description: string | null;
  altText: string | null;
}

/**
 * The gallery's read path: approved photos in the gallery's orders, and their totals. Reads only, through the pg
 * pool (Prisma costs more per call than these queries do). No total counts photos per request: totals come from
 * `approved_per_day`, and need-your-vote subtracts the viewer's row of `member_gallery_counts` (both tables kept by
 * triggers). The orders by rating read the narrow
 * `ratings` rows (where votes land), the newest-first order the photos themselves.
 */
export interface GalleryRepository {
  /**
   * The page and the order's total: approved photos (since `approvedFrom` for the new-* windows), less the viewer's
   * own and rated ones for need-your-vote.
   */
  page(query: GalleryQuery): Promise<GalleryPageRows>;
  newest(limit: number): Promise<PhotoPreview[]>;
  /** The cards of the approved photos among `ids`, in the order of `ids`; ids not found or not approved are left out. */
  cards(ids: number[]): Promise<GalleryPhoto[]>;
  /**
   * Recomputes the prior's mean from every vote on approved photos and, when it moved by at least `minChange`,
   * stores it and rescores every approved photo's ratings row in the same transaction. Answers the mean now in force.
   */
  refreshPrior(minChange: number): Promise<{ mean: number; rescored: number }>;
}

type Pool = Database<PrismaClient>['pool'];

/**
 * Where a page's ids are read: the ratings rows (`r`) for the orders by rating, the photos (`p`) for the newest, each
 * through its partial index over approved photos (the migrations' ratings_gallery_* and photos_gallery_newest; the
 * conditions and orders must stay exactly as those indexes say).
 */
interface OrderSource {
  from: string;
  id: string;
  approved: string;
  approvedAt: string;
  /** Leaves out the photos of `viewer`. */
  notOwnedBy: (viewer: string) => string;
}

const RATINGS: OrderSource = {
  from: `"photo"."ratings" r`,
  id: `r."photo_id"`,
  approved: `r."approved_at" IS NOT NULL`,
  approvedAt: `r."approved_at"`,
  // The viewer's own photos, found by their owner (a few rows), not a photo per index entry.
  notOwnedBy: (viewer) => `NOT EXISTS (SELECT 1 FROM "photo"."photos" o WHERE o."user_id" = ${viewer} AND o."id" = r."photo_id")`,
};
const PHOTOS: OrderSource = {
  from: `"photo"."photos" p`,
  id: `p."id"`,
  approved: `p."status" = 'approved'`,
  approvedAt: `p."approved_at"`,
  notOwnedBy: (viewer) => `p."user_id" <> ${viewer}`,
};

const ORDERS: Record<GalleryOrder, { source: OrderSource; by: string }> = {
  top_rated: { source: RATINGS, by: `r."score" DESC, r."vote_count" DESC, r."approved_at" DESC, r."photo_id" DESC` },
  fewest_votes: { source: RATINGS, by: `r."vote_count" ASC, r."approved_at" DESC, r."photo_id" DESC` },
  newest: { source: PHOTOS, by: `p."approved_at" DESC, p."id" DESC` },
};

// The card's columns under their Photo names, with the uploader's names beside them.
const CARD_COLUMNS = `
  p."id", p."user_id" AS "userId", p."filename", p."original_name" AS "originalName", p."mime_type" AS "mimeType",
  p."size", p."description", p."alt_text" AS "altText", p."status", p."approved_by" AS "approvedBy", p."approved_at" AS "approvedAt",
  p."rejection_reason" AS "rejectionReason", p."privacy_bars" AS "privacyBars", p."drive_file_id" AS "driveFileId",
  p."storage_type" AS "storageType", p."created_at" AS "createdAt", p."updated_at" AS "updatedAt",
  r."rating_sum" AS "ratingSum", r."vote_count" AS "voteCount", p."image_version" AS "imageVersion", p."width", p."height",
  u."id" AS "uploaderId", u."first_name" AS "uploaderFirstName", u."last_name" AS "uploaderLastName",
  u."display_name" AS "uploaderDisplayName", u."profile_image_url" AS "uploaderProfileImageUrl",
  u."custom_profile_image" AS "uploaderCustomProfileImage", u."updated_at" AS "uploaderUpdatedAt"`;

// The order's total, from the per-day approval counts; need-your-vote subtracts what the viewer uploaded or rated.
const TOTAL_APPROVED = `SELECT COALESCE(SUM("approved"), 0) FROM "photo"."approved_per_day"`;
const TOTAL_APPROVED_FROM = (from: string) => `${TOTAL_APPROVED} WHERE "day" >= (${from}::timestamptz AT TIME ZONE 'UTC')::date`;
// need-your-vote: every approved photo less the member's own and those of others they rated, from the member's row of
// member_gallery_counts (kept by triggers): `rated` counts all their ratings, `unlisted` those of photos not approved
// or their own, which the approved total never held.
const TOTAL_UNRATED_BY = (viewer: string) => `SELECT GREATEST(0, (${TOTAL_APPROVED})
  - COALESCE((SELECT "owned" + "rated" - "unlisted" FROM "photo"."member_gallery_counts" WHERE "user_id" = ${viewer}), 0))`;

type CardRow = { id: number | null } & Omit<GalleryPhoto, 'uploader' | 'id'> & {
  uploaderId: string | null;
  uploaderFirstName: string | null;
  uploaderLastName: string | null;
  uploaderDisplayName: string | null;
  uploaderProfileImageUrl: string | null;
  uploaderCustomProfileImage: string | null;
  uploaderUpdatedAt: Date | null;
};
/** A page's row: a card (or none, on an empty page) with the order's total. */
type PageRow = CardRow & { total: string };

// The cards of the ids asked, in their order: a probe of the photos' primary key per id (an id too large for one, or
// repeated, simply finds no row or the same one again).
const CARDS_SQL = `
  SELECT ${CARD_COLUMNS}
  FROM unnest($1::bigint[]) WITH ORDINALITY AS "asked"("id", "position")
  JOIN "photo"."photos" p ON p."id" = "asked"."id"
  JOIN "photo"."ratings" r ON r."photo_id" = p."id"
  LEFT JOIN "photo"."uploaders" u ON u."id" = p."user_id"
  WHERE p."status" = 'approved'
  ORDER BY "asked"."position"`;

export class PgGalleryRepository implements GalleryRepository {
  constructor(private readonly pool: Pool) {}

  // The page's ids are found on the order's partial index alone, then only those rows are read and joined: an
  // offset walks index entries, not photos with their uploaders. The total rides along in the same statement (one
  // round trip per page); the left join keeps it when the page is empty. Each shape is a named statement, prepared
  // once per connection.
  async page(query: GalleryQuery): Promise<GalleryPageRows> {
    const { source, by } = ORDERS[query.order];
    const params: unknown[] = [];
    const param = (value: unknown) => `$${params.push(value)}`;
    const where = [source.approved];
    let total = TOTAL_APPROVED;
    if (query.approvedFrom) {
      const from = param(query.approvedFrom);
      where.push(`${source.approvedAt} >= ${from}`);
      total = TOTAL_APPROVED_FROM(from);
    }
    if (query.unratedBy !== undefined) {
      const viewer = `${param(query.unratedBy)}::text`;
      where.push(source.notOwnedBy(viewer));
      // OFFSET 0 keeps this a probe of the raters' key per photo the index walk meets. As an anti join, the planner
      // assumes a member rated a handful of photos and scans the member's whole list for every photo: 20 ms instead of
      // 0.5 for a page of a member with 5,000 ratings.
      where.push(`NOT EXISTS (SELECT 1 FROM "photo"."photo_raters" x WHERE x."user_id" = ${viewer} AND x."photo_id" = ${source.id} OFFSET 0)`);
      total = TOTAL_UNRATED_BY(viewer);
    }
    // The first page in the web app's size, which nearly every request asks for, has its window written into the
    // statement, so that PostgreSQL keeps one plan for it. With a LIMIT and OFFSET as parameters the plan it could keep
    // assumes a tenth of the order is wanted and hashes whole tables, so it plans the statement again on every call:
    // 0.8 ms of the 1.1 ms the database spent on a page.
    const firstPage = query.offset === 0 && query.limit === GALLERY.pageSize;
    const window = firstPage ? `LIMIT ${GALLERY.pageSize}` : `LIMIT ${param(query.limit)} OFFSET ${param(query.offset)}`;
    const { rows } = await this.pool.query<PageRow>({
      name: `gallery-page:${query.order}:${query.approvedFrom ? 'from' : 'all'}:${query.unratedBy === undefined ? 'everyone' : 'unrated'}:${firstPage ? 'first' : 'any'}`,
      text: `WITH "page" AS MATERIALIZED (
         SELECT ${source.id} AS "id" FROM ${source.from} WHERE ${where.join(' AND ')} ORDER BY ${by} ${window})
       SELECT (${total}) AS "total", ${CARD_COLUMNS}
       FROM (SELECT 1) AS "one"
       LEFT JOIN ("page" JOIN "photo"."photos" p USING ("id") JOIN "photo"."ratings" r ON r."photo_id" = p."id"
                  LEFT JOIN "photo"."uploaders" u ON u."id" = p."user_id") ON true
       ORDER BY ${by}`,
      values: params,
    });
    return { total: Number(rows[0]?.total ?? 0), photos: rows.filter((row) => row.id !== null).map(toGalleryPhoto) };
  }

  async newest(limit: number): Promise<PhotoPreview[]> {
    const { rows } = await this.pool.query<PhotoPreview>(
      `SELECT p."id", p."filename", p."image_version" AS "imageVersion", p."description", p."alt_text" AS "altText" FROM "photo"."photos" p
       WHERE p."status" = 'approved' ORDER BY ${ORDERS.newest.by} LIMIT $1`,
      [limit],
    );
    return rows;
  }

  async cards(ids: number[]): Promise<GalleryPhoto[]> {
    if (ids.length === 0) return [];
    const { rows } = await this.pool.query<CardRow>({ name: 'gallery-cards', text: CARDS_SQL, values: [ids] });
    return rows.map(toGalleryPhoto);
  }

  async refreshPrior(minChange: number): Promise<{ mean: number; rescored: number }> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One replica at a time; the others find the lock taken and leave the refresh to it.
      const { rows: locked } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(hashtext('photo.gallery_prior')) AS "locked"`);
      const { rows: prior } = await client.query<{ mean: number; observed: number | null }>(
        `SELECT g."mean", (SELECT SUM("rating_sum")::float8 / NULLIF(SUM("vote_count"), 0) FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL) AS "observed"
         FROM "photo"."gallery_prior" g WHERE g."id" = 1`,
      );
      const { mean, observed } = prior[0]!;
      if (!locked[0]!.locked || observed === null || Math.abs(observed - mean) < minChange) {
        await client.query('COMMIT');
        return { mean, rescored: 0 };
      }
      await client.query(`UPDATE "photo"."gallery_prior" SET "mean" = $1, "refreshed_at" = now() WHERE "id" = 1`, [observed]);
      // The rows in id order first, as batches of the ratings consumer take them: an UPDATE over all of them takes them
      // in whatever order it reads them, and would deadlock with a batch that holds one and waits for another.
      await client.query(
        `SELECT COUNT(*) FROM (SELECT FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL ORDER BY "photo_id" FOR NO KEY UPDATE) AS "locked"`,
      );
      const { rowCount } = await client.query(
        `UPDATE "photo"."ratings" r SET "score" = "photo"."photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean")
         FROM "photo"."gallery_prior" g WHERE g."id" = 1 AND r."approved_at" IS NOT NULL`,
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

function toGalleryPhoto(row: CardRow & { total?: string }): GalleryPhoto {
  const {
    total: _total,
    id,
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
  return { ...photo, id: id!, uploader };
}
