-- AlterTable
ALTER TABLE "owners" ADD COLUMN     "rating_sum_received" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "votes_received" INTEGER NOT NULL DEFAULT 0;


-- Written by hand: the owners' vote totals of the photos already projected (approved, not deleted).
INSERT INTO "owners" AS o ("owner_id", "votes_received", "rating_sum_received")
SELECT "owner_id", sum("vote_count")::int, sum("rating_sum")
FROM "photos"
WHERE "status" = 'approved' AND NOT "deleted" AND "owner_id" IS NOT NULL
GROUP BY "owner_id"
ON CONFLICT ("owner_id") DO UPDATE SET "votes_received" = EXCLUDED."votes_received", "rating_sum_received" = EXCLUDED."rating_sum_received";

-- Written by hand (Prisma describes neither generated columns nor partial indexes): what a member's rankings count.
-- Ranks are counts of the active members ahead (approved photos, account not deleted), each an index-only range scan
-- of a partial index instead of a pass over every owner. The average is a generated column so that it can be indexed
-- and compared as one number: IEEE division is correctly rounded, so equal fractions (8/2, 12/3) give equal averages.
ALTER TABLE "owners" ADD COLUMN "average_received" DOUBLE PRECISION
  GENERATED ALWAYS AS (CASE WHEN "votes_received" > 0 THEN "rating_sum_received"::float8 / "votes_received" END) STORED;
CREATE INDEX "owners_active_approved_idx" ON "owners" ("approved_photos") WHERE "approved_photos" > 0 AND NOT "deleted";
-- The rating rank counts members with at least 3 votes received (spec §9; MIN_VOTES_FOR_RATING_RANK in stats.service.ts).
CREATE INDEX "owners_rated_average_idx" ON "owners" ("average_received") WHERE "votes_received" >= 3 AND "approved_photos" > 0 AND NOT "deleted";
