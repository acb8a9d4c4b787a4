-- Written by hand: Prisma's schema cannot say a function. No table changes, so the previous release's pods, which
-- compute the same expression in their own statements, keep running beside this one.

-- The top-rated score, (C·m + sum) / (C + n) with the prior's weight C and mean m, written once: the triggers below,
-- the ratings consumer's statement, the prior's refresh and the seed all call it, each reading the prior once per
-- statement. A bare expression of its arguments (IMMUTABLE, no SET clause), so PostgreSQL inlines it into every
-- statement instead of calling it per row. The totals are bigint so that integer and bigint columns both fit.
CREATE FUNCTION "photo_score"("vote_count" BIGINT, "rating_sum" BIGINT, "prior_weight" DOUBLE PRECISION, "prior_mean" DOUBLE PRECISION)
  RETURNS DOUBLE PRECISION LANGUAGE sql IMMUTABLE PARALLEL SAFE
  RETURN ("prior_weight" * "prior_mean" + "rating_sum") / ("prior_weight" + "vote_count");

-- The photo_ratings migration's two triggers as they were, the score now photo_score's.
CREATE OR REPLACE FUNCTION "photo_ratings_follow_photo"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  listed TIMESTAMPTZ(3) := CASE WHEN NEW."status" = 'approved' THEN NEW."approved_at" END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "ratings" ("photo_id", "approved_at", "score")
    VALUES (NEW."id", listed, COALESCE((SELECT "photo_score"(0, 0, g."weight", g."mean") FROM "gallery_prior" g WHERE g."id" = 1), 0));
  ELSE
    UPDATE "ratings" r SET "approved_at" = listed,
           "score" = COALESCE((SELECT "photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean") FROM "gallery_prior" g WHERE g."id" = 1), r."score")
    WHERE r."photo_id" = NEW."id" AND r."approved_at" IS DISTINCT FROM listed;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "photo_ratings_from_previous_release"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM "ratings" r
  JOIN "written_photos" n ON n."id" = r."photo_id" JOIN "replaced_photos" o ON o."id" = n."id"
  WHERE n."rating_version" > r."rating_version" OR n."score" IS DISTINCT FROM o."score"
  ORDER BY r."photo_id" FOR NO KEY UPDATE OF r;
  UPDATE "ratings" r SET "vote_count" = n."vote_count", "rating_sum" = n."rating_sum", "rating_version" = n."rating_version",
         "score" = "photo_score"(n."vote_count", n."rating_sum", g."weight", g."mean")
  FROM "written_photos" n, "gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = n."id" AND n."rating_version" > r."rating_version";
  UPDATE "ratings" r SET "score" = "photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean")
  FROM "written_photos" n JOIN "replaced_photos" o ON o."id" = n."id", "gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = n."id" AND n."score" IS DISTINCT FROM o."score";
  RETURN NULL;
END $$;
