-- CreateEnum
CREATE TYPE "ReportStatus" AS ENUM ('open', 'dismissed', 'removed');

-- CreateTable
CREATE TABLE "photo_reports" (
    "id" UUID NOT NULL,
    "photo_id" BIGINT NOT NULL,
    "reporter_id" TEXT NOT NULL,
    "category" TEXT NOT NULL,
    "note" TEXT,
    "status" "ReportStatus" NOT NULL DEFAULT 'open',
    "photo_owner_id" TEXT NOT NULL,
    "photo_description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "decided_at" TIMESTAMPTZ(3),
    "decided_by" TEXT,

    CONSTRAINT "photo_reports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "photo_reports_reporter_id_created_at_idx" ON "photo_reports"("reporter_id", "created_at");

-- CreateIndex
CREATE INDEX "photo_reports_photo_id_status_idx" ON "photo_reports"("photo_id", "status");


-- One open report per member per photo; closed ones stay as history, and the member may report the photo again.
CREATE UNIQUE INDEX "photo_reports_one_open_per_member" ON "photo_reports"("photo_id", "reporter_id") WHERE "status" = 'open';
