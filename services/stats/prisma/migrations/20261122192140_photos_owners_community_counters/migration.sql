-- CreateEnum
CREATE TYPE "PhotoStatus" AS ENUM ('pending', 'approved', 'rejected');

-- CreateTable
CREATE TABLE "photos" (
    "photo_id" BIGINT NOT NULL,
    "owner_id" TEXT,
    "status" "PhotoStatus",
    "filename" TEXT,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3),
    "approved_at" TIMESTAMPTZ(3),
    "reviewed_at" TIMESTAMPTZ(3),
    "review_version" BIGINT NOT NULL DEFAULT 0,
    "version" BIGINT NOT NULL DEFAULT 0,
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "vote_count" INTEGER NOT NULL DEFAULT 0,
    "rating_sum" BIGINT NOT NULL DEFAULT 0,
    "rating_version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "photos_pkey" PRIMARY KEY ("photo_id")
);

-- CreateTable
CREATE TABLE "owners" (
    "owner_id" TEXT NOT NULL,
    "approved_photos" INTEGER NOT NULL DEFAULT 0,
    "deleted" BOOLEAN NOT NULL DEFAULT false,

    CONSTRAINT "owners_pkey" PRIMARY KEY ("owner_id")
);

-- CreateTable
CREATE TABLE "community_counters" (
    "shard" SMALLINT NOT NULL,
    "photos" BIGINT NOT NULL DEFAULT 0,
    "pending_photos" BIGINT NOT NULL DEFAULT 0,
    "approved_photos" BIGINT NOT NULL DEFAULT 0,
    "votes_on_approved" BIGINT NOT NULL DEFAULT 0,
    "rated_four_or_higher" BIGINT NOT NULL DEFAULT 0,
    "distinct_uploaders" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "community_counters_pkey" PRIMARY KEY ("shard")
);

-- CreateIndex
CREATE INDEX "photos_status_reviewed_at_idx" ON "photos"("status", "reviewed_at");

-- CreateIndex
CREATE INDEX "photos_owner_id_created_at_idx" ON "photos"("owner_id", "created_at");


-- Written by hand: Prisma does not describe CHECK constraints. A count going below zero is a bug in the
-- projection; failing the event (it is retried, then logged) is better than a silently wrong figure. (owners has
-- none: its counts move by an upsert whose proposed row carries the difference, which may be negative.)
ALTER TABLE "photos" ADD CONSTRAINT "photos_vote_count_check" CHECK ("vote_count" >= 0);
