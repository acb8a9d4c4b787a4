-- CreateTable
CREATE TABLE "rejected_hashes" (
    "photo_id" INTEGER NOT NULL,
    "user_id" TEXT NOT NULL,
    "dhash" BIGINT NOT NULL,
    "rejection_reason" TEXT NOT NULL,
    "rejected_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "rejected_hashes_pkey" PRIMARY KEY ("photo_id")
);

-- CreateIndex
CREATE INDEX "photos_user_id_content_sha256_idx" ON "photos"("user_id", "content_sha256");

-- CreateIndex
CREATE INDEX "photos_original_key_idx" ON "photos"("original_key");

-- CreateIndex
CREATE INDEX "photos_display_key_idx" ON "photos"("display_key");

-- CreateIndex
CREATE INDEX "photos_thumbnail_key_idx" ON "photos"("thumbnail_key");


-- Written by `pnpm db:migration`; what follows was added by hand (Prisma's schema cannot say it).

-- Hamming-distance search over the rejected hashes: a 64-bit hash within 6 bits of another agrees with it exactly
-- on at least one of 7 bands (six of 9 bits and one of 10: 6 differing bits can spoil at most 6 bands), so a
-- lookup reads the rows that share a band through these indexes and checks the distance of those alone.
-- The expressions must stay exactly as photo.repository.ts writes them.
CREATE INDEX "rejected_hashes_band0" ON "rejected_hashes" (("dhash" & 511));
CREATE INDEX "rejected_hashes_band1" ON "rejected_hashes" ((("dhash" >> 9) & 511));
CREATE INDEX "rejected_hashes_band2" ON "rejected_hashes" ((("dhash" >> 18) & 511));
CREATE INDEX "rejected_hashes_band3" ON "rejected_hashes" ((("dhash" >> 27) & 511));
CREATE INDEX "rejected_hashes_band4" ON "rejected_hashes" ((("dhash" >> 36) & 511));
CREATE INDEX "rejected_hashes_band5" ON "rejected_hashes" ((("dhash" >> 45) & 511));
CREATE INDEX "rejected_hashes_band6" ON "rejected_hashes" ((("dhash" >> 54) & 1023));

-- A photo's hash is kept from the moment it is rejected (however it got there), and outlives the photo.
-- search_path is pinned to this schema: the trigger runs inside whatever session changes the row.
CREATE FUNCTION "photo_keep_rejected_hash"() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $$
BEGIN
  IF NEW."status" <> 'rejected' OR NEW."perceptual_hash" IS NULL OR NEW."perceptual_hash" !~ '^[0-9a-fA-F]{16}$' THEN
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' THEN
    IF OLD."status" = 'rejected' THEN
      RETURN NULL;
    END IF;
  END IF;
  INSERT INTO "rejected_hashes" ("photo_id", "user_id", "dhash", "rejection_reason", "rejected_at")
  VALUES (NEW."id", NEW."user_id", ('x' || NEW."perceptual_hash")::bit(64)::bigint, COALESCE(NEW."rejection_reason", ''),
          COALESCE(NEW."reviewed_at", CURRENT_TIMESTAMP))
  ON CONFLICT ("photo_id") DO NOTHING;
  RETURN NULL;
END $$;
CREATE TRIGGER "photos_keep_rejected_hash" AFTER INSERT OR UPDATE OF "status" ON "photos"
  FOR EACH ROW EXECUTE FUNCTION "photo_keep_rejected_hash"();

-- The photos rejected before this migration.
INSERT INTO "rejected_hashes" ("photo_id", "user_id", "dhash", "rejection_reason", "rejected_at")
SELECT "id", "user_id", ('x' || "perceptual_hash")::bit(64)::bigint, COALESCE("rejection_reason", ''), COALESCE("reviewed_at", "updated_at")
FROM "photos"
WHERE "status" = 'rejected' AND "perceptual_hash" ~ '^[0-9a-fA-F]{16}$';
