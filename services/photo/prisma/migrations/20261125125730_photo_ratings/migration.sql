-- Nothing may write photos between the copy below and the triggers that keep the copy in step, and the old gallery
-- indexes and trigger are dropped at the end (which needs this lock mode): taking the strongest lock first means the
-- migration never upgrades its lock while a running pod holds a row of photos and waits for it (a deadlock that
-- could abort the migration). Readers wait until the commit: about a second per 100,000 photos on two cores.
LOCK TABLE "photos" IN ACCESS EXCLUSIVE MODE;

-- CreateTable
CREATE TABLE "ratings" (
    "photo_id" INTEGER NOT NULL,
    "vote_count" INTEGER NOT NULL DEFAULT 0,
    "rating_sum" INTEGER NOT NULL DEFAULT 0,
    "rating_version" BIGINT NOT NULL DEFAULT 0,
    "score" DOUBLE PRECISION NOT NULL DEFAULT 0,
    "approved_at" TIMESTAMPTZ(3),

    CONSTRAINT "ratings_pkey" PRIMARY KEY ("photo_id")
);

-- Written by `pnpm db:migration`; what follows was added by hand (Prisma's schema cannot say it).

-- What a vote changes moves out of the wide photos row: there, every vote was an update that copied the whole row and
-- inserted into all thirteen indexes (vote_count and score are indexed, so it was never a HOT update), plus a trigger
-- that read the prior per row. Here a vote writes one narrow row and three small indexes.

-- Every photo's totals and score as they are, in one statement (the score as the photos_score trigger and the prior's
-- refresh kept it, so the gallery's orders are exactly what they were); approved_at only while the photo is approved.
INSERT INTO "ratings" ("photo_id", "vote_count", "rating_sum", "rating_version", "score", "approved_at")
SELECT "id", "vote_count", "rating_sum", "rating_version", "score", CASE WHEN "status" = 'approved' THEN "approved_at" END
FROM "photos";

-- AddForeignKey (after the copy: checked once over the table rather than row by row)
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_photo_id_fkey" FOREIGN KEY ("photo_id") REFERENCES "photos"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The gallery's rating orders, over approved photos only (the newest-first order stays on photos: approval time never
-- changes with votes). Their conditions and orders must stay exactly as gallery.repository.ts writes them.
CREATE INDEX "ratings_gallery_top_rated" ON "ratings" ("score" DESC, "vote_count" DESC, "approved_at" DESC, "photo_id" DESC) WHERE "approved_at" IS NOT NULL;
CREATE INDEX "ratings_gallery_fewest_votes" ON "ratings" ("vote_count", "approved_at" DESC, "photo_id" DESC) WHERE "approved_at" IS NOT NULL;
-- Planner statistics from the first page on, rather than once autovacuum comes by.
ANALYZE "ratings";

-- A photo's ratings row is made with the photo, and its approved_at follows the photo's status and approval time in
-- the statement that changes them, whoever writes the photo (the repository, the seed, a previous-release pod), so
-- the rating orders list exactly the approved photos. A change of listing also brings the score up to the current
-- prior, as approval always did. search_path is pinned to this schema: the trigger runs inside whatever session
-- changes the row.
CREATE FUNCTION "photo_ratings_follow_photo"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  listed TIMESTAMPTZ(3) := CASE WHEN NEW."status" = 'approved' THEN NEW."approved_at" END;
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO "ratings" ("photo_id", "approved_at", "score")
    VALUES (NEW."id", listed, COALESCE((SELECT g."mean" FROM "gallery_prior" g WHERE g."id" = 1), 0));
  ELSE
    UPDATE "ratings" r SET "approved_at" = listed,
           "score" = COALESCE((SELECT (g."weight" * g."mean" + r."rating_sum") / (g."weight" + r."vote_count") FROM "gallery_prior" g WHERE g."id" = 1), r."score")
    WHERE r."photo_id" = NEW."id" AND r."approved_at" IS DISTINCT FROM listed;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "photos_ratings" AFTER INSERT OR UPDATE OF "status", "approved_at" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "photo_ratings_follow_photo"();

-- Rolling upgrade: the previous release's pods keep running while this release's start, and they still write the old
-- rating columns of photos: their ratings consumer sets vote_count, rating_sum and rating_version, their prior refresh
-- rewrites score. Whatever they write reaches the ratings row in the same statement: newer totals by the consumer's
-- own rule (a newer rating_version wins) with their score, and a rewritten score as the score under the current prior.
-- The rows are locked first in photo id order, as every batch of the ratings consumer locks them, so batches of the
-- two releases never wait on each other in a circle. This release never writes those columns, so for its own updates
-- of photos (reviews, edits) this finds nothing to do. A statement trigger, to see the whole batch at once; its
-- transition tables rule out a column list, hence every UPDATE of photos.
-- The next release drops this trigger and its function, and the columns vote_count, rating_sum, rating_version and
-- score of photos, once no pod of the previous release can be running.
CREATE FUNCTION "photo_ratings_from_previous_release"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM 1 FROM "ratings" r
  JOIN "written_photos" n ON n."id" = r."photo_id" JOIN "replaced_photos" o ON o."id" = n."id"
  WHERE n."rating_version" > r."rating_version" OR n."score" IS DISTINCT FROM o."score"
  ORDER BY r."photo_id" FOR NO KEY UPDATE OF r;
  UPDATE "ratings" r SET "vote_count" = n."vote_count", "rating_sum" = n."rating_sum", "rating_version" = n."rating_version",
         "score" = (g."weight" * g."mean" + n."rating_sum") / (g."weight" + n."vote_count")
  FROM "written_photos" n, "gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = n."id" AND n."rating_version" > r."rating_version";
  UPDATE "ratings" r SET "score" = (g."weight" * g."mean" + r."rating_sum") / (g."weight" + r."vote_count")
  FROM "written_photos" n JOIN "replaced_photos" o ON o."id" = n."id", "gallery_prior" g
  WHERE g."id" = 1 AND r."photo_id" = n."id" AND n."score" IS DISTINCT FROM o."score";
  RETURN NULL;
END $$;
CREATE TRIGGER "photos_ratings_previous_release" AFTER UPDATE ON "photos"
  REFERENCING OLD TABLE AS "replaced_photos" NEW TABLE AS "written_photos"
  FOR EACH STATEMENT EXECUTE FUNCTION "photo_ratings_from_previous_release"();

-- The old rating orders and the per-row score trigger on photos: nothing of this release reads or needs them.
DROP INDEX "photos_gallery_top_rated";
DROP INDEX "photos_gallery_fewest_votes";
DROP TRIGGER "photos_score" ON "photos";
DROP FUNCTION "photo_score"();
