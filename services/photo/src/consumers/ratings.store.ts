import type { BatchStatement, SqlClient } from '@snapcracks/kit';

/** A photo's rating totals as the vote service last reported them (vote.vote.cast), with their version. */
export interface PhotoRatingTotals {
  photoId: number;
  voteCount: number;
  ratingSum: number;
  version: number;
}

/** What a batch of vote events changes: each photo's newest totals (one per photo), and who rated which photo. */
export interface RatingChanges {
  totals: PhotoRatingTotals[];
  raters: { userId: string; photoId: number }[];
}

/**
 * The photos' rating totals (the narrow `ratings` rows, never the photos' own), written by the consumer of the vote
 * events, a batch of events in one statement; the score follows the totals in the same statement.
 */
export interface RatingStore {
  /**
   * Sets each photo's totals unless the stored ones are as new or newer (by version), and records each rater of a
   * photo still approved (repeats change nothing); nothing for a photo that is gone.
   */
  apply(changes: RatingChanges): Promise<void>;
}

// One statement for the whole batch, idempotent as a whole, so it needs no transaction and no record of the events:
//
// - locked: the photos' ratings rows, in id order, before anything is written (the initplan in `totals` makes it run
//   first), so that replicas' batches running at once never wait in a circle; a photo being deleted then either goes
//   after the batch (its cascade takes the raters with it) or before (the lock finds no row, and nothing is written).
//   NO KEY: the strength the totals' UPDATE takes.
// - totals: order-safe, as the vote service's events carry absolute totals with a version; an older or repeated one
//   changes nothing. Only the photo's narrow ratings row changes: the photos row, its version and updated_at are left
//   alone (ratings are not an edit of the photo). The score follows the totals (photo_score, the prior read once).
// - raters: only of photos still approved, as their locked rows say (not the statement's snapshot, which a deletion
//   that committed while the lock waited would still show): a vote event after its photo was deleted leaves no rater,
//   and every rater is of a listed photo, which need-your-vote's total counts on (member_gallery_counts). No foreign
//   key: its check would cost a lock per rater, and a late event would then fail instead of changing nothing. In key
//   order, so that batches inserting the same pairs at once take the index's locks in one order.
const APPLY_RATINGS_SQL = `
  WITH locked AS (
    SELECT "photo_id", "approved_at" FROM "photo"."ratings" WHERE "photo_id" = ANY($1::int[]) ORDER BY "photo_id" FOR NO KEY UPDATE
  ), totals AS (
    UPDATE "photo"."ratings" r SET "vote_count" = t."vote_count", "rating_sum" = t."rating_sum", "rating_version" = t."version",
           "score" = "photo"."photo_score"(t."vote_count", t."rating_sum", g."weight", g."mean")
    FROM unnest($2::int[], $3::int[], $4::int[], $5::bigint[]) AS t("photo_id", "vote_count", "rating_sum", "version"), "photo"."gallery_prior" g
    WHERE (SELECT count(*) FROM locked) >= 0 AND g."id" = 1 AND r."photo_id" = t."photo_id" AND r."rating_version" < t."version"
    RETURNING r."photo_id"
  ), raters AS (
    INSERT INTO "photo"."photo_raters" ("user_id", "photo_id")
    SELECT r."user_id", r."photo_id" FROM unnest($6::text[], $7::int[]) AS r("user_id", "photo_id")
    JOIN locked x ON x."photo_id" = r."photo_id" AND x."approved_at" IS NOT NULL
    ORDER BY 1, 2 ON CONFLICT DO NOTHING
    RETURNING "photo_id"
  )
  SELECT (SELECT count(*) FROM totals) AS "totals", (SELECT count(*) FROM raters) AS "raters"`;

/** The one statement that applies a batch's changes; null when there are none. */
export function ratingsStatement({ totals, raters }: RatingChanges): BatchStatement | null {
  if (totals.length === 0 && raters.length === 0) return null;
  const photoIds = [...new Set([...totals.map((t) => t.photoId), ...raters.map((r) => r.photoId)])].sort((a, b) => a - b);
  const column = <K extends keyof PhotoRatingTotals>(key: K) => totals.map((t) => t[key]);
  return {
    text: APPLY_RATINGS_SQL,
    values: [photoIds, column('photoId'), column('voteCount'), column('ratingSum'), column('version'), raters.map((r) => r.userId), raters.map((r) => r.photoId)],
  };
}

/** The ratings store on raw SQL only: any transaction's client, the pool's, or in tests the client itself. */
export class SqlRatingStore implements RatingStore {
  constructor(private readonly db: SqlClient) {}

  async apply(changes: RatingChanges): Promise<void> {
    const statement = ratingsStatement(changes);
    if (statement) await this.db.$queryRawUnsafe(statement.text, ...statement.values);
  }
}
