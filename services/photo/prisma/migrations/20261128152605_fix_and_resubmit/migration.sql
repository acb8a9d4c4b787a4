-- AlterTable
ALTER TABLE "photos" ADD COLUMN     "held_at" TIMESTAMPTZ(3),
ADD COLUMN     "previous_rejection_reason" TEXT,
ADD COLUMN     "rejected_description" TEXT,
ADD COLUMN     "rejected_privacy_bars" TEXT,
ADD COLUMN     "resubmission_note" TEXT,
ADD COLUMN     "resubmitted_at" TIMESTAMPTZ(3);


-- Photos rejected before this release: their description and bars now are the best record of what was rejected.
UPDATE "photos" SET "rejected_description" = "description", "rejected_privacy_bars" = "privacy_bars" WHERE "status" = 'rejected';
