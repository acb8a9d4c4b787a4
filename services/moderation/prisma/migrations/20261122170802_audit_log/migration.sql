-- DropIndex
DROP INDEX "moderation_actions_photo_id_idx";

-- AlterTable (edited: `detail` is renamed to `reason` rather than dropped and re-added, so existing entries keep their reason)
ALTER TABLE "moderation_actions" RENAME COLUMN "detail" TO "reason";
ALTER TABLE "moderation_actions" ADD COLUMN     "photo_owner_id" TEXT,
ALTER COLUMN "photo_id" SET DATA TYPE BIGINT;

-- CreateIndex
CREATE INDEX "moderation_actions_photo_id_created_at_idx" ON "moderation_actions"("photo_id", "created_at");
