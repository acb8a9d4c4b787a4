/**
 * The stats service's read models, as its consumers would have left them after this run's events (photo uploads and
 * review decisions, then every vote's totals), in the order they happened:
 *
 * - stats.photos: one row per photo, its PhotoState (newest version), reviewed_at and review_version from the
 *   decision, the vote totals with their version, the totals the last vote event replaced (previous_*), and its votes
 *   per rating (stars_1 … stars_5, as every vote event's move would have left them);
 * - stats.owners and stats.community_counters: what this run's rows count for (the stats schema's photo_figures),
 *   summed per owner (a row once an owner had a photo approved) and per shard (photo id modulo the service's shard
 *   count); an owner's first approval moved distinct_uploaders in that photo's shard.
 *
 * With --force these add to what is there, as more events would have.
 */
import { COUNTER_SHARDS } from '../../services/stats/src/stats.projection.js';
import type { CheckQuery } from './verify.js';
import type { SeedContext, Timer } from './seed.js';
import { bulkInsert, run } from './db.js';

export async function seedStats(context: SeedContext, time: Timer): Promise<void> {
  const { client } = context;
  await time('stats.photos', () =>
    bulkInsert(
      client,
      '"stats"."photos"',
      `INSERT INTO "stats"."photos" ("photo_id", "owner_id", "status", "filename", "description", "created_at", "approved_at", "reviewed_at",
         "review_version", "version", "deleted", "vote_count", "rating_sum", "rating_version", "previous_vote_count", "previous_rating_sum",
         "stars_1", "stars_2", "stars_3", "stars_4", "stars_5")
       SELECT p."id", p."user_id", p."status"::text::"stats"."PhotoStatus", p."filename", p."description", p."created_at", p."approved_at", p."reviewed_at",
              CASE WHEN p."reviewed_at" IS NULL THEN 0 ELSE p."version" END, p."version", false, s."vote_count", s."rating_sum", s."rating_version",
              COALESCE(CASE WHEN l."previous_rating" IS NULL THEN s."vote_count" - 1 ELSE s."vote_count" END, 0),
              COALESCE(s."rating_sum" - l."rating" + COALESCE(l."previous_rating", 0), 0),
              COALESCE(v."stars_1", 0), COALESCE(v."stars_2", 0), COALESCE(v."stars_3", 0), COALESCE(v."stars_4", 0), COALESCE(v."stars_5", 0)
       FROM "photo"."photos" p JOIN "seed_photos" s ON s."id" = p."id"
       LEFT JOIN (SELECT DISTINCT ON ("photo_id") "photo_id", "rating", "previous_rating" FROM "seed_votes" ORDER BY "photo_id", "updated_at" DESC, "user_n" DESC) l
         ON l."photo_id" = p."id"
       LEFT JOIN (SELECT "photo_id", count(*) FILTER (WHERE "rating" = 1) AS "stars_1", count(*) FILTER (WHERE "rating" = 2) AS "stars_2",
                         count(*) FILTER (WHERE "rating" = 3) AS "stars_3", count(*) FILTER (WHERE "rating" = 4) AS "stars_4",
                         count(*) FILTER (WHERE "rating" = 5) AS "stars_5"
                  FROM "seed_votes" GROUP BY "photo_id") v
         ON v."photo_id" = p."id"
       ORDER BY p."id"`,
    ),
  );
  // What this run's rows count for (photo_figures). Before the owners' counts move: an owner whose count leaves zero is
  // a new distinct uploader, in the shard of the photo whose approval did it (their first approved photo of this run).
  await time('stats.community_counters', () =>
    run(
      client,
      `WITH counted AS (
         SELECT p."photo_id", p."owner_id", p."approved_at", ("photo_id" % $1::int)::smallint AS "shard", f.*
         FROM "stats"."photos" p JOIN "seed_photos" s ON s."id" = p."photo_id",
              "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
       ), figures AS (
         SELECT "shard", SUM("photos") AS "photos", SUM("pending_photos") AS "pending_photos", SUM("approved_photos") AS "approved_photos",
                SUM("votes_on_approved") AS "votes_on_approved", SUM("rated_four_or_higher") AS "rated_four_or_higher"
         FROM counted GROUP BY 1
       ), firsts AS (
         SELECT DISTINCT ON ("owner_id") "owner_id", "shard" FROM counted WHERE "approved_photos" > 0
         ORDER BY "owner_id", "approved_at", "photo_id"
       ), uploaders AS (
         SELECT "shard", COUNT(*) AS "distinct_uploaders" FROM firsts f
         WHERE NOT EXISTS (SELECT 1 FROM "stats"."owners" o WHERE o."owner_id" = f."owner_id" AND o."approved_photos" > 0) GROUP BY 1
       )
       INSERT INTO "stats"."community_counters" AS c ("shard", "photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders")
       SELECT f."shard", f."photos", f."pending_photos", f."approved_photos", f."votes_on_approved", f."rated_four_or_higher", COALESCE(u."distinct_uploaders", 0)
       FROM figures f LEFT JOIN uploaders u USING ("shard")
       ON CONFLICT ("shard") DO UPDATE SET
         "photos" = c."photos" + EXCLUDED."photos", "pending_photos" = c."pending_photos" + EXCLUDED."pending_photos",
         "approved_photos" = c."approved_photos" + EXCLUDED."approved_photos", "votes_on_approved" = c."votes_on_approved" + EXCLUDED."votes_on_approved",
         "rated_four_or_higher" = c."rated_four_or_higher" + EXCLUDED."rated_four_or_higher",
         "distinct_uploaders" = c."distinct_uploaders" + EXCLUDED."distinct_uploaders"`,
      [COUNTER_SHARDS],
    ),
  );
  await time('stats.owners', () =>
    run(
      client,
      `INSERT INTO "stats"."owners" AS o ("owner_id", "approved_photos", "votes_received", "rating_sum_received")
       SELECT p."owner_id", SUM(f."approved_photos"), SUM(f."votes_on_approved"), SUM(f."rating_sum_on_approved")
       FROM "stats"."photos" p JOIN "seed_photos" s ON s."id" = p."photo_id",
            "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
       GROUP BY 1 HAVING SUM(f."approved_photos") > 0 ORDER BY 1
       ON CONFLICT ("owner_id") DO UPDATE SET
         "approved_photos" = o."approved_photos" + EXCLUDED."approved_photos",
         "votes_received" = o."votes_received" + EXCLUDED."votes_received",
         "rating_sum_received" = o."rating_sum_received" + EXCLUDED."rating_sum_received"`,
    ),
  );
}

/** The stats service's read models against the photo and vote services' rows, and against their own rows. */
export const STATS_CHECKS: CheckQuery[] = [
  {
    name: 'stats.photos = photo.photos and photo.ratings (state, review, totals)',
    sql: `SELECT format('photo %s: %s', COALESCE(p."id", s."photo_id"), CASE WHEN s."photo_id" IS NULL THEN 'missing from stats' WHEN p."id" IS NULL THEN 'no such photo, yet not a tombstone' ELSE 'differs' END) AS "detail"
          FROM ("photo"."photos" p LEFT JOIN "photo"."ratings" r ON r."photo_id" = p."id") FULL JOIN "stats"."photos" s ON s."photo_id" = p."id"
          WHERE (p."id" IS NULL AND NOT s."deleted") OR s."photo_id" IS NULL
             OR (p."id" IS NOT NULL AND (s."deleted"
                 OR (s."owner_id", s."status"::text, s."filename", s."description", s."created_at", s."approved_at", s."version", s."vote_count", s."rating_sum", s."rating_version")
                    IS DISTINCT FROM (p."user_id", p."status"::text, p."filename", p."description", p."created_at", p."approved_at", p."version", r."vote_count", r."rating_sum"::bigint, r."rating_version")
                 OR (p."reviewed_at" IS NOT NULL AND s."reviewed_at" IS DISTINCT FROM p."reviewed_at")))`,
  },
  {
    name: 'stats.photos votes per rating = vote.photo_votes',
    sql: `SELECT format('photo %s: stars %s, votes %s', s."photo_id", row(s."stars_1", s."stars_2", s."stars_3", s."stars_4", s."stars_5"), row(v."s1", v."s2", v."s3", v."s4", v."s5")) AS "detail"
          FROM "stats"."photos" s
          LEFT JOIN (SELECT "photo_id", count(*) FILTER (WHERE "rating" = 1) AS "s1", count(*) FILTER (WHERE "rating" = 2) AS "s2", count(*) FILTER (WHERE "rating" = 3) AS "s3",
                            count(*) FILTER (WHERE "rating" = 4) AS "s4", count(*) FILTER (WHERE "rating" = 5) AS "s5"
                     FROM "vote"."photo_votes" GROUP BY "photo_id") v ON v."photo_id" = s."photo_id"
          WHERE NOT s."deleted"
            AND (s."stars_1", s."stars_2", s."stars_3", s."stars_4", s."stars_5")
                IS DISTINCT FROM (COALESCE(v."s1", 0)::int, COALESCE(v."s2", 0)::int, COALESCE(v."s3", 0)::int, COALESCE(v."s4", 0)::int, COALESCE(v."s5", 0)::int)`,
  },
  {
    name: 'stats.community_counters = counted from stats.photos, per shard',
    sql: `SELECT format('shard %s: counters %s, rows %s', COALESCE(c."shard", r."shard"),
                  row(c."photos", c."pending_photos", c."approved_photos", c."votes_on_approved", c."rated_four_or_higher"),
                  row(r."photos", r."pending_photos", r."approved_photos", r."votes_on_approved", r."rated_four_or_higher")) AS "detail"
          FROM "stats"."community_counters" c
          FULL JOIN (
            SELECT (p."photo_id" % ${COUNTER_SHARDS})::smallint AS "shard", SUM(f."photos") AS "photos", SUM(f."pending_photos") AS "pending_photos",
                   SUM(f."approved_photos") AS "approved_photos", SUM(f."votes_on_approved") AS "votes_on_approved",
                   SUM(f."rated_four_or_higher") AS "rated_four_or_higher"
            FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f GROUP BY 1) r ON r."shard" = c."shard"
          WHERE (COALESCE(c."photos", 0), COALESCE(c."pending_photos", 0), COALESCE(c."approved_photos", 0), COALESCE(c."votes_on_approved", 0), COALESCE(c."rated_four_or_higher", 0))
                IS DISTINCT FROM (COALESCE(r."photos", 0), COALESCE(r."pending_photos", 0), COALESCE(r."approved_photos", 0), COALESCE(r."votes_on_approved", 0), COALESCE(r."rated_four_or_higher", 0))`,
  },
  {
    name: 'stats gallery strip = photo and vote rows',
    sql: `SELECT format('counters %s, rows %s', row(c."approved", c."votes", c."rated", c."uploaders"), row(d."approved", d."votes", d."rated", d."uploaders")) AS "detail"
          FROM (SELECT COALESCE(SUM("approved_photos"), 0) AS "approved", COALESCE(SUM("votes_on_approved"), 0) AS "votes",
                       COALESCE(SUM("rated_four_or_higher"), 0) AS "rated", COALESCE(SUM("distinct_uploaders"), 0) AS "uploaders" FROM "stats"."community_counters") c
          CROSS JOIN (
            SELECT COUNT(*) AS "approved",
                   (SELECT COUNT(*) FROM "vote"."photo_votes" v JOIN "photo"."photos" a ON a."id" = v."photo_id" WHERE a."status" = 'approved') AS "votes",
                   SUM(f."rated_four_or_higher") AS "rated", COUNT(DISTINCT p."user_id") AS "uploaders"
            FROM "photo"."photos" p JOIN "photo"."ratings" r ON r."photo_id" = p."id",
                 "stats"."photo_figures"(p."status"::text::"stats"."PhotoStatus", false, r."vote_count", r."rating_sum") f
            WHERE p."status" = 'approved') d
          WHERE (c."approved", c."votes", c."rated", c."uploaders") IS DISTINCT FROM (d."approved", d."votes", d."rated", d."uploaders")`,
  },
  {
    name: 'stats.owners = approved photos, votes and ratings per owner',
    sql: `SELECT format('owner %s: owners %s, photos %s', COALESCE(o."owner_id", p."owner_id"),
                  row(o."approved_photos", o."votes_received", o."rating_sum_received"), row(p."n", p."votes", p."rating_sum")) AS "detail"
          FROM "stats"."owners" o
          FULL JOIN (SELECT x."owner_id", SUM(f."approved_photos") AS "n", SUM(f."votes_on_approved") AS "votes", SUM(f."rating_sum_on_approved") AS "rating_sum"
                     FROM "stats"."photos" x, "stats"."photo_figures"(x."status", x."deleted", x."vote_count", x."rating_sum") f
                     GROUP BY 1 HAVING SUM(f."approved_photos") > 0) p ON p."owner_id" = o."owner_id"
          WHERE (COALESCE(o."approved_photos", 0), COALESCE(o."votes_received", 0), COALESCE(o."rating_sum_received", 0))
                IS DISTINCT FROM (COALESCE(p."n", 0), COALESCE(p."votes", 0), COALESCE(p."rating_sum", 0))`,
  },
  {
    name: 'stats.owners votes received = votes on their approved photos',
    sql: `SELECT format('owner %s: votes_received %s, votes %s', COALESCE(o."owner_id", v."owner_id"), o."votes_received", v."n") AS "detail"
          FROM "stats"."owners" o
          FULL JOIN (SELECT p."user_id" AS "owner_id", COUNT(*) AS "n" FROM "vote"."photo_votes" x JOIN "photo"."photos" p ON p."id" = x."photo_id"
                     WHERE p."status" = 'approved' GROUP BY 1) v ON v."owner_id" = o."owner_id"
          WHERE COALESCE(o."votes_received", 0) <> COALESCE(v."n", 0)`,
  },
];
