-- CreateTable
CREATE TABLE "upload_allowance_settings" (
    "id" SMALLINT NOT NULL DEFAULT 1,
    "pending_limit" INTEGER NOT NULL,
    "trusted_after" INTEGER NOT NULL,
    "trusted_pending_limit" INTEGER NOT NULL,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_by" TEXT,

    CONSTRAINT "upload_allowance_settings_pkey" PRIMARY KEY ("id")
);


-- One row: the defaults until an admin changes them.
ALTER TABLE "upload_allowance_settings" ADD CONSTRAINT "upload_allowance_settings_single_row" CHECK ("id" = 1);
ALTER TABLE "upload_allowance_settings" ADD CONSTRAINT "upload_allowance_settings_positive"
  CHECK ("pending_limit" >= 1 AND "trusted_after" >= 1 AND "trusted_pending_limit" >= "pending_limit");
INSERT INTO "upload_allowance_settings" ("id", "pending_limit", "trusted_after", "trusted_pending_limit") VALUES (1, 5, 10, 15);
-- A member's pending photos, counted at each upload.
CREATE INDEX "photos_user_pending" ON "photos" ("user_id") WHERE "status" = 'pending';
