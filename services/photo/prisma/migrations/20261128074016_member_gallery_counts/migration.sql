-- CreateTable
CREATE TABLE "member_gallery_counts" (
    "user_id" TEXT NOT NULL,
    "owned" INTEGER NOT NULL DEFAULT 0,
    "unlisted" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "member_gallery_counts_pkey" PRIMARY KEY ("user_id")
);

-- Written by hand from here: Prisma's schema cannot say a trigger. The counts follow every writer of photos and
-- photo_raters (this release's, the previous release's pods during a rolling upgrade, the seed), so they stay exact.
-- A vote's rater, of an approved photo of someone else, moves nothing: votes never wait on these rows.

-- Adds owned[i] and unlisted[i] to member user_ids[i], in user order: every writer of these rows locks them in that
-- order, so two writers never wait for each other crosswise.
CREATE FUNCTION "member_gallery_counts_add"("user_ids" TEXT[], "owned" INTEGER[], "unlisted" INTEGER[]) RETURNS void
  LANGUAGE sql SET search_path FROM CURRENT AS $$
  INSERT INTO "member_gallery_counts" ("user_id", "owned", "unlisted")
  SELECT c."user_id", SUM(c."owned"), SUM(c."unlisted")
  FROM unnest("user_ids", "owned", "unlisted") AS c("user_id", "owned", "unlisted")
  GROUP BY c."user_id" HAVING SUM(c."owned") <> 0 OR SUM(c."unlisted") <> 0
  ORDER BY c."user_id"
  ON CONFLICT ("user_id") DO UPDATE
    SET "owned" = "member_gallery_counts"."owned" + EXCLUDED."owned", "unlisted" = "member_gallery_counts"."unlisted" + EXCLUDED."unlisted";
$$;

-- A photo that becomes approved, or stops being (deleted; another status), moves its owner's `owned` one way and the
-- `unlisted` of each of its other raters the other.
CREATE FUNCTION "member_gallery_counts_follow_photo"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
DECLARE
  was_listed BOOLEAN := TG_OP <> 'INSERT' AND OLD."status" = 'approved';
  is_listed BOOLEAN := TG_OP <> 'DELETE' AND NEW."status" = 'approved';
  delta INTEGER := is_listed::INTEGER - was_listed::INTEGER;
  listed_id INTEGER := CASE WHEN TG_OP = 'DELETE' THEN OLD."id" ELSE NEW."id" END;
  owner TEXT := CASE WHEN TG_OP = 'DELETE' THEN OLD."user_id" ELSE NEW."user_id" END;
  raters TEXT[];
BEGIN
  IF delta <> 0 THEN
    raters := ARRAY(SELECT x."user_id" FROM "photo_raters" x WHERE x."photo_id" = listed_id AND x."user_id" <> owner);
    PERFORM "member_gallery_counts_add"(
      owner || raters,
      delta || array_fill(0, ARRAY[cardinality(raters)]),
      0 || array_fill(-delta, ARRAY[cardinality(raters)]));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "member_gallery_counts_follow_photo" AFTER INSERT OR DELETE OR UPDATE OF "status" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "member_gallery_counts_follow_photo"();

-- Raters are written only for approved photos of others (the ratings consumer's statement says so, and the vote
-- service takes no vote on anything else), so a vote moves no count. Raters removed (a member's deletion) move
-- `unlisted` for those that counted there, once per statement.
CREATE FUNCTION "member_gallery_counts_raters_removed"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  PERFORM "member_gallery_counts_add"(array_agg(o."user_id"), array_agg(0), array_agg(-1))
  FROM "old_raters" o
  WHERE NOT EXISTS (SELECT 1 FROM "photos" p WHERE p."id" = o."photo_id" AND p."status" = 'approved' AND p."user_id" <> o."user_id")
  HAVING COUNT(*) > 0;
  RETURN NULL;
END $$;

CREATE TRIGGER "member_gallery_counts_raters_removed" AFTER DELETE ON "photo_raters"
  REFERENCING OLD TABLE AS "old_raters" FOR EACH STATEMENT EXECUTE FUNCTION "member_gallery_counts_raters_removed"();

-- The counts of what is already there.
INSERT INTO "member_gallery_counts" ("user_id", "owned", "unlisted")
SELECT t."user_id", SUM(t."owned"), SUM(t."unlisted")
FROM (
  SELECT "user_id", COUNT(*) AS "owned", 0 AS "unlisted" FROM "photos" WHERE "status" = 'approved' GROUP BY "user_id"
  UNION ALL
  SELECT x."user_id", 0, COUNT(*) FROM "photo_raters" x LEFT JOIN "photos" p ON p."id" = x."photo_id"
  WHERE p."id" IS NULL OR p."status" <> 'approved' OR p."user_id" = x."user_id" GROUP BY x."user_id"
) t
GROUP BY t."user_id";
