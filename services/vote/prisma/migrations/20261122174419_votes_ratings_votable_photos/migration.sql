-- AlterTable
ALTER TABLE "photo_votes" ADD COLUMN     "previous_rating" SMALLINT,
ALTER COLUMN "photo_id" SET DATA TYPE BIGINT,
ALTER COLUMN "rating" SET DATA TYPE SMALLINT,
ALTER COLUMN "updated_at" SET DEFAULT CURRENT_TIMESTAMP;

-- AlterTable
ALTER TABLE "photo_ratings" DROP CONSTRAINT "photo_ratings_pkey",
ADD COLUMN     "version" BIGINT NOT NULL DEFAULT 0,
ALTER COLUMN "photo_id" SET DATA TYPE BIGINT,
ALTER COLUMN "rating_sum" SET DATA TYPE BIGINT,
ADD CONSTRAINT "photo_ratings_pkey" PRIMARY KEY ("photo_id");

-- CreateTable
CREATE TABLE "votable_photos" (
    "photo_id" BIGINT NOT NULL,
    "owner_id" TEXT NOT NULL,
    "approved" BOOLEAN NOT NULL DEFAULT false,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "version" BIGINT NOT NULL,

    CONSTRAINT "votable_photos_pkey" PRIMARY KEY ("photo_id")
);


-- Written by hand: Prisma does not describe CHECK constraints.
ALTER TABLE "photo_votes" ADD CONSTRAINT "photo_votes_rating_check" CHECK ("rating" BETWEEN 1 AND 5);
ALTER TABLE "photo_votes" ADD CONSTRAINT "photo_votes_previous_rating_check" CHECK ("previous_rating" BETWEEN 1 AND 5);
ALTER TABLE "photo_ratings" ADD CONSTRAINT "photo_ratings_vote_count_check" CHECK ("vote_count" >= 0);
