-- Written by hand: Prisma's schema cannot say a function. No table changes, so the previous release's pods keep
-- running beside this one.

-- What one stats.photos row counts for: in the community's figures (community_counters) and, with its owner, in
-- owners (approved_photos, votes_received, rating_sum_received). Only a photo of known status that is not deleted
-- counts; its votes only while it is approved; "rated four or higher" is an approved photo with votes averaging 4 or
-- more (sum ≥ 4 × count, exact in integers). Written once, for every statement that moves or derives the figures:
-- the consumers' (as the difference of a row before and after), the rebuild's, the count from the rows and the seed's.
-- A single SELECT of its arguments (IMMUTABLE, not STRICT, no SET clause), so PostgreSQL inlines it into each
-- statement that calls it in FROM, instead of calling it per row.
CREATE FUNCTION "photo_figures"("status" "PhotoStatus", "deleted" BOOLEAN, "vote_count" INTEGER, "rating_sum" BIGINT)
  RETURNS TABLE ("photos" INTEGER, "pending_photos" INTEGER, "approved_photos" INTEGER, "votes_on_approved" INTEGER,
                 "rating_sum_on_approved" BIGINT, "rated_four_or_higher" INTEGER)
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
BEGIN ATOMIC
  SELECT c."counted"::int, (c."counted" AND "status" = 'pending')::int, c."approved"::int,
         CASE WHEN c."approved" THEN "vote_count" ELSE 0 END,
         CASE WHEN c."approved" THEN "rating_sum" ELSE 0 END,
         (c."approved" AND "vote_count" > 0 AND "rating_sum" >= 4 * "vote_count")::int
  FROM (SELECT COALESCE("status" IS NOT NULL AND NOT "deleted", false) AS "counted",
               COALESCE("status" = 'approved' AND NOT "deleted", false) AS "approved") c;
END;
