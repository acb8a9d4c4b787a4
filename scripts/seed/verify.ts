/**
 * `pnpm seed:verify [--database-url URL]`: compares every read model the gallery relies on with direct aggregates of
 * the rows it is derived from, and exits 1 on any mismatch. Meant for a seeded database, or any database at rest (with
 * events in flight, projections lag their sources for a moment).
 *
 * - photo.ratings: one row per photo, approved_at = the photo's while it is approved (else null)
 * - photo.ratings vote_count / rating_sum = COUNT / SUM of vote.photo_votes per photo; rating_version = the totals' version
 * - vote.photo_ratings = COUNT / SUM of vote.photo_votes per photo, version ≥ count (one per cast)
 * - photo.photo_raters = the (member, photo) pairs of vote.photo_votes
 * - photo.approved_per_day = approved photos counted by UTC day of approval
 * - photo.ratings.score = photo_score (the photo migration's function) of the totals for approved photos, with C and m
 *   from gallery_prior; m = the mean of every vote on approved photos (to 0.01, the photo service's refresh threshold)
 * - vote.votable_photos = every photo's owner, approval and version; rows without a photo are tombstones
 * - votes only on approved photos, never on one's own
 * - photo.uploaders = auth.users' names; seeded members enabled and with the terms accepted
 * - every review has its moderation action; every image key a storage.blobs row with the same etag and size
 * - the stats service's projection and counters (stats.ts)
 */
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Client } from './db.js';
import { count, seconds, withClient } from './db.js';
import { STATS_CHECKS } from './stats.js';

export interface Check {
  name: string;
  ok: boolean;
  /** Rows that disagree (0 when ok). */
  mismatches: number;
  /** A few of them, to start looking. */
  sample: string[];
}

export interface CheckQuery {
  name: string;
  /** Selects one row per mismatch, in a column `detail` (text). */
  sql: string;
}

const CHECKS: CheckQuery[] = [
  {
    name: 'photo.ratings = one row per photo, approved_at while approved',
    sql: `SELECT format('photo %s: %s', COALESCE(p."id", r."photo_id"),
                  CASE WHEN r."photo_id" IS NULL THEN 'no ratings row' WHEN p."id" IS NULL THEN 'ratings row of no photo'
                       ELSE format('ratings approved_at %s, photo %s approved at %s', r."approved_at", p."status", p."approved_at") END) AS "detail"
          FROM "photo"."photos" p FULL JOIN "photo"."ratings" r ON r."photo_id" = p."id"
          WHERE p."id" IS NULL OR r."photo_id" IS NULL
             OR r."approved_at" IS DISTINCT FROM CASE WHEN p."status" = 'approved' THEN p."approved_at" END`,
  },
  {
    name: 'photo.ratings vote_count, rating_sum = votes per photo',
    sql: `SELECT format('photo %s: ratings %s votes / sum %s, votes table %s / %s', COALESCE(r."photo_id", v."photo_id"), r."vote_count", r."rating_sum", v."n", v."s") AS "detail"
          FROM "photo"."ratings" r
          FULL JOIN (SELECT "photo_id", COUNT(*) AS "n", SUM("rating") AS "s" FROM "vote"."photo_votes" GROUP BY "photo_id") v ON v."photo_id" = r."photo_id"
          WHERE r."photo_id" IS NULL OR r."vote_count" <> COALESCE(v."n", 0) OR r."rating_sum" <> COALESCE(v."s", 0)`,
  },
  {
    name: 'vote.photo_ratings = votes per photo',
    sql: `SELECT format('photo %s: photo_ratings %s / %s, votes %s / %s', COALESCE(r."photo_id", v."photo_id"), r."vote_count", r."rating_sum", v."n", v."s") AS "detail"
          FROM "vote"."photo_ratings" r
          FULL JOIN (SELECT "photo_id", COUNT(*) AS "n", SUM("rating") AS "s" FROM "vote"."photo_votes" GROUP BY "photo_id") v ON v."photo_id" = r."photo_id"
          WHERE COALESCE(r."vote_count", 0) <> COALESCE(v."n", 0) OR COALESCE(r."rating_sum", 0) <> COALESCE(v."s", 0)`,
  },
  {
    name: 'vote.photo_ratings version ≥ vote_count',
    sql: `SELECT format('photo %s: version %s < %s votes', "photo_id", "version", "vote_count") AS "detail" FROM "vote"."photo_ratings" WHERE "version" < "vote_count"`,
  },
  {
    name: 'photo.ratings rating_version = vote.photo_ratings version',
    sql: `SELECT format('photo %s: rating_version %s, vote totals version %s', p."photo_id", p."rating_version", r."version") AS "detail"
          FROM "photo"."ratings" p LEFT JOIN "vote"."photo_ratings" r ON r."photo_id" = p."photo_id"
          WHERE p."rating_version" <> COALESCE(r."version", 0)`,
  },
  {
    name: 'photo.photo_raters = (member, photo) of every vote',
    sql: `SELECT format('%s: member %s, photo %s', "side", "user_id", "photo_id") AS "detail" FROM (
            (SELECT 'rater without a vote' AS "side", "user_id", "photo_id"::bigint FROM "photo"."photo_raters"
             EXCEPT SELECT 'rater without a vote', "user_id", "photo_id" FROM "vote"."photo_votes")
            UNION ALL
            (SELECT 'vote without a rater', "user_id", "photo_id" FROM "vote"."photo_votes"
             EXCEPT SELECT 'vote without a rater', "user_id", "photo_id"::bigint FROM "photo"."photo_raters")) d`,
  },
  {
    name: 'photo.approved_per_day = approved photos by UTC day',
    sql: `SELECT format('%s: approved_per_day %s, photos %s', COALESCE(a."day", c."day"), a."approved", c."n") AS "detail"
          FROM "photo"."approved_per_day" a
          FULL JOIN (SELECT ("approved_at" AT TIME ZONE 'UTC')::date AS "day", COUNT(*) AS "n" FROM "photo"."photos"
                     WHERE "status" = 'approved' AND "approved_at" IS NOT NULL GROUP BY 1) c ON c."day" = a."day"
          WHERE COALESCE(a."approved", 0) <> COALESCE(c."n", 0)`,
  },
  {
    name: 'photo.member_gallery_counts = approved photos owned, ratings, ratings of photos not approved or their own',
    sql: `SELECT format('member %s: counts %s/%s/%s, rows %s/%s/%s', COALESCE(m."user_id", t."user_id"), m."owned", m."rated", m."unlisted", t."owned", t."rated", t."unlisted") AS "detail"
          FROM "photo"."member_gallery_counts" m
          FULL JOIN (SELECT "user_id", SUM("owned") AS "owned", SUM("rated") AS "rated", SUM("unlisted") AS "unlisted" FROM (
                       SELECT "user_id", 1 AS "owned", 0 AS "rated", 0 AS "unlisted" FROM "photo"."photos" WHERE "status" = 'approved'
                       UNION ALL
                       SELECT x."user_id", 0, 1, CASE WHEN p."status" = 'approved' AND p."user_id" <> x."user_id" THEN 0 ELSE 1 END
                       FROM "photo"."photo_raters" x LEFT JOIN "photo"."photos" p ON p."id" = x."photo_id") r GROUP BY "user_id") t ON t."user_id" = m."user_id"
          WHERE COALESCE(m."owned", 0) <> COALESCE(t."owned", 0) OR COALESCE(m."rated", 0) <> COALESCE(t."rated", 0)
             OR COALESCE(m."unlisted", 0) <> COALESCE(t."unlisted", 0)`,
  },
  {
    name: 'photo.ratings score = photo_score of its totals under the prior, approved photos',
    sql: `SELECT format('photo %s: score %s, photo_score %s', r."photo_id", r."score", s."score") AS "detail"
          FROM "photo"."ratings" r CROSS JOIN "photo"."gallery_prior" g
          CROSS JOIN LATERAL (SELECT "photo"."photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean") AS "score") s
          WHERE g."id" = 1 AND r."approved_at" IS NOT NULL AND abs(r."score" - s."score") > 1e-9`,
  },
  {
    name: 'photo.gallery_prior mean = mean vote on approved photos (±0.01)',
    sql: `SELECT format('prior mean %s, votes'' mean %s', g."mean", o."mean") AS "detail"
          FROM (SELECT 1 AS "id") one LEFT JOIN "photo"."gallery_prior" g ON g."id" = one."id"
          CROSS JOIN (SELECT SUM("rating_sum")::float8 / NULLIF(SUM("vote_count"), 0) AS "mean" FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL) o
          WHERE g."id" IS NULL OR (o."mean" IS NOT NULL AND abs(g."mean" - o."mean") >= 0.01)`,
  },
  {
    name: 'vote.votable_photos = photos (owner, approved, version)',
    sql: `SELECT format('photo %s: %s', COALESCE(p."id", v."photo_id"),
                  CASE WHEN v."photo_id" IS NULL THEN 'missing' WHEN p."id" IS NULL THEN 'no such photo, yet not a tombstone'
                       ELSE format('owner %s/%s approved %s/%s deleted %s version %s/%s', v."owner_id", p."user_id", v."approved", p."status", v."deleted", v."version", p."version") END) AS "detail"
          FROM "photo"."photos" p FULL JOIN "vote"."votable_photos" v ON v."photo_id" = p."id"
          WHERE (p."id" IS NULL AND NOT v."deleted") OR v."photo_id" IS NULL
             OR (p."id" IS NOT NULL AND (v."owner_id" <> p."user_id" OR v."approved" <> (p."status" = 'approved') OR v."deleted" OR v."version" <> p."version"))`,
  },
  {
    name: 'votes only on approved photos, never on one’s own',
    sql: `SELECT format('vote %s: member %s on photo %s (%s, owner %s)', v."id", v."user_id", v."photo_id", COALESCE(p."status"::text, 'no photo'), p."user_id") AS "detail"
          FROM "vote"."photo_votes" v LEFT JOIN "photo"."photos" p ON p."id" = v."photo_id"
          WHERE p."id" IS NULL OR p."status" <> 'approved' OR p."user_id" = v."user_id"`,
  },
  {
    name: 'photo.uploaders = auth.users names',
    sql: `SELECT format('member %s: %s', COALESCE(u."id", x."id"), CASE WHEN x."id" IS NULL THEN 'no uploader row' WHEN u."id" IS NULL THEN 'uploader of no member' ELSE 'names or updated_at differ' END) AS "detail"
          FROM "auth"."users" u FULL JOIN "photo"."uploaders" x ON x."id" = u."id"
          WHERE u."id" IS NULL OR x."id" IS NULL
             OR (u."first_name", u."last_name", u."display_name", u."profile_image_url", u."custom_profile_image", u."updated_at")
                IS DISTINCT FROM (x."first_name", x."last_name", x."display_name", x."profile_image_url", x."custom_profile_image", x."updated_at")`,
  },
  {
    name: 'seeded members enabled, terms accepted',
    sql: `SELECT format('member %s', "email") AS "detail" FROM "auth"."users"
          WHERE "email" LIKE '%@seed.snapcracks.test' AND NOT ("is_enabled" AND "has_accepted_terms" AND "terms_accepted_at" IS NOT NULL)`,
  },
  {
    name: 'every review has its moderation action',
    sql: `SELECT format('photo %s (%s) has no action', p."id", p."status") AS "detail" FROM "photo"."photos" p
          WHERE p."status" <> 'pending' AND NOT EXISTS (
            SELECT 1 FROM "moderation"."moderation_actions" m
            WHERE m."photo_id" = p."id" AND m."action" = CASE WHEN p."status" = 'approved' THEN 'approve' ELSE 'reject' END)`,
  },
  {
    name: 'image keys are storage.blobs (etag, size)',
    sql: `SELECT format('photo %s: %s %s', p."id", i."kind", i."key") AS "detail"
          FROM "photo"."photos" p
          CROSS JOIN LATERAL (VALUES ('original', p."original_key", p."original_etag", p."original_size"),
                                     ('display', p."display_key", p."display_etag", p."display_size"),
                                     ('medium', p."medium_key", p."medium_etag", p."medium_size"),
                                     ('thumbnail', p."thumbnail_key", p."thumbnail_etag", p."thumbnail_size")) i("kind", "key", "etag", "size")
          LEFT JOIN "storage"."blobs" b ON b."key" = i."key"
          WHERE i."key" IS NULL OR b."key" IS NULL OR b."etag" <> i."etag" OR b."size" <> i."size"`,
  },
];

async function runCheck(client: Client, check: CheckQuery): Promise<Check> {
  const { rows } = await client.query<{ mismatches: string; sample: string[] | null }>(
    `SELECT COUNT(*) AS "mismatches", (array_agg("detail") FILTER (WHERE "detail" IS NOT NULL))[1:3] AS "sample" FROM (${check.sql}) c`,
  );
  const mismatches = Number(rows[0]!.mismatches);
  return { name: check.name, ok: mismatches === 0, mismatches, sample: rows[0]!.sample ?? [] };
}

/** Runs every check in one read-only snapshot, so they all see the same moment. */
export async function verifyDatabase(databaseUrl: string): Promise<Check[]> {
  return withClient(databaseUrl, async (client) => {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    try {
      await client.query(`SET LOCAL work_mem = '128MB'`);
      const checks: Check[] = [];
      for (const check of [...CHECKS, ...STATS_CHECKS]) checks.push(await runCheck(client, check));
      return checks;
    } finally {
      await client.query('ROLLBACK');
    }
  });
}

export function printChecks(checks: Check[]): void {
  const width = Math.max(...checks.map((c) => c.name.length));
  for (const check of checks) {
    console.log(`${check.ok ? 'ok      ' : 'MISMATCH'}  ${check.name.padEnd(width)}  ${check.ok ? '' : `${count(check.mismatches)} rows`}`);
    for (const line of check.sample) console.log(`          ${line}`);
  }
  const failed = checks.filter((c) => !c.ok).length;
  console.log(failed ? `\n${failed} of ${checks.length} checks found mismatches` : `\nAll ${checks.length} checks agree`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { 'database-url': { type: 'string' } } });
  const databaseUrl = values['database-url'] ?? process.env.DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/snapcracks';
  const started = performance.now();
  const checks = await verifyDatabase(databaseUrl);
  printChecks(checks);
  console.log(`Checked in ${seconds(performance.now() - started)}`);
  process.exit(checks.some((c) => !c.ok) ? 1 : 0);
}
