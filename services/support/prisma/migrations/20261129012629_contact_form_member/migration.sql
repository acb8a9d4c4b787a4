-- AlterTable
ALTER TABLE "contact_forms" ADD COLUMN     "user_id" TEXT;

-- CreateIndex
CREATE INDEX "contact_forms_user_id_created_at_idx" ON "contact_forms"("user_id", "created_at");

