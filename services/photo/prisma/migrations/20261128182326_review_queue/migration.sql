-- The review desk hands out pending photos by how long they have waited: since their upload, their owner's
-- resubmission or their hold by reports, whichever is latest (a photo is held or resubmitted after it was uploaded).
CREATE INDEX "photos_review_queue" ON "photos" ((COALESCE("held_at", "resubmitted_at", "created_at")), "id") WHERE "status" = 'pending';
