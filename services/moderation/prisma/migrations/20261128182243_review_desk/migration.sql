-- AlterTable
ALTER TABLE "moderation_actions" ADD COLUMN     "photo_uploaded_at" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "review_claims" (
    "photo_id" BIGINT NOT NULL,
    "admin_id" TEXT NOT NULL,
    "claimed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expires_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "review_claims_pkey" PRIMARY KEY ("photo_id")
);

-- CreateTable
CREATE TABLE "reason_templates" (
    "id" UUID NOT NULL,
    "label" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "reason_templates_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "review_claims_expires_at_idx" ON "review_claims"("expires_at");


-- The reasons admins reach for most often, to start with; admins change or delete them in the admin panel.
INSERT INTO "reason_templates" ("id", "label", "text", "created_by", "created_at", "updated_at") VALUES
  (gen_random_uuid(), 'Not a crack', 'This photo does not show a crack. Snap Cracks is for photos of unexpected cracks.', 'snapcracks', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP),
  (gen_random_uuid(), 'Faces or personal data', 'Faces, number plates or other personal data are visible. Please cover them with privacy bars and resubmit.', 'snapcracks', CURRENT_TIMESTAMP + interval '1 millisecond', CURRENT_TIMESTAMP + interval '1 millisecond'),
  (gen_random_uuid(), 'Too blurry or dark', 'The crack cannot be made out: the photo is too blurry or too dark.', 'snapcracks', CURRENT_TIMESTAMP + interval '2 milliseconds', CURRENT_TIMESTAMP + interval '2 milliseconds'),
  (gen_random_uuid(), 'Duplicate', 'This photo has already been shared on Snap Cracks.', 'snapcracks', CURRENT_TIMESTAMP + interval '3 milliseconds', CURRENT_TIMESTAMP + interval '3 milliseconds');
