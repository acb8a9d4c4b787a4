/**
 * Fills a Snap Cracks database with members, photos and votes in bulk SQL, through the services' own tables and with
 * every read model as the services would have left them after the same history of events:
 *
 * - auth.users: members who accepted the terms, enabled; the first of each run is an admin (who reviewed the photos).
 * - photo.uploaders: every member's names (auth.user.updated reached the photo service).
 * - photo.photos: ~85 % approved (approved_at over the last 90 days, more of them recent, some today), ~10 % pending
 *   (uploaded in the last three days), ~5 % rejected; photo.ratings, one row per photo: vote_count, rating_sum and
 *   rating_version equal to the votes, the score under the top-rated prior, approved_at while approved (what the
 *   migration's trigger and the ratings consumer would have left); approved_per_day counted; the prior's mean set to
 *   the mean of every vote on approved photos (what the photo service's refresh would store).
 * - Every photo points at one of a handful of real images made by storage's own pipeline (storage.blobs and files).
 * - vote.photo_votes (one per member and photo, never on one's own or an unapproved photo, some changed once),
 *   vote.photo_ratings (count, sum, version = one per cast), vote.votable_photos (every photo, by its version).
 * - photo.photo_raters: one row per vote. moderation.moderation_actions: one per review. vote.rater_figures: every
 *   voter's figures over all votes, as the vote service computes them.
 * - The stats service's projection and counters (stats.ts).
 *
 * Every random draw is a hash of the run's seed and the row's key, so a run is reproducible. One transaction: a
 * failed seed leaves nothing behind. Votes get popularity from a log-normal weight (higher for better and older
 * photos), ratings from a per-photo quality plus noise, rounded into 1–5, mean ≈ 3.4.
 */
import type { Client } from './db.js';
import { bulkInsert, count, migrate, quoteIdent, run, seconds, withClient } from './db.js';
import { removeImageFiles, storeImageSets, type ImageSet } from './images.js';
import { seedStats } from './stats.js';
import { replaceAllRaterFigures } from '../../services/vote/src/raters.repository.js';

export interface SeedOptions {
  databaseUrl: string;
  users: number;
  photos: number;
  votes: number;
  /** Seeds the random draws; the same seed and sizes give the same rows. */
  seed?: number;
  /** Seed even though the database already has photos (adds to them). */
  force?: boolean;
  /** Where storage keeps local blobs: STORAGE_DIR, by default `<DATA_DIR>/uploads`. */
  storageDir: string;
  /** How many distinct real images the photos share. */
  images?: number;
  /** Skip the VACUUM ANALYZE afterwards (a real database's autovacuum would have done it). */
  skipVacuum?: boolean;
  log?: (line: string) => void;
}

export interface StepTiming {
  step: string;
  rows: number;
  ms: number;
}

export interface SeedReport {
  timings: StepTiming[];
  totalMs: number;
  /** Mean rating of the votes this run cast. */
  meanRating: number;
  firstUser: number;
  firstPhotoId: number;
}

export class SeedRefusedError extends Error {}

/** The email of seeded member `n` (1-based, across runs); the development identity provider signs them in. */
export const seedEmail = (n: number) => `user-${n}@seed.snapcracks.test`;

const SEED_ISSUER = 'https://seed.snapcracks.test';
export const SHARE_APPROVED = 0.85;
export const SHARE_PENDING = 0.1;
const PRIOR_WEIGHT_DEFAULT = 5;

const FIRST_NAMES = ['Ada', 'Ben', 'Chloé', 'Dmitri', 'Ebru', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kwame', 'Lena', 'Mateo', 'Nadia', 'Oskar', 'Priya', 'Quinn', 'Rosa', 'Sven', 'Tariq', 'Uma', 'Viktor', 'Wen', 'Ximena', 'Yusuf', 'Zoë'];
const LAST_NAMES = ['Andersen', 'Bianchi', 'Costa', 'Dubois', 'Eriksen', 'Fischer', 'García', 'Haddad', 'Ivanova', 'Jensen', 'Kowalski', 'Lindqvist', 'Moreau', 'Nakamura', 'Okafor', 'Petrov', 'Quist', 'Rossi', 'Silva', 'Tanaka', 'Urquhart', 'Vasquez', 'Weber', 'Yilmaz', 'Zhang'];
const DESCRIPTIONS = [
  'Hairline crack across the pavement',
  'Spider-web cracks in an old wall',
  'A crack that looks like a river delta',
  'Dried mud, cracked in hexagons',
  'Frost heave split this kerb',
  'Crazing on a glazed tile',
  'The car park after winter',
  'Tree roots lifting the footpath',
  'A long crack along the seawall',
  'Alligator cracking on a country road',
  'Shrinkage cracks in fresh render',
  'Cracked paint on a wooden door',
  'Settlement crack above the window',
  'Broken slab by the bus stop',
  'Cracks filled with moss',
  'Lightning-shaped crack in the plaster',
];
const REJECTION_REASONS = ['Not a crack', 'Too blurry to see the crack', 'Shows a person’s face', 'Duplicate of another photo'];

/** Fills the database; the caller has made sure it exists. Runs the migrations first. */
export async function seedDatabase(options: SeedOptions): Promise<SeedReport> {
  const log = options.log ?? (() => undefined);
  const seed = options.seed ?? 1;
  const images = options.images ?? 8;
  for (const [name, value] of Object.entries({ users: options.users, photos: options.photos, votes: options.votes, images }) as [string, number][]) {
    if (!Number.isInteger(value) || value < (name === 'votes' ? 0 : 1)) throw new SeedRefusedError(`--${name} must be a whole number of at least ${name === 'votes' ? 0 : 1}`);
  }
  if (options.users < 2 && options.votes > 0) throw new SeedRefusedError('Votes need at least two users (nobody votes on their own photos)');

  const timings: StepTiming[] = [];
  const started = performance.now();
  const time = async (step: string, work: () => Promise<number>): Promise<number> => {
    const at = performance.now();
    const rows = await work();
    const ms = performance.now() - at;
    timings.push({ step, rows, ms });
    log(`  ${step.padEnd(46)} ${count(rows).padStart(11)} rows  ${seconds(ms).padStart(8)}`);
    return rows;
  };

  await time('migrations', async () => {
    await migrate(options.databaseUrl);
    return 0;
  });

  return withClient(options.databaseUrl, async (client) => {
    const { rows: existing } = await client.query<{ photos: string }>(`SELECT COUNT(*) AS "photos" FROM "photo"."photos"`);
    const existingPhotos = Number(existing[0]!.photos);
    if (existingPhotos > 0 && !options.force) {
      throw new SeedRefusedError(`The database already has ${count(existingPhotos)} photos; seed an empty one, or pass --force to add to them`);
    }

    let written: { sets: ImageSet[]; paths: string[] } = { sets: [], paths: [] };
    // The plan's temporary tables (a million votes) stay in memory; settable only before the first one is touched.
    await client.query(`SET temp_buffers = '1GB'`);
    await client.query('BEGIN');
    try {
      await client.query(`SET LOCAL synchronous_commit = off`);
      await client.query(`SET LOCAL work_mem = '256MB'`);
      await client.query(`SET LOCAL maintenance_work_mem = '512MB'`);
      // Compiling costs more than it saves on these one-off statements.
      await client.query(`SET LOCAL jit = off`);
      // The seed writes the services' tables directly, as of one moment.
      await client.query(`LOCK TABLE "photo"."photos", "vote"."photo_votes", "auth"."users" IN SHARE ROW EXCLUSIVE MODE`);
      const { rows: bases } = await client.query<{ user_base: number; photo_base: number; now: Date }>(
        `SELECT COALESCE((SELECT MAX(substring("email" from '^user-([0-9]+)@seed\\.snapcracks\\.test$')::int) FROM "auth"."users"), 0) AS "user_base",
                COALESCE((SELECT MAX("id") FROM "photo"."photos"), 0) AS "photo_base", date_trunc('milliseconds', now()) AS "now"`,
      );
      const { user_base: userBase, photo_base: photoBase, now } = bases[0]!;
      const context: SeedContext = { client, seed, userBase, photoBase, now, users: options.users, photos: options.photos, votes: options.votes };

      await time('storage.blobs (real images, storage pipeline)', async () => {
        written = await storeImageSets(client, options.storageDir, images, seed);
        return written.sets.length * 3;
      });
      await defineHelpers(context, written.sets);
      await time('plan: members', () => planUsers(context));
      await time('plan: photos', () => planPhotos(context));
      await time('plan: votes per photo', () => allocateVotes(context));
      await time('plan: votes', () => planVotes(context));

      await time('auth.users', () => insertUsers(context));
      await time('photo.uploaders', () => insertUploaders(context));
      await time('photo.gallery_prior (mean of the votes)', () => setPrior(context));
      await time('photo.photos', () => insertPhotos(context));
      await time('photo.ratings (score from the prior)', () => insertRatings(context));
      await time('photo.approved_per_day', () => countApproved(context));
      await time('photo.photo_raters', () =>
        bulkInsert(client, '"photo"."photo_raters"', `INSERT INTO "photo"."photo_raters" ("user_id", "photo_id") SELECT "user_id", "photo_id" FROM "seed_votes"`),
      );
      await time('vote.photo_votes', () =>
        bulkInsert(
          client,
          '"vote"."photo_votes"',
          `INSERT INTO "vote"."photo_votes" ("photo_id", "user_id", "rating", "previous_rating", "created_at", "updated_at")
           SELECT "photo_id", "user_id", "rating", "previous_rating", "created_at", "updated_at" FROM "seed_votes" ORDER BY "updated_at", "photo_id", "user_id"`,
        ),
      );
      await time('vote.photo_ratings', () =>
        bulkInsert(
          client,
          '"vote"."photo_ratings"',
          `INSERT INTO "vote"."photo_ratings" ("photo_id", "rating_sum", "vote_count", "version")
           SELECT "id", "rating_sum", "vote_count", "rating_version" FROM "seed_photos" WHERE "vote_count" > 0 ORDER BY "id"`,
        ),
      );
      await time('vote.votable_photos', () =>
        bulkInsert(
          client,
          '"vote"."votable_photos"',
          `INSERT INTO "vote"."votable_photos" ("photo_id", "owner_id", "approved", "deleted", "version")
           SELECT "id", "owner_id", "status" = 'approved', false, "version" FROM "seed_photos" ORDER BY "id"`,
        ),
      );
      await time('moderation.moderation_actions', () =>
        bulkInsert(
          client,
          '"moderation"."moderation_actions"',
          `INSERT INTO "moderation"."moderation_actions" ("id", "actor_id", "action", "photo_id", "reason", "photo_owner_id", "created_at")
           SELECT gen_random_uuid(), pg_temp.user_id($1), CASE WHEN "status" = 'approved' THEN 'approve' ELSE 'reject' END,
                  "id", "rejection_reason", "owner_id", "reviewed_at"
           FROM "seed_photos" WHERE "status" <> 'pending' ORDER BY "id"`,
          [userBase + 1],
        ),
      );
      await seedStats(context, time);
      // What the vote service computes at its first start, reading every vote: the seeded database starts with it.
      await time('vote.rater_figures (over every vote)', () => replaceAllRaterFigures(client));

      const { rows: mean } = await client.query<{ mean: number | null }>(`SELECT AVG("rating")::float8 AS "mean" FROM "seed_votes"`);
      await time('commit', async () => {
        await client.query('COMMIT');
        return 0;
      });
      if (!options.skipVacuum) await vacuum(client, time);
      const totalMs = performance.now() - started;
      log(`  ${'total'.padEnd(46)} ${''.padStart(11)}       ${seconds(totalMs).padStart(8)}`);
      return { timings, totalMs, meanRating: mean[0]!.mean ?? NaN, firstUser: userBase + 1, firstPhotoId: photoBase + 1 };
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      await removeImageFiles(options.storageDir, written.paths);
      throw error;
    }
  });
}

/** What every step needs: the connection in its transaction, and where this run's users and photos start. */
export interface SeedContext {
  client: Client;
  seed: number;
  /** Seeded members are numbered userBase + 1 … userBase + users. */
  userBase: number;
  /** Seeded photos get ids photoBase + 1 … photoBase + photos. */
  photoBase: number;
  now: Date;
  users: number;
  photos: number;
  votes: number;
}

export type Timer = (step: string, work: () => Promise<number>) => Promise<number>;

/**
 * Session-local helpers: uniform and normal draws from a hash of (key, salt) (inlined SQL functions, order-free and
 * reproducible), a seeded member's id, and the image sets as a table.
 */
async function defineHelpers(context: SeedContext, sets: ImageSet[]): Promise<void> {
  const { client, seed } = context;
  const salt = seed * 1000;
  await client.query(`
    CREATE FUNCTION pg_temp.u(k bigint, purpose int) RETURNS float8 LANGUAGE sql IMMUTABLE AS
      $$ SELECT ((hashint8extended(k, ${salt} + purpose) & 2147483647)::float8 + 0.5::float8) * (1::float8 / 2147483648::float8) $$;
    CREATE FUNCTION pg_temp.z(k bigint, purpose int) RETURNS float8 LANGUAGE sql IMMUTABLE AS
      $$ SELECT sqrt(-2::float8 * ln(pg_temp.u(k, purpose))) * cos(2::float8 * pi() * pg_temp.u(k, purpose + 500)) $$;
    CREATE FUNCTION pg_temp.user_id(n int) RETURNS text LANGUAGE sql IMMUTABLE AS
      $$ SELECT md5('${seed}:user:' || n)::uuid::text $$;
  `);
  await client.query(
    `CREATE TEMP TABLE "seed_images" ON COMMIT DROP AS
     SELECT * FROM json_to_recordset($1::json) AS x("idx" int, "original_key" text, "original_etag" text, "original_size" int, "original_type" text,
       "display_key" text, "display_etag" text, "display_size" int, "medium_key" text, "medium_etag" text, "medium_size" int,
       "thumbnail_key" text, "thumbnail_etag" text, "thumbnail_size" int, "width" int, "height" int, "source_size" int, "content_sha256" text,
       "perceptual_hash" text)`,
    [
      JSON.stringify(
        sets.map((s, idx) => ({
          idx,
          original_key: s.original.key,
          original_etag: s.original.etag,
          original_size: s.original.size,
          original_type: s.original.contentType,
          display_key: s.display.key,
          display_etag: s.display.etag,
          display_size: s.display.size,
          medium_key: s.medium.key,
          medium_etag: s.medium.etag,
          medium_size: s.medium.size,
          thumbnail_key: s.thumbnail.key,
          thumbnail_etag: s.thumbnail.etag,
          thumbnail_size: s.thumbnail.size,
          width: s.width,
          height: s.height,
          source_size: s.sourceSize,
          content_sha256: s.contentSha256,
          perceptual_hash: s.perceptualHash,
        })),
      ),
    ],
  );
}

const sqlTextArray = (values: string[]) => `ARRAY[${values.map((v) => `'${v.replaceAll("'", "''")}'`).join(', ')}]`;
/** `ARRAY[…][1 + floor(draw · n)]`: one of the values, by a draw in (0, 1). */
const pick = (values: string[], draw: string) => `(${sqlTextArray(values)})[1 + floor(${draw} * ${values.length})::int]`;

/** Members joined 100 to 400 days ago and accepted the terms minutes later; a fifth chose a display name. */
async function planUsers({ client, userBase, users, now }: SeedContext): Promise<number> {
  return run(
    client,
    `CREATE TEMP TABLE "seed_users" ON COMMIT DROP AS
     SELECT n, pg_temp.user_id(n) AS "id", 'user-' || n || '@seed.snapcracks.test' AS "email",
            ${pick(FIRST_NAMES, 'pg_temp.u(n, 1)')} AS "first_name", ${pick(LAST_NAMES, 'pg_temp.u(n, 2)')} AS "last_name",
            CASE WHEN pg_temp.u(n, 3) < 0.2 THEN ${pick(['cracks', 'concrete', 'fissure', 'pothole', 'asphalt', 'rubble'], 'pg_temp.u(n, 4)')} || '_' || n END AS "display_name",
            n = $1 + 1 AS "is_admin",
            date_trunc('milliseconds', $3::timestamptz - interval '100 days' - interval '300 days' * pg_temp.u(n, 5)) AS "created_at"
     FROM generate_series($1::int + 1, $1::int + $2::int) n`,
    [userBase, users, now],
  );
}

/**
 * Photos: owners drawn with a long tail (a few members upload most), status, times, image, and for approved ones a
 * quality (the mean of their ratings to come) and a popularity weight (more votes for better and older photos).
 */
async function planPhotos({ client, userBase, photoBase, users, photos, now }: SeedContext): Promise<number> {
  const rows = await run(
    client,
    `CREATE TEMP TABLE "seed_photos" ON COMMIT DROP AS
     WITH drawn AS (
       SELECT k, $1::int + k AS "id",
              $2::int + 1 + LEAST($3::int - 1, floor($3::int * power(pg_temp.u(k, 10), 2.5))::int) AS "owner_n",
              pg_temp.u(k, 11) AS "status_draw", pg_temp.u(k, 12) AS "age_draw", pg_temp.u(k, 13) AS "today_draw",
              pg_temp.u(k, 14) AS "delay_draw", pg_temp.z(k, 15) AS "z_quality", pg_temp.z(k, 16) AS "z_popularity",
              floor(pg_temp.u(k, 17) * (SELECT COUNT(*) FROM "seed_images"))::int AS "image_idx", pg_temp.u(k, 18) AS "text_draw",
              pg_temp.u(k, 19) AS "start_draw", pg_temp.u(k, 20) AS "step_draw"
       FROM generate_series(1, $4::int) k
     ), statused AS (
       SELECT *, CASE WHEN "status_draw" < ${SHARE_APPROVED} THEN 'approved' WHEN "status_draw" < ${SHARE_APPROVED + SHARE_PENDING} THEN 'pending' ELSE 'rejected' END AS "status",
              -- Reviewed over the last 90 days, more of them recently; one in 200 since midnight (UTC), so today has some.
              date_trunc('milliseconds', CASE WHEN "today_draw" < 0.005 THEN date_trunc('day', $5::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC'
                                                     + ($5::timestamptz - (date_trunc('day', $5::timestamptz AT TIME ZONE 'UTC') AT TIME ZONE 'UTC')) * "age_draw"
                                                ELSE $5::timestamptz - interval '90 days' * power("age_draw", 1.3) END) AS "reviewed"
       FROM drawn
     )
     SELECT k, s."id", "owner_n", u."id" AS "owner_id", "status", "image_idx", "text_draw", "start_draw", "step_draw",
            CASE WHEN "status" = 'pending' THEN date_trunc('milliseconds', $5::timestamptz - interval '3 days' * "age_draw")
                 ELSE date_trunc('milliseconds', "reviewed" - interval '10 minutes' - interval '36 hours' * power("delay_draw", 2)) END AS "created_at",
            CASE WHEN "status" <> 'pending' THEN "reviewed" END AS "reviewed_at",
            CASE WHEN "status" = 'approved' THEN "reviewed" END AS "approved_at",
            CASE WHEN "status" = 'rejected' THEN ${pick(REJECTION_REASONS, '"text_draw"')} END AS "rejection_reason",
            CASE WHEN "status" = 'pending' THEN 1 ELSE 2 END AS "version",
            3.1 + 0.6 * "z_quality" AS "quality",
            CASE WHEN "status" = 'approved'
                 THEN exp(0.9 * (0.6 * "z_quality" + 0.8 * "z_popularity")) * (0.3 + 0.7 * LEAST(1, extract(epoch FROM $5::timestamptz - "reviewed") / (14 * 86400)))
                 ELSE 0 END AS "weight",
            0 AS "vote_count", 0::bigint AS "rating_sum", 0::bigint AS "rating_version"
     FROM statused s JOIN "seed_users" u ON u.n = s."owner_n"`,
    [photoBase, userBase, users, photos, now],
  );
  await client.query(`ALTER TABLE "seed_photos" ADD PRIMARY KEY ("id")`);
  return rows;
}

/**
 * How many votes each approved photo gets: `votes` shared by weight (cumulative floors, so they add up), at most one
 * per other member; what a full photo cannot take goes, a vote at a time, to the most popular photos with room.
 */
async function allocateVotes({ client, users, votes }: SeedContext): Promise<number> {
  const cap = users - 1;
  await client.query(
    `WITH c AS (
       SELECT "id", SUM("weight") OVER (ORDER BY "id") AS "upto", COALESCE(SUM("weight") OVER (ORDER BY "id" ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING), 0) AS "before",
              SUM("weight") OVER () AS "total"
       FROM "seed_photos" WHERE "status" = 'approved')
     UPDATE "seed_photos" p SET "vote_count" = LEAST($2::int, floor($1::float8 * c."upto" / c."total") - floor($1::float8 * c."before" / c."total"))
     FROM c WHERE c."id" = p."id"`,
    [votes, cap],
  );
  for (;;) {
    const { rows } = await client.query<{ allocated: string }>(`SELECT COALESCE(SUM("vote_count"), 0) AS "allocated" FROM "seed_photos"`);
    const missing = votes - Number(rows[0]!.allocated);
    if (missing <= 0) break;
    const added = await run(
      client,
      `UPDATE "seed_photos" SET "vote_count" = "vote_count" + 1
       WHERE "id" IN (SELECT "id" FROM "seed_photos" WHERE "status" = 'approved' AND "vote_count" < $1 ORDER BY "weight" DESC, "id" LIMIT $2)`,
      [cap, missing],
    );
    if (added === 0) {
      const { rows: approved } = await client.query<{ n: string }>(`SELECT COUNT(*) AS "n" FROM "seed_photos" WHERE "status" = 'approved'`);
      throw new SeedRefusedError(`${count(votes)} votes do not fit: ${count(Number(approved[0]!.n))} approved photos and ${count(users)} members allow at most ${count(Number(approved[0]!.n) * cap)}`);
    }
  }
  const { rows } = await client.query<{ n: string }>(`SELECT COUNT(*) AS "n" FROM "seed_photos" WHERE "vote_count" > 0`);
  return Number(rows[0]!.n);
}

/** Steps coprime with `m`, so that start + i·step (mod m) visits m different members before repeating. */
function coprimeSteps(m: number): number[] {
  const gcd = (a: number, b: number): number => (b === 0 ? a : gcd(b, a % b));
  const steps = [1, 7, 13, 31, 101, 211, 1009, 4099, 8191].filter((s) => s < m && gcd(s, m) === 1);
  return steps.length ? steps : [1];
}

/**
 * The votes: photo p's i-th voter is member (owner + 1 + (start + i·step) mod (U − 1)) mod U, which for i < U − 1
 * are all different and never the owner. A rating is the photo's quality plus noise, rounded into 1–5; one vote in 20
 * was changed once (previous_rating, a later updated_at, one more version on the photo's totals).
 */
async function planVotes({ client, userBase, users, now }: SeedContext): Promise<number> {
  const steps = coprimeSteps(users - 1);
  const rows = await run(
    client,
    `CREATE TEMP TABLE "seed_votes" ON COMMIT DROP AS
     WITH drawn AS (
       SELECT p."id" AS "photo_id",
              $1::int + 1 + ((p."owner_n" - $1::int - 1) + 1 + ((floor(p."start_draw" * ($2::int - 1))::bigint + i::bigint * ($4::int[])[1 + floor(p."step_draw" * cardinality($4::int[]))::int]) % ($2::int - 1)))::int % $2::int AS "user_n",
              GREATEST(1, LEAST(5, round(p."quality" + 0.95 * pg_temp.z(p."id"::bigint * 4294967296 + i, 30))))::smallint AS "rating",
              pg_temp.u(p."id"::bigint * 4294967296 + i, 31) < 0.05 AS "changed",
              date_trunc('milliseconds', p."approved_at" + ($3::timestamptz - p."approved_at") * power(pg_temp.u(p."id"::bigint * 4294967296 + i, 32), 2)) AS "created_at",
              pg_temp.u(p."id"::bigint * 4294967296 + i, 33) AS "change_draw"
       FROM "seed_photos" p CROSS JOIN LATERAL generate_series(0, p."vote_count" - 1) i
       WHERE p."vote_count" > 0
     )
     SELECT d."photo_id", d."user_n", u."id" AS "user_id", d."rating", d."changed", d."created_at",
            CASE WHEN d."changed" THEN (CASE WHEN d."rating" = 5 THEN 4 WHEN d."rating" = 1 THEN 2 WHEN d."change_draw" < 0.5 THEN d."rating" - 1 ELSE d."rating" + 1 END)::smallint END AS "previous_rating",
            CASE WHEN d."changed" THEN date_trunc('milliseconds', d."created_at" + ($3::timestamptz - d."created_at") * d."change_draw") ELSE d."created_at" END AS "updated_at"
     FROM drawn d JOIN "seed_users" u ON u.n = d."user_n"`,
    [userBase, users, now, steps],
  );
  // The photos' totals, as vote.photo_ratings and the photo service's projection hold them: one version per cast.
  await client.query(
    `UPDATE "seed_photos" p SET "rating_sum" = a."sum", "rating_version" = a."casts"
     FROM (SELECT "photo_id", SUM("rating") AS "sum", COUNT(*) + COUNT(*) FILTER (WHERE "changed") AS "casts" FROM "seed_votes" GROUP BY "photo_id") a
     WHERE a."photo_id" = p."id"`,
  );
  return rows;
}

async function insertUsers({ client }: SeedContext): Promise<number> {
  return run(
    client,
    `INSERT INTO "auth"."users" ("id", "oidc_subject", "email", "first_name", "last_name", "profile_image_url", "display_name", "custom_profile_image",
                                 "is_admin", "is_enabled", "has_accepted_terms", "terms_accepted_at", "created_at", "updated_at")
     SELECT "id", $1::text || '|user-' || n, "email", "first_name", "last_name", NULL, "display_name", NULL, "is_admin", true, true,
            "created_at" + interval '3 minutes', "created_at", "created_at" + interval '3 minutes'
     FROM "seed_users" ORDER BY n`,
    [SEED_ISSUER],
  );
}

/** The photo service's copy of every member's names, as of their last auth.user.updated. */
async function insertUploaders({ client }: SeedContext): Promise<number> {
  return run(
    client,
    `INSERT INTO "photo"."uploaders" ("id", "first_name", "last_name", "display_name", "profile_image_url", "custom_profile_image", "updated_at")
     SELECT "id", "first_name", "last_name", "display_name", NULL, NULL, "created_at" + interval '3 minutes' FROM "seed_users" ORDER BY n`,
  );
}

/**
 * The top-rated prior's mean from every vote on approved photos, this run's and any before it, and the approved photos
 * already there rescored with it, as the photo service's refresh does. The ratings rows inserted next are scored with
 * it too.
 */
async function setPrior({ client }: SeedContext): Promise<number> {
  await client.query(
    `INSERT INTO "photo"."gallery_prior" ("id", "mean", "weight") VALUES (1, 3.0, ${PRIOR_WEIGHT_DEFAULT}) ON CONFLICT ("id") DO NOTHING`,
  );
  await client.query(
    `WITH totals AS (
       SELECT SUM("s") AS "s", SUM("n") AS "n" FROM (
         SELECT SUM("rating_sum") AS "s", SUM("vote_count") AS "n" FROM "photo"."ratings" WHERE "approved_at" IS NOT NULL
         UNION ALL SELECT SUM("rating_sum"), SUM("vote_count") FROM "seed_photos" WHERE "status" = 'approved') t)
     UPDATE "photo"."gallery_prior" g SET "mean" = COALESCE(totals."s"::float8 / NULLIF(totals."n", 0), g."mean"), "refreshed_at" = now()
     FROM totals WHERE g."id" = 1`,
  );
  return run(
    client,
    `UPDATE "photo"."ratings" r SET "score" = "photo"."photo_score"(r."vote_count", r."rating_sum", g."weight", g."mean")
     FROM "photo"."gallery_prior" g WHERE g."id" = 1 AND r."approved_at" IS NOT NULL`,
  );
}

/**
 * The photos. Their ratings rows (insertRatings) and approvals per day (countApproved) are written once afterwards in
 * bulk rather than by the row triggers, which would insert 100,000 ratings rows one at a time and update the same few
 * per-day rows 100,000 times. The previous release's rating columns of photos keep their defaults, as this release
 * leaves them.
 */
async function insertPhotos({ client, seed, userBase }: SeedContext): Promise<number> {
  await client.query(`ALTER TABLE "photo"."photos" DISABLE TRIGGER "photos_count_approved", DISABLE TRIGGER "photos_ratings"`);
  const rows = await bulkInsert(
    client,
    '"photo"."photos"',
    `INSERT INTO "photo"."photos" ("id", "user_id", "filename", "original_name", "mime_type", "size", "description", "status", "approved_by", "approved_at",
       "rejection_reason", "privacy_bars", "drive_file_id", "storage_type", "created_at", "updated_at", "original_key", "original_etag", "original_size",
       "original_type", "display_key", "display_etag", "display_size", "medium_key", "medium_etag", "medium_size", "thumbnail_key", "thumbnail_etag",
       "thumbnail_size", "width", "height", "image_version", "version", "content_sha256", "perceptual_hash", "reviewed_at")
     SELECT p."id", p."owner_id", md5($1 || ':photo:' || p."id") || '.webp', 'IMG_' || lpad((p."id" * 7919 % 10000)::text, 4, '0') || '.jpg', 'image/jpeg',
            i."source_size", CASE WHEN p."text_draw" < 0.9 THEN ${pick(DESCRIPTIONS, '(p."text_draw" / 0.9)')} END, p."status"::"photo"."PhotoStatus",
            CASE WHEN p."status" = 'approved' THEN pg_temp.user_id($2) END, p."approved_at", p."rejection_reason", NULL, NULL, 'local'::"photo"."StorageType",
            p."created_at", COALESCE(p."reviewed_at", p."created_at"), i."original_key", i."original_etag", i."original_size", i."original_type",
            i."display_key", i."display_etag", i."display_size", i."medium_key", i."medium_etag", i."medium_size", i."thumbnail_key", i."thumbnail_etag",
            i."thumbnail_size", i."width", i."height",
            1, p."version", i."content_sha256", i."perceptual_hash", p."reviewed_at"
     FROM "seed_photos" p JOIN "seed_images" i ON i."idx" = p."image_idx"
     ORDER BY p."id"`,
    [String(seed), userBase + 1],
  );
  await client.query(`ALTER TABLE "photo"."photos" ENABLE TRIGGER "photos_count_approved", ENABLE TRIGGER "photos_ratings"`);
  await client.query(`SELECT setval(pg_get_serial_sequence('"photo"."photos"', 'id'), (SELECT MAX("id") FROM "photo"."photos"))`);
  return rows;
}

/**
 * Each photo's ratings row: the totals of its votes with their version, as the ratings consumer would have set them, the
 * score under the prior setPrior stored, and the approval time while approved (what the disabled trigger keeps).
 */
async function insertRatings({ client }: SeedContext): Promise<number> {
  return bulkInsert(
    client,
    '"photo"."ratings"',
    `INSERT INTO "photo"."ratings" ("photo_id", "vote_count", "rating_sum", "rating_version", "score", "approved_at")
     SELECT p."id", p."vote_count", p."rating_sum", p."rating_version", "photo"."photo_score"(p."vote_count", p."rating_sum", g."weight", g."mean"),
            CASE WHEN p."status" = 'approved' THEN p."approved_at" END
     FROM "seed_photos" p CROSS JOIN "photo"."gallery_prior" g WHERE g."id" = 1
     ORDER BY p."id"`,
  );
}

/** What the disabled trigger would have added to approved_per_day, one row per day. */
async function countApproved({ client }: SeedContext): Promise<number> {
  return run(
    client,
    `INSERT INTO "photo"."approved_per_day" ("day", "approved")
     SELECT ("approved_at" AT TIME ZONE 'UTC')::date, COUNT(*) FROM "seed_photos" WHERE "status" = 'approved' GROUP BY 1
     ON CONFLICT ("day") DO UPDATE SET "approved" = "approved_per_day"."approved" + EXCLUDED."approved"`,
  );
}

const VACUUMED = [
  'auth.users',
  'photo.photos',
  'photo.ratings',
  'photo.uploaders',
  'photo.photo_raters',
  'photo.approved_per_day',
  'vote.photo_votes',
  'vote.photo_ratings',
  'vote.votable_photos',
  'vote.rater_figures',
  'moderation.moderation_actions',
  'storage.blobs',
];

/** What autovacuum would soon do on its own: planner statistics and the visibility map (index-only scans). */
async function vacuum(client: Client, time: Timer): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT 'stats.' || c.relname AS "name" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE c.relkind = 'r' AND n.nspname = 'stats'`,
  );
  await time('VACUUM ANALYZE', async () => {
    const tables = [...VACUUMED, ...rows.map((r) => r.name)];
    for (const table of tables) await client.query(`VACUUM (ANALYZE) ${table.split('.').map(quoteIdent).join('.')}`);
    return 0;
  });
}
