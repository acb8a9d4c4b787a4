import type { SqlClient } from '@snapcracks/kit';

/** A photo's rating totals as the vote service last reported them (vote.vote.cast), with their version. */
export interface PhotoRatingTotals {
  photoId: number;
  voteCount: number;
  ratingSum: number;
  version: number;
}

/**
 * The photos' rating totals (the narrow `ratings` rows, never the photos' own), written by the consumer of the vote
 * events, a batch of events per transaction; the score follows the totals in the same statement.
 */
export interface RatingStore {
  /**
   * Locks the photos' ratings rows in id order until the transaction ends, so that batches running at once never wait
   * in a circle, and a photo being deleted either goes after the batch (taking its raters with it) or before.
   */
  lockRatings(photoIds: number[]): Promise<void>;
  /** Sets each photo's totals (one set per photo) unless the stored ones are as new or newer (by version), or the photo is gone. */
  setManyIfNewer(totals: PhotoRatingTotals[]): Promise<void>;
  /** Records that each user has rated the photo (repeats change nothing; nothing for a photo that is gone or no longer approved). */
  addRaters(raters: { userId: string; photoId: number }[]): Promise<void>;
}

// Order-safe: the vote service's events carry absolute totals with a version; an older or repeated one changes
// nothing. Only the photo's narrow ratings row changes: the photos row, its version and updated_at are left alone
// (ratings are not an edit of the photo). The score follows the totals in the same statement (photo_score, the prior read
// once per statement).
const SET_MANY_RATINGS_IF_NEWER_SQL = `
  UPDATE "photo"."ratings" r SET "vote_count" = t."vote_count", "rating_sum" = t."rating_sum", "rating_version" = t."version",
         "score" = "photo"."photo_score"(t."vote_count", t."rating_sum", g."weight", g."mean")
  FROM unnest($1::int[], $2::int[], $3::int[], $4::bigint[]) AS t("photo_id", "vote_count", "rating_sum", "version"), "photo"."gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = t."photo_id" AND r."rating_version" < t."version"`;
// Raters only of photos that are still approved (their ratings row, which the batch has locked, says so): a vote event
// that arrives after its photo was deleted leaves no rater behind, and every rater is of a listed photo, which
// need-your-vote's total counts on (member_gallery_counts). No foreign key: its check would cost a lock per rater, and
// a late event would then fail instead of changing nothing. In key order, so that batches inserting the same pairs at
// once take the index's locks in one order.
const ADD_RATERS_SQL = `
  INSERT INTO "photo"."photo_raters" ("user_id", "photo_id")
  SELECT r."user_id", r."photo_id" FROM unnest($1::text[], $2::int[]) AS r("user_id", "photo_id")
  WHERE EXISTS (SELECT 1 FROM "photo"."ratings" x WHERE x."photo_id" = r."photo_id" AND x."approved_at" IS NOT NULL)
  ORDER BY 1, 2 ON CONFLICT DO NOTHING`;
// NO KEY: the strength the totals' UPDATE takes. Deleting the photo needs the row too (the cascade), so it waits for the
// batch, or the batch finds the row gone.
const LOCK_RATINGS_SQL = `SELECT "photo_id" FROM "photo"."ratings" WHERE "photo_id" = ANY($1::int[]) ORDER BY "photo_id" FOR NO KEY UPDATE`;

/**
 * The ratings store on raw SQL only, so that a Prisma transaction and the pool's (consumeBatches) both will do, or, in
 * tests, the client itself.
 */
export class SqlRatingStore implements RatingStore {
  constructor(private readonly db: SqlClient) {}

  async lockRatings(photoIds: number[]): Promise<void> {
    if (photoIds.length === 0) return;
    await this.db.$queryRawUnsafe(LOCK_RATINGS_SQL, [...new Set(photoIds)].sort((a, b) => a - b));
  }

  async setManyIfNewer(totals: PhotoRatingTotals[]): Promise<void> {
    if (totals.length === 0) return;
    const column = <K extends keyof PhotoRatingTotals>(key: K) => totals.map((t) => t[key]);
    await this.db.$executeRawUnsafe(SET_MANY_RATINGS_IF_NEWER_SQL, column('photoId'), column('voteCount'), column('ratingSum'), column('version'));
  }

  async addRaters(raters: { userId: string; photoId: number }[]): Promise<void> {
    if (raters.length === 0) return;
    await this.db.$executeRawUnsafe(ADD_RATERS_SQL, raters.map((r) => r.userId), raters.map((r) => r.photoId));
  }
}
