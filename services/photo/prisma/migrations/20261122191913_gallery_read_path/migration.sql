-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "score" DOUBLE PRECISION NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "photo_raters" (
    "user_id" TEXT NOT NULL,
    "photo_id" INTEGER NOT NULL,

    CONSTRAINT "photo_raters_pkey" PRIMARY KEY ("user_id","photo_id")
);

-- CreateTable
CREATE TABLE "gallery_prior" (
    "id" INTEGER NOT NULL DEFAULT 1,
    "mean" DOUBLE PRECISION NOT NULL,
    "weight" DOUBLE PRECISION NOT NULL,
    "refreshed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "gallery_prior_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "approved_per_day" (
    "day" DATE NOT NULL,
    "approved" INTEGER NOT NULL,

    CONSTRAINT "approved_per_day_pkey" PRIMARY KEY ("day")
);

-- CreateIndex
CREATE INDEX "photo_raters_photo_id_idx" ON "photo_raters"("photo_id");


-- The prior: m from the votes already cast on approved photos (3.0, the scale's middle, when there are none), C = 5.
ALTER TABLE "gallery_prior" ADD CONSTRAINT "gallery_prior_single_row" CHECK ("id" = 1);
ALTER TABLE "gallery_prior" ADD CONSTRAINT "gallery_prior_weight_positive" CHECK ("weight" > 0);
INSERT INTO "gallery_prior" ("id", "mean", "weight")
SELECT 1, COALESCE(SUM("rating_sum")::float8 / NULLIF(SUM("vote_count"), 0), 3.0), 5
FROM "photos" WHERE "status" = 'approved';

-- The score follows the totals in the same statement that changes them (the ratings projection, a new photo, an
-- approval, which also brings a pending photo's score up to the current prior).
-- search_path is pinned to this schema: the trigger runs inside whatever session changes the row.
CREATE FUNCTION "photo_score"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  SELECT (p."weight" * p."mean" + NEW."rating_sum") / (p."weight" + NEW."vote_count") INTO NEW."score"
  FROM "gallery_prior" p WHERE p."id" = 1;
  RETURN NEW;
END $$;
CREATE TRIGGER "photos_score" BEFORE INSERT OR UPDATE OF "rating_sum", "vote_count", "status" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "photo_score"();
UPDATE "photos" p SET "score" = (g."weight" * g."mean" + p."rating_sum") / (g."weight" + p."vote_count") FROM "gallery_prior" g;

-- Approved photos per UTC day of approval, whichever way a photo enters or leaves that state (approval, a later
-- status change, deletion), so totals of the gallery's pages are sums over at most a few hundred rows.
CREATE FUNCTION "photo_count_approved"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD."status" = NEW."status" AND OLD."approved_at" IS NOT DISTINCT FROM NEW."approved_at" THEN
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') AND OLD."status" = 'approved' AND OLD."approved_at" IS NOT NULL THEN
    UPDATE "approved_per_day" SET "approved" = "approved" - 1 WHERE "day" = (OLD."approved_at" AT TIME ZONE 'UTC')::date;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') AND NEW."status" = 'approved' AND NEW."approved_at" IS NOT NULL THEN
    INSERT INTO "approved_per_day" ("day", "approved") VALUES ((NEW."approved_at" AT TIME ZONE 'UTC')::date, 1)
    ON CONFLICT ("day") DO UPDATE SET "approved" = "approved_per_day"."approved" + 1;
  END IF;
  RETURN NULL;
END $$;
CREATE TRIGGER "photos_count_approved" AFTER INSERT OR DELETE OR UPDATE OF "status", "approved_at" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "photo_count_approved"();
INSERT INTO "approved_per_day" ("day", "approved")
SELECT ("approved_at" AT TIME ZONE 'UTC')::date, COUNT(*) FROM "photos"
WHERE "status" = 'approved' AND "approved_at" IS NOT NULL GROUP BY 1;

-- The gallery's orders, over approved photos only (Prisma's schema cannot say WHERE; these live here alone).
CREATE INDEX "photos_gallery_top_rated" ON "photos" ("score" DESC, "vote_count" DESC, "approved_at" DESC, "id" DESC) WHERE "status" = 'approved';
CREATE INDEX "photos_gallery_fewest_votes" ON "photos" ("vote_count", "approved_at" DESC, "id" DESC) WHERE "status" = 'approved';
CREATE INDEX "photos_gallery_newest" ON "photos" ("approved_at" DESC, "id" DESC) WHERE "status" = 'approved';
