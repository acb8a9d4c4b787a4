import { keysetPages, type Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { PhotoStatus } from './photo.repository.js';

/**
 * A photo's place in need-your-vote's order, for the gateway's copy of it: its state as its events carry it (with the
 * photos row's version) and its rating totals as vote.vote.cast carries them (with their version).
 */
export interface FeedPhoto {
  id: number;
  userId: string;
  status: PhotoStatus;
  approvedAt: Date | null;
  version: number;
  voteCount: number;
  ratingSum: number;
  ratingVersion: number;
}

type Pool = Database<PrismaClient>['pool'];

interface FeedRow {
  id: string;
  user_id: string;
  status: PhotoStatus;
  approved_at: Date | null;
  version: string;
  vote_count: number;
  rating_sum: number;
  rating_version: string;
}

// Keyset pagination on the photos' primary key, each photo's narrow ratings row beside it (a trigger makes one with
// every photo; the left join keeps the photo in the stream even so, with no votes).
const PAGE_SQL = `
  SELECT p."id"::text AS "id", p."user_id", p."status"::text AS "status", p."approved_at", p."version"::text AS "version",
         COALESCE(r."vote_count", 0) AS "vote_count", COALESCE(r."rating_sum", 0) AS "rating_sum",
         COALESCE(r."rating_version", 0)::text AS "rating_version"
  FROM "photo"."photos" p LEFT JOIN "photo"."ratings" r ON r."photo_id" = p."id"
  WHERE p."id" > $1::bigint ORDER BY p."id" LIMIT $2::int`;

// Every photo the member has rated: an index-only range scan of the raters' primary key (user_id, photo_id).
const RATED_BY_SQL = `SELECT "photo_id" FROM "photo"."photo_raters" WHERE "user_id" = $1::text`;

/**
 * What the gateway's personal feed reads of the photos, on the pool: every photo's place in need-your-vote's order, a
 * page at a time (as PgPhotoBackfill reads the photos: a page only once the previous one has been taken, each page its
 * own snapshot, a change meanwhile followed by its event as usual), and the photos a member has rated.
 */
export class PgPhotoFeed {
  constructor(
    private readonly pool: Pool,
    private readonly pageSize = 500,
  ) {}

  async *entryPages(): AsyncIterable<FeedPhoto[]> {
    const readPage = async (after = 0) =>
      (await this.pool.query<FeedRow>({ name: 'photo_feed_entries_page', text: PAGE_SQL, values: [after, this.pageSize] })).rows;
    for await (const rows of keysetPages(readPage, (row) => Number(row.id), this.pageSize)) yield rows.map(toFeedPhoto);
  }

  /** The ids of every photo `userId` has rated, in no particular order. */
  async ratedBy(userId: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ photo_id: number }>({ name: 'photo_rated_by', text: RATED_BY_SQL, values: [userId] });
    return rows.map((row) => row.photo_id);
  }
}

const toFeedPhoto = (r: FeedRow): FeedPhoto => ({
  id: Number(r.id),
  userId: r.user_id,
  status: r.status,
  approvedAt: r.approved_at,
  version: Number(r.version),
  voteCount: r.vote_count,
  ratingSum: r.rating_sum,
  ratingVersion: Number(r.rating_version),
});
