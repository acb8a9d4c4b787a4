-- AlterTable
ALTER TABLE "member_gallery_counts" ADD COLUMN     "rated" INTEGER NOT NULL DEFAULT 0;


-- Written by hand from here. need-your-vote's total counted the member's raters on every page: an index-only scan as
-- long as their history (7 to 23 ms of PostgreSQL for a member with 10,000 ratings). `rated` keeps that count, so the
-- total is one row whatever the member did. A vote now adds one to its member's row in the ratings consumer's batch,
-- which locks the batch's members in user order like every other writer of these rows.

-- `rated` defaults to none, so the photos trigger's function, which moves `owned` and `unlisted` only, calls it as before.
DROP FUNCTION "member_gallery_counts_add"(TEXT[], INTEGER[], INTEGER[]);
CREATE FUNCTION "member_gallery_counts_add"("user_ids" TEXT[], "owned" INTEGER[], "unlisted" INTEGER[], "rated" INTEGER[] DEFAULT '{}') RETURNS void
  LANGUAGE sql SET search_path FROM CURRENT AS $$
  INSERT INTO "member_gallery_counts" ("user_id", "owned", "unlisted", "rated")
  SELECT c."user_id", SUM(c."owned"), SUM(c."unlisted"), SUM(COALESCE(c."rated", 0))
  FROM unnest("user_ids", "owned", "unlisted", "rated") AS c("user_id", "owned", "unlisted", "rated")
  GROUP BY c."user_id" HAVING SUM(c."owned") <> 0 OR SUM(c."unlisted") <> 0 OR SUM(COALESCE(c."rated", 0)) <> 0
  ORDER BY c."user_id"
  ON CONFLICT ("user_id") DO UPDATE
    SET "owned" = "member_gallery_counts"."owned" + EXCLUDED."owned",
        "unlisted" = "member_gallery_counts"."unlisted" + EXCLUDED."unlisted",
        "rated" = "member_gallery_counts"."rated" + EXCLUDED."rated";
$$;

-- A photo's status change now takes its ratings row (photos_ratings) before the members' rows: the ratings consumer's
-- batches take ratings rows and then, with the raters they add, members' rows, and in the other order a rejection
-- waiting for a batch's ratings row while holding a member row the batch wants would deadlock. Triggers of one event
-- fire in name order, hence the name.
DROP TRIGGER "member_gallery_counts_follow_photo" ON "photos";
CREATE TRIGGER "photos_ratings_then_member_gallery_counts" AFTER INSERT OR DELETE OR UPDATE OF "status" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "member_gallery_counts_follow_photo"();

-- Raters added: each member's `rated` by theirs, and `unlisted` by those of photos not approved or their own (the
-- ratings consumer writes none of those; other writers may).
CREATE FUNCTION "member_gallery_counts_raters_added"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM "member_gallery_counts_add"(
    array_agg(n."user_id"), array_agg(0),
    array_agg(CASE WHEN p."status" = 'approved' AND p."user_id" <> n."user_id" THEN 0 ELSE 1 END), array_agg(1))
  FROM "new_raters" n LEFT JOIN "photos" p ON p."id" = n."photo_id"
  HAVING COUNT(*) > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "member_gallery_counts_raters_added" AFTER INSERT ON "photo_raters"
  REFERENCING NEW TABLE AS "new_raters" FOR EACH STATEMENT EXECUTE FUNCTION "member_gallery_counts_raters_added"();

-- Raters removed (a member's deletion, a photo's): `rated` for each, `unlisted` for those that counted there.
CREATE OR REPLACE FUNCTION "member_gallery_counts_raters_removed"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM "member_gallery_counts_add"(
    array_agg(o."user_id"), array_agg(0),
    array_agg(CASE WHEN p."id" IS NULL THEN -1 ELSE 0 END), array_agg(-1))
  FROM "old_raters" o
  LEFT JOIN "photos" p ON p."id" = o."photo_id" AND p."status" = 'approved' AND p."user_id" <> o."user_id"
  HAVING COUNT(*) > 0;
  RETURN NULL;
END $$;

-- What is already there.
UPDATE "member_gallery_counts" m SET "rated" = r."rated"
FROM (SELECT "user_id", COUNT(*)::int AS "rated" FROM "photo_raters" GROUP BY "user_id") r
WHERE m."user_id" = r."user_id";
INSERT INTO "member_gallery_counts" ("user_id", "rated")
SELECT x."user_id", COUNT(*) FROM "photo_raters" x
WHERE NOT EXISTS (SELECT 1 FROM "member_gallery_counts" m WHERE m."user_id" = x."user_id")
GROUP BY x."user_id";
