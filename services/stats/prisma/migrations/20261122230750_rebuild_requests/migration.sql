-- CreateTable
CREATE TABLE "rebuild_requests" (
    "id" SERIAL NOT NULL,
    "reason" TEXT NOT NULL,
    "requested_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "rebuild_requests_pkey" PRIMARY KEY ("id")
);


-- Photos projected before per_star_votes have their vote totals but no votes per star, which only the vote service
-- knows: ask for one rebuild when there are such photos (a new database has none and needs none).
INSERT INTO "rebuild_requests" ("reason")
SELECT 'votes per star for photos projected before per_star_votes'
WHERE EXISTS (SELECT 1 FROM "photos" WHERE "vote_count" > 0);
