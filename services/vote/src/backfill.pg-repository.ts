import { keysetPages, type Database } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { Totals } from './vote.repository.js';

/** A photo's totals as vote.vote.cast reports them, and its votes counted per rating (1 star first). */
export interface BackfillPhotoVotes extends Totals {
  photoId: number;
  votesByRating: [number, number, number, number, number];
}

type Pool = Database<PrismaClient>['pool'];

interface BackfillRow {
  photo_id: string;
  vote_count: number;
  rating_sum: string;
  version: string;
  stars: number[];
}

// Keyset pagination on the totals' primary key, and each page's votes through the (photo_id, user_id) index. One
// statement reads one snapshot, and a vote commits with its totals, so the counts per rating always add up to the totals
// of the version sent with them. Only counting votes (neither voided nor suspended) are in either.
const PAGE_SQL = `
  WITH page AS (
    SELECT "photo_id", "vote_count", "rating_sum", "version" FROM "vote"."photo_ratings"
    WHERE "photo_id" > $1::bigint ORDER BY "photo_id" LIMIT $2::int
  )
  SELECT p."photo_id"::text AS "photo_id", p."vote_count", p."rating_sum"::text AS "rating_sum", p."version"::text AS "version",
         ARRAY[count(*) FILTER (WHERE v."rating" = 1), count(*) FILTER (WHERE v."rating" = 2), count(*) FILTER (WHERE v."rating" = 3),
               count(*) FILTER (WHERE v."rating" = 4), count(*) FILTER (WHERE v."rating" = 5)]::int[] AS "stars"
  FROM page p LEFT JOIN "vote"."photo_votes" v ON v."photo_id" = p."photo_id" AND v."voided_at" IS NULL AND NOT v."suspended"
  GROUP BY p."photo_id", p."vote_count", p."rating_sum", p."version"
  ORDER BY p."photo_id"`;

/**
 * Every photo's votes for a read model rebuilt elsewhere (the stats service's), read a page at a time on the pool, the
 * next page only when the previous one has been taken. A photo without totals (nobody voted on it, or deleted) is not
 * sent.
 */
export class PgVoteBackfill {
  constructor(
    private readonly pool: Pool,
    private readonly pageSize = 500,
  ) {}

  async *pages(): AsyncIterable<BackfillPhotoVotes[]> {
    const readPage = async (after = 0) =>
      (await this.pool.query<BackfillRow>({ name: 'vote_backfill_page', text: PAGE_SQL, values: [after, this.pageSize] })).rows;
    for await (const rows of keysetPages(readPage, (row) => Number(row.photo_id), this.pageSize)) yield rows.map(toBackfillVotes);
  }
}

const toBackfillVotes = (r: BackfillRow): BackfillPhotoVotes => ({
  photoId: Number(r.photo_id),
  voteCount: r.vote_count,
  ratingSum: Number(r.rating_sum),
  version: Number(r.version),
  votesByRating: [r.stars[0] ?? 0, r.stars[1] ?? 0, r.stars[2] ?? 0, r.stars[3] ?? 0, r.stars[4] ?? 0],
});
