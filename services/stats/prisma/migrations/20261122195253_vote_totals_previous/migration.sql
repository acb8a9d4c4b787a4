-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "previous_rating_sum" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "previous_vote_count" INTEGER NOT NULL DEFAULT 0;

