import type { Database } from '@snapcracks/kit';
import { COUNTER_SHARDS, type PhotoRow, type Stars } from '../stats.projection.js';
import { toPhotoRow, type PhotoRecord } from '../projection.store.js';

/** A photo's row with its star counts and the totals' version they were read at (see the schema's stars_baseline). */
export interface RebuildRow extends PhotoRow {
  stars: Stars;
  starsBaseline: number;
}

/** What a rebuild's last step changed. */
export interface RebuildTotals {
  /** Photos that were known but are no longer in the photo service: now tombstones. */
  tombstoned: number;
  /** Owners now marked deleted because their account is gone. */
  ownersDeleted: number;
}

/**
 * The rebuild's writes, all inside the one transaction `rebuildTransaction` opens, so readers keep the previous figures
 * until it commits.
 */
export interface RebuildStore {
  /** The stored rows of these photos (locked by the transaction's table locks); missing ids are absent. */
  rows(photoIds: number[]): Promise<Map<number, RebuildRow>>;
  /** Writes whole rows (insert or replace). */
  write(rows: RebuildRow[]): Promise<void>;
  /** Records photos the photo service still has. */
  markSeen(photoIds: number[]): Promise<void>;
  /** Records accounts that still exist. */
  addUsers(userIds: string[]): Promise<void>;
  /**
   * Tombstones the photos known when the rebuild began that the photo service no longer has, then derives the
   * owners' figures and the community counters from the rows, as the consumers' differences would have left them.
   */
  finish(): Promise<RebuildTotals>;
}

/** The pg pool under the stats service's Prisma client (kit's Database.pool). */
export type Pool = Database<unknown>['pool'];
// pg's PoolClient, named through the pool's callback form of connect (the last overload) since pg is the kit's dependency.
type PoolClient = NonNullable<Parameters<Parameters<Pool['connect']>[0]>[1]>;
/** A pg connection (a pool's client) the transaction runs on. */
export type RebuildConnection = Pick<PoolClient, 'query'>;

// Consumers write these three tables only, and always lock a photo's row before the owners and a shard, so taking them
// in this order cannot deadlock with a consumer. EXCLUSIVE lets readers through (they see the previous figures until
// the commit) and makes every consumer wait: an event handled before the lock is in the sources' answers, which are
// read after it, and one handled after the commit applies on top by its version.
const LOCK_SQL = `LOCK TABLE "stats"."photos", "stats"."owners", "stats"."community_counters" IN EXCLUSIVE MODE`;

// Dropped at commit or rollback. `existing` is what the consumers had built when the lock was taken: only those rows
// can be tombstoned, since a photo uploaded during the rebuild may be missing from a stream already past its id.
const STAGING_SQL = [
  `CREATE TEMP TABLE "rebuild_existing" ON COMMIT DROP AS SELECT "photo_id" FROM "stats"."photos" WHERE NOT "deleted"`,
  `CREATE TEMP TABLE "rebuild_seen" ("photo_id" bigint PRIMARY KEY) ON COMMIT DROP`,
  `CREATE TEMP TABLE "rebuild_users" ("user_id" text PRIMARY KEY) ON COMMIT DROP`,
];

const ROW_COLUMNS = `"photo_id"::text AS "photo_id", "owner_id", "status"::text AS "status", "filename", "description", "created_at", "approved_at",
  "reviewed_at", "review_version"::text AS "review_version", "version"::text AS "version", "deleted", "vote_count", "rating_sum"::text AS "rating_sum",
  "rating_version"::text AS "rating_version", "stars_1", "stars_2", "stars_3", "stars_4", "stars_5", "stars_baseline"::text AS "stars_baseline"`;

// previous_* only serve the vote upsert's difference within its own statement: equal to the totals, they say "no change".
const WRITE_SQL = `
  INSERT INTO "stats"."photos" AS p ("photo_id", "owner_id", "status", "filename", "description", "created_at", "approved_at", "reviewed_at",
    "review_version", "version", "deleted", "vote_count", "rating_sum", "rating_version", "previous_vote_count", "previous_rating_sum",
    "stars_1", "stars_2", "stars_3", "stars_4", "stars_5", "stars_baseline")
  SELECT "photo_id", "owner_id", "status"::"stats"."PhotoStatus", "filename", "description", "created_at", "approved_at", "reviewed_at",
    "review_version", "version", "deleted", "vote_count", "rating_sum", "rating_version", "vote_count", "rating_sum",
    "stars_1", "stars_2", "stars_3", "stars_4", "stars_5", "stars_baseline"
  FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::timestamptz[], $7::timestamptz[], $8::timestamptz[], $9::bigint[],
    $10::bigint[], $11::boolean[], $12::int[], $13::bigint[], $14::bigint[], $15::int[], $16::int[], $17::int[], $18::int[], $19::int[], $20::bigint[])
    AS r("photo_id", "owner_id", "status", "filename", "description", "created_at", "approved_at", "reviewed_at", "review_version", "version",
      "deleted", "vote_count", "rating_sum", "rating_version", "stars_1", "stars_2", "stars_3", "stars_4", "stars_5", "stars_baseline")
  ON CONFLICT ("photo_id") DO UPDATE SET
    "owner_id" = EXCLUDED."owner_id", "status" = EXCLUDED."status", "filename" = EXCLUDED."filename", "description" = EXCLUDED."description",
    "created_at" = EXCLUDED."created_at", "approved_at" = EXCLUDED."approved_at", "reviewed_at" = EXCLUDED."reviewed_at",
    "review_version" = EXCLUDED."review_version", "version" = EXCLUDED."version", "deleted" = EXCLUDED."deleted",
    "vote_count" = EXCLUDED."vote_count", "rating_sum" = EXCLUDED."rating_sum", "rating_version" = EXCLUDED."rating_version",
    "previous_vote_count" = EXCLUDED."previous_vote_count", "previous_rating_sum" = EXCLUDED."previous_rating_sum",
    "stars_1" = EXCLUDED."stars_1", "stars_2" = EXCLUDED."stars_2", "stars_3" = EXCLUDED."stars_3", "stars_4" = EXCLUDED."stars_4",
    "stars_5" = EXCLUDED."stars_5", "stars_baseline" = EXCLUDED."stars_baseline"`;

const TOMBSTONE_SQL = `
  UPDATE "stats"."photos" p SET "deleted" = true
  FROM "rebuild_existing" e
  WHERE p."photo_id" = e."photo_id" AND NOT p."deleted" AND NOT EXISTS (SELECT 1 FROM "rebuild_seen" s WHERE s."photo_id" = p."photo_id")`;

// What each owner's rows count for (photo_figures), summed per owner that has an approved photo.
const OWNERS_SQL = [
  `UPDATE "stats"."owners" SET "approved_photos" = 0, "votes_received" = 0, "rating_sum_received" = 0
   WHERE "approved_photos" <> 0 OR "votes_received" <> 0 OR "rating_sum_received" <> 0`,
  `INSERT INTO "stats"."owners" AS o ("owner_id", "approved_photos", "votes_received", "rating_sum_received")
   SELECT p."owner_id", sum(f."approved_photos"), sum(f."votes_on_approved"), sum(f."rating_sum_on_approved")
   FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
   WHERE p."owner_id" IS NOT NULL
   GROUP BY p."owner_id" HAVING sum(f."approved_photos") > 0 ORDER BY p."owner_id"
   ON CONFLICT ("owner_id") DO UPDATE SET
     "approved_photos" = EXCLUDED."approved_photos", "votes_received" = EXCLUDED."votes_received",
     "rating_sum_received" = EXCLUDED."rating_sum_received"`,
];

// A deletion is final: an owner already marked stays deleted, and one whose account is gone becomes so.
const OWNERS_DELETED_SQL = `
  UPDATE "stats"."owners" o SET "deleted" = true
  WHERE NOT o."deleted" AND NOT EXISTS (SELECT 1 FROM "rebuild_users" u WHERE u."user_id" = o."owner_id")`;

// What the rows count for (photo_figures), summed per shard. Distinct uploaders are moved by owners' counts, in
// whichever shard a photo moved them, and only their sum is ever read: the rebuild puts them all in shard 0.
const COUNTERS_SQL = [
  `DELETE FROM "stats"."community_counters"`,
  `INSERT INTO "stats"."community_counters"
     ("shard", "photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders")
   SELECT s."shard", COALESCE(f."photos", 0), COALESCE(f."pending_photos", 0), COALESCE(f."approved_photos", 0),
          COALESCE(f."votes_on_approved", 0), COALESCE(f."rated_four_or_higher", 0),
          CASE WHEN s."shard" = 0 THEN (SELECT count(*) FROM "stats"."owners" WHERE "approved_photos" > 0) ELSE 0 END
   FROM generate_series(0, $1::int - 1) AS s("shard")
   LEFT JOIN (
     SELECT (p."photo_id" % $1::int)::int AS "shard", sum(x."photos") AS "photos", sum(x."pending_photos") AS "pending_photos",
            sum(x."approved_photos") AS "approved_photos", sum(x."votes_on_approved") AS "votes_on_approved",
            sum(x."rated_four_or_higher") AS "rated_four_or_higher"
     FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") x GROUP BY 1
   ) f USING ("shard")`,
];

interface StoredRow extends PhotoRecord {
  stars_1: number;
  stars_2: number;
  stars_3: number;
  stars_4: number;
  stars_5: number;
  stars_baseline: string;
}

/**
 * Runs `work` in one transaction holding the read models' tables (see LOCK_SQL), with the staging tables the store
 * uses; commits when it succeeds, rolls everything back otherwise.
 */
export async function rebuildTransaction<T>(client: RebuildConnection, work: (store: RebuildStore) => Promise<T>): Promise<T> {
  await client.query('BEGIN');
  try {
    await client.query(LOCK_SQL);
    for (const sql of STAGING_SQL) await client.query(sql);
    const result = await work(new PgRebuildStore(client));
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

class PgRebuildStore implements RebuildStore {
  constructor(private readonly client: RebuildConnection) {}

  async rows(photoIds: number[]): Promise<Map<number, RebuildRow>> {
    const { rows } = await this.client.query<StoredRow>(`SELECT ${ROW_COLUMNS} FROM "stats"."photos" WHERE "photo_id" = ANY($1::bigint[])`, [photoIds]);
    return new Map(rows.map((r) => [Number(r.photo_id), toRow(r)]));
  }

  async write(rows: RebuildRow[]): Promise<void> {
    if (rows.length === 0) return;
    const column = <V>(of: (row: RebuildRow) => V) => rows.map(of);
    await this.client.query(WRITE_SQL, [
      column((r) => r.photoId),
      column((r) => r.ownerId),
      column((r) => r.status),
      column((r) => r.filename),
      column((r) => r.description),
      column((r) => r.createdAt),
      column((r) => r.approvedAt),
      column((r) => r.reviewedAt),
      column((r) => r.reviewVersion),
      column((r) => r.version),
      column((r) => r.deleted),
      column((r) => r.voteCount),
      column((r) => r.ratingSum),
      column((r) => r.ratingVersion),
      ...[0, 1, 2, 3, 4].map((i) => column((r) => r.stars[i]!)),
      column((r) => r.starsBaseline),
    ]);
  }

  async markSeen(photoIds: number[]): Promise<void> {
    await this.client.query(`INSERT INTO "rebuild_seen" SELECT unnest($1::bigint[]) ON CONFLICT DO NOTHING`, [photoIds]);
  }

  async addUsers(userIds: string[]): Promise<void> {
    await this.client.query(`INSERT INTO "rebuild_users" SELECT unnest($1::text[]) ON CONFLICT DO NOTHING`, [userIds]);
  }

  async finish(): Promise<RebuildTotals> {
    const tombstoned = (await this.client.query(TOMBSTONE_SQL)).rowCount ?? 0;
    for (const sql of OWNERS_SQL) await this.client.query(sql);
    const ownersDeleted = (await this.client.query(OWNERS_DELETED_SQL)).rowCount ?? 0;
    for (const sql of COUNTERS_SQL) await this.client.query(sql, sql.includes('$1') ? [COUNTER_SHARDS] : []);
    return { tombstoned, ownersDeleted };
  }
}

function toRow(r: StoredRow): RebuildRow {
  return { ...toPhotoRow(r), stars: [r.stars_1, r.stars_2, r.stars_3, r.stars_4, r.stars_5], starsBaseline: Number(r.stars_baseline) };
}
