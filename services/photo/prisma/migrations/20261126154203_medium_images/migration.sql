-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "medium_etag" TEXT,
ADD COLUMN     "medium_key" TEXT,
ADD COLUMN     "medium_size" INTEGER;

-- CreateIndex
CREATE INDEX "photos_medium_key_idx" ON "photos"("medium_key");



-- Written by `pnpm db:migration`; what follows was added by hand (Prisma's schema cannot say it).

-- The photos still without a medium image, in id order, for the medium backfill (medium-backfill.repository.ts): it
-- walks them without reading the rows that have one, and its look for work when there is none is one probe of an
-- empty index. Photos stored from now on come with their medium image, so only the backfill's work is ever in here.
CREATE INDEX "photos_without_medium" ON "photos"("id") WHERE "medium_key" IS NULL AND "original_key" IS NOT NULL;
