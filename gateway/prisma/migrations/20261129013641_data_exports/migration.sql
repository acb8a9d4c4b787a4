-- CreateTable
CREATE TABLE "data_exports" (
    "id" UUID NOT NULL,
    "user_id" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "progress" SMALLINT NOT NULL DEFAULT 0,
    "step" TEXT,
    "blob_key" TEXT,
    "size" BIGINT,
    "error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "runner" TEXT,
    "attempts" SMALLINT NOT NULL DEFAULT 0,
    "finished_at" TIMESTAMPTZ(3),
    "expires_at" TIMESTAMPTZ(3),

    CONSTRAINT "data_exports_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "data_exports_user_id_created_at_idx" ON "data_exports"("user_id", "created_at");

-- CreateIndex
CREATE INDEX "data_exports_status_updated_at_idx" ON "data_exports"("status", "updated_at");


-- One export queued or running per member at a time: a second request while one is made is refused (409).
CREATE UNIQUE INDEX "data_exports_one_in_progress_idx" ON "data_exports"("user_id") WHERE "status" IN ('queued', 'running');

ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_status_check" CHECK ("status" IN ('queued', 'running', 'ready', 'failed', 'expired'));
ALTER TABLE "data_exports" ADD CONSTRAINT "data_exports_progress_check" CHECK ("progress" BETWEEN 0 AND 100);
