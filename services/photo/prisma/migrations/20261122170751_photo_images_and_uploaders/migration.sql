-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "content_sha256" TEXT,
ADD COLUMN     "display_etag" TEXT,
ADD COLUMN     "display_key" TEXT,
ADD COLUMN     "display_size" INTEGER,
ADD COLUMN     "height" INTEGER,
ADD COLUMN     "image_version" INTEGER NOT NULL DEFAULT 1,
ADD COLUMN     "original_etag" TEXT,
ADD COLUMN     "original_key" TEXT,
ADD COLUMN     "original_size" INTEGER,
ADD COLUMN     "original_type" TEXT,
ADD COLUMN     "perceptual_hash" TEXT,
ADD COLUMN     "rating_sum" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "reviewed_at" TIMESTAMPTZ(3),
ADD COLUMN     "thumbnail_etag" TEXT,
ADD COLUMN     "thumbnail_key" TEXT,
ADD COLUMN     "thumbnail_size" INTEGER,
ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 1,
ADD COLUMN     "vote_count" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "width" INTEGER;

-- CreateTable
CREATE TABLE "uploaders" (
    "id" TEXT NOT NULL,
    "first_name" TEXT,
    "last_name" TEXT,
    "display_name" TEXT,
    "profile_image_url" TEXT,
    "custom_profile_image" TEXT,
    "updated_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "uploaders_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "photos_status_reviewed_at_idx" ON "photos"("status", "reviewed_at");

-- CreateIndex
CREATE INDEX "photos_created_at_idx" ON "photos"("created_at");

