-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "rating_version" BIGINT NOT NULL DEFAULT 0;

