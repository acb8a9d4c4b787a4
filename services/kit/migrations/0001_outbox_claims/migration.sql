-- The kit's tables in every component's schema. The first components created these in their own initial
-- migrations, so everything here is idempotent: it brings old and new schemas to the same shape.

CREATE TABLE IF NOT EXISTS "outbox" (
    "id" UUID NOT NULL,
    "type" TEXT NOT NULL,
    "payload" BYTEA NOT NULL,
    "trace_parent" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "published_at" TIMESTAMPTZ(3),
    CONSTRAINT "outbox_pkey" PRIMARY KEY ("id")
);

-- A relay claims rows for a short lease and publishes them outside any transaction; a row whose lease
-- ran out (its relay died) is claimed again.
ALTER TABLE "outbox" ADD COLUMN IF NOT EXISTS "claimed_until" TIMESTAMPTZ(3);

-- What a relay looks for: unpublished rows in order. Published rows (kept a day) stay out of it.
CREATE INDEX IF NOT EXISTS "outbox_unpublished_idx" ON "outbox" ("created_at", "id") WHERE "published_at" IS NULL;
CREATE INDEX IF NOT EXISTS "outbox_published_at_idx" ON "outbox" ("published_at") WHERE "published_at" IS NOT NULL;
DROP INDEX IF EXISTS "outbox_published_at_created_at_idx";

CREATE TABLE IF NOT EXISTS "processed_events" (
    "consumer" TEXT NOT NULL,
    "event_id" UUID NOT NULL,
    "processed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "processed_events_pkey" PRIMARY KEY ("consumer", "event_id")
);

-- Processed ids are pruned once the bus can no longer redeliver them.
CREATE INDEX IF NOT EXISTS "processed_events_processed_at_idx" ON "processed_events" ("processed_at");
