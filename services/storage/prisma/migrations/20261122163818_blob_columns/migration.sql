-- Written by `pnpm db:migration`, then edited to rename instead of drop and re-add, so that rows (none are
-- expected: the service was unimplemented before this migration) would survive. The end state is the same.
-- AlterTable
ALTER TABLE "blobs" RENAME COLUMN "backend" TO "storage_type";
ALTER TABLE "blobs" RENAME COLUMN "external_id" TO "drive_file_id";
ALTER TABLE "blobs" ADD COLUMN "etag" TEXT NOT NULL DEFAULT '';
ALTER TABLE "blobs" ALTER COLUMN "etag" DROP DEFAULT;

-- CreateIndex
CREATE INDEX "blobs_created_at_key_idx" ON "blobs"("created_at", "key");
