import type { BatchStatement, SqlClient } from '@snapcracks/kit';
import { shardOf, unknownPhoto, type PhotoRow, type PhotoStatus, type Stars, type VoteTotals } from './stats.projection.js';

/**
 * The projection, written by the consumers inside their transaction. A photo's row is locked, changed by the merge
 * rules (stats.projection.ts) and written back; what a row counts for is the stats schema's photo_figures (see its
 * migration), and every write moves the owners' figures and the community's counters by the difference of the row's
 * figures before and after, in the same statement, so the counters always equal the rows.
 */
export interface ProjectionStore {
  /** The photo's row, locked until the transaction ends; a new row of unknown status when there was none. */
  lockPhoto(photoId: number): Promise<PhotoRow>;
  /** Writes the row (locked by lockPhoto) and moves the owners' figures and its shard's counters, in one statement. */
  savePhoto(row: PhotoRow): Promise<void>;
  /**
   * The hot path, one statement for one vote event or a batch of them (the votes consumer), leaving what applying them
   * one by one would: each photo gets its newest totals unless the stored ones are as new (applyVoteTotals), and each
   * event's move between its star counts (starsMoveOf) unless a rebuild already counted it (starsMoveApplies), in one
   * new version of the photo's row (a new row of unknown status when the photo is not known yet), moving the figures
   * as savePhoto does.
   */
  applyVotes(votes: VoteChange[]): Promise<void>;
  /** Marks the account deleted (auth.user.deleted); its photos are the photo service's to delete. */
  markOwnerDeleted(ownerId: string): Promise<void>;
}

/** What one vote.vote.cast changes: its photo's totals after it, and the voter's move between star counts (none: null). */
export interface VoteChange {
  /** The event's id, by which the votes consumer's statement leaves out the events it handled before. */
  eventId: string;
  photoId: number;
  totals: VoteTotals;
  stars: Stars | null;
}

/** A stats.photos row as pg or Prisma returns it (bigint columns as bigint, string or number). */
export interface PhotoRecord {
  photo_id: bigint | string | number;
  owner_id: string | null;
  status: PhotoStatus | null;
  filename: string | null;
  description: string | null;
  created_at: Date | null;
  approved_at: Date | null;
  reviewed_at: Date | null;
  review_version: bigint | string | number;
  version: bigint | string | number;
  deleted: boolean;
  vote_count: number;
  rating_sum: bigint | string | number;
  rating_version: bigint | string | number;
}

const PHOTO_COLUMNS = `"photo_id", "owner_id", "status"::text AS "status", "filename", "description", "created_at", "approved_at", "reviewed_at",
  "review_version", "version", "deleted", "vote_count", "rating_sum", "rating_version"`;

// The common case (events about a photo already known) takes one round trip; the first event about a photo inserts
// its row, or waits for the transaction inserting it and locks that row (ON CONFLICT DO UPDATE locks the row even when
// it committed after this statement began, which a plain SELECT would not see).
const LOCK_PHOTO_SQL = `SELECT ${PHOTO_COLUMNS} FROM "stats"."photos" WHERE "photo_id" = $1::bigint FOR UPDATE`;
const INSERT_OR_LOCK_PHOTO_SQL = `
  INSERT INTO "stats"."photos" AS p ("photo_id") VALUES ($1::bigint)
  ON CONFLICT ("photo_id") DO UPDATE SET "photo_id" = p."photo_id"
  RETURNING ${PHOTO_COLUMNS}`;

// The row and the figures it moves in one statement (one round trip): the row as it was is read in the statement's
// snapshot, before its UPDATE, and the owners and the shard move by the difference of photo_figures before and after
// (none for an edit). Locks are taken photo (held since lockPhoto), owners (in id order), then the shard: the
// counters' INSERT reads the owners' new counts first, so it cannot lock the shard before them, and no two
// transactions ever wait on each other in a circle. An owner's count leaving or reaching zero moves
// distinct_uploaders; a shard nothing moves is left alone.
const SAVE_PHOTO_SQL = `
  WITH was AS (
    SELECT p."owner_id", f.* FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
    WHERE p."photo_id" = $1::bigint
  ), photo AS (
    UPDATE "stats"."photos" SET
      "owner_id" = $2, "status" = $3::text::"stats"."PhotoStatus", "filename" = $4, "description" = $5,
      "created_at" = $6::timestamptz, "approved_at" = $7::timestamptz, "reviewed_at" = $8::timestamptz, "review_version" = $9::bigint,
      "version" = $10::bigint, "deleted" = $11::boolean, "vote_count" = $12::int, "rating_sum" = $13::bigint, "rating_version" = $14::bigint
    WHERE "photo_id" = $1::bigint
    RETURNING "owner_id", "status", "deleted", "vote_count", "rating_sum"
  ), becomes AS (
    SELECT p."owner_id", f.* FROM photo p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f
  ), moved AS (
    SELECT "owner_id", sum("approved_photos")::int AS "delta", sum("votes_on_approved")::int AS "votes", sum("rating_sum_on_approved") AS "rating_sum"
    FROM (SELECT "owner_id", "approved_photos", "votes_on_approved", "rating_sum_on_approved" FROM becomes
          UNION ALL SELECT "owner_id", -"approved_photos", -"votes_on_approved", -"rating_sum_on_approved" FROM was) m
    WHERE "owner_id" IS NOT NULL
    GROUP BY "owner_id" HAVING sum("approved_photos") <> 0 OR sum("votes_on_approved") <> 0 OR sum("rating_sum_on_approved") <> 0
  ), owners AS (
    INSERT INTO "stats"."owners" AS o ("owner_id", "approved_photos", "votes_received", "rating_sum_received")
    SELECT "owner_id", "delta", "votes", "rating_sum" FROM moved ORDER BY "owner_id"
    ON CONFLICT ("owner_id") DO UPDATE SET
      "approved_photos" = o."approved_photos" + EXCLUDED."approved_photos",
      "votes_received" = o."votes_received" + EXCLUDED."votes_received",
      "rating_sum_received" = o."rating_sum_received" + EXCLUDED."rating_sum_received"
    RETURNING o."owner_id", o."approved_photos"
  ), shard AS (
    SELECT n."photos" - w."photos" AS "photos", n."pending_photos" - w."pending_photos" AS "pending_photos",
      n."approved_photos" - w."approved_photos" AS "approved_photos", n."votes_on_approved" - w."votes_on_approved" AS "votes_on_approved",
      n."rated_four_or_higher" - w."rated_four_or_higher" AS "rated_four_or_higher",
      COALESCE((SELECT sum((owners."approved_photos" > 0)::int - (owners."approved_photos" - moved."delta" > 0)::int)
                FROM owners JOIN moved USING ("owner_id")), 0) AS "distinct_uploaders"
    FROM becomes n, was w
  )
  INSERT INTO "stats"."community_counters" AS c
    ("shard", "photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders")
  SELECT $15::smallint, "photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders" FROM shard
  WHERE ("photos", "pending_photos", "approved_photos", "votes_on_approved", "rated_four_or_higher", "distinct_uploaders") <> (0, 0, 0, 0, 0, 0)
  ON CONFLICT ("shard") DO UPDATE SET
    "photos" = c."photos" + EXCLUDED."photos",
    "pending_photos" = c."pending_photos" + EXCLUDED."pending_photos",
    "approved_photos" = c."approved_photos" + EXCLUDED."approved_photos",
    "votes_on_approved" = c."votes_on_approved" + EXCLUDED."votes_on_approved",
    "rated_four_or_higher" = c."rated_four_or_higher" + EXCLUDED."rated_four_or_higher",
    "distinct_uploaders" = c."distinct_uploaders" + EXCLUDED."distinct_uploaders"`;

// The vote path in one statement, for one vote event or a batch of them: the rules of applyVoteTotals and
// starsMoveApplies in SQL (the projection tests hold the two to the same rows), and the figures moved as savePhoto
// moves them. Each photo is upserted once, into one new version of its row: its newest totals (of equal versions, the
// first, as applying the events in order would keep) unless the stored ones are as new, and the star moves of its
// events summed over those its row's baseline does not hold (a new row's is 0; a version of 0 is neither newer than
// any totals nor above any baseline, so such an event changes nothing). A row that neither changes is only locked.
// The upsert keeps the totals it replaces in previous_* (equal to the totals when they stay), so the counters and the
// owners' totals move by the exact difference of photo_figures at the previous totals and the new ones (a vote does
// not change the photo's status). Each owner's and each shard's moves are summed, so every owner and shard row
// changes once.
// The statement takes its locks itself, in the order every transaction keeps, so that two batches (replicas), or a
// batch and a photo event, never wait on each other in a circle: the photos in id order (the upsert's rows are sorted,
// and ON CONFLICT DO UPDATE locks each row, even one its WHERE leaves alone, or one a transaction committed after this
// statement began); then the owners in id order (their INSERT groups the photos' RETURNING rows, so it reads them all
// first); then the shards in order (their INSERT waits for the owners' result). Tested in votes.consumer.int.test.ts.
// `onlyRecorded`: the votes consumer's statement (consumeBatchesInOneStatement), which counts only the events its
// "recorded" list holds, the ones not handled before.
const applyVotesSql = ({ onlyRecorded }: { onlyRecorded: boolean }) => `
  WITH votes AS (
    SELECT * FROM unnest($1::bigint[], $2::int[], $3::bigint[], $4::bigint[], $5::smallint[], $6::int[], $7::int[], $8::int[], $9::int[], $10::int[], $11::uuid[])
      WITH ORDINALITY AS v("photo_id", "vote_count", "rating_sum", "version", "shard", "s1", "s2", "s3", "s4", "s5", "event_id", "n")
    WHERE "version" > 0${onlyRecorded ? ` AND "event_id" IN (SELECT "event_id" FROM "recorded")` : ''}
  ), photos AS (
    SELECT DISTINCT ON ("photo_id") "photo_id", "vote_count", "rating_sum", "version", "shard",
      sum("s1") OVER w AS "s1", sum("s2") OVER w AS "s2", sum("s3") OVER w AS "s3", sum("s4") OVER w AS "s4", sum("s5") OVER w AS "s5"
    FROM votes WINDOW w AS (PARTITION BY "photo_id")
    ORDER BY "photo_id", "version" DESC, "n"
  ), totals AS (
    INSERT INTO "stats"."photos" AS p ("photo_id", "vote_count", "rating_sum", "rating_version", "stars_1", "stars_2", "stars_3", "stars_4", "stars_5")
    SELECT "photo_id", "vote_count", "rating_sum", "version", "s1", "s2", "s3", "s4", "s5" FROM photos ORDER BY "photo_id"
    ON CONFLICT ("photo_id") DO UPDATE SET
      "previous_vote_count" = p."vote_count", "previous_rating_sum" = p."rating_sum",
      "vote_count" = CASE WHEN p."rating_version" < EXCLUDED."rating_version" THEN EXCLUDED."vote_count" ELSE p."vote_count" END,
      "rating_sum" = CASE WHEN p."rating_version" < EXCLUDED."rating_version" THEN EXCLUDED."rating_sum" ELSE p."rating_sum" END,
      "rating_version" = GREATEST(p."rating_version", EXCLUDED."rating_version"),
      ("stars_1", "stars_2", "stars_3", "stars_4", "stars_5") = (
        SELECT p."stars_1" + COALESCE(sum(v."s1"), 0), p."stars_2" + COALESCE(sum(v."s2"), 0), p."stars_3" + COALESCE(sum(v."s3"), 0),
               p."stars_4" + COALESCE(sum(v."s4"), 0), p."stars_5" + COALESCE(sum(v."s5"), 0)
        FROM votes v WHERE v."photo_id" = p."photo_id" AND v."version" > p."stars_baseline")
    WHERE p."rating_version" < EXCLUDED."rating_version"
      OR EXISTS (SELECT FROM votes v WHERE v."photo_id" = p."photo_id" AND v."version" > p."stars_baseline"
                   AND (v."s1", v."s2", v."s3", v."s4", v."s5") <> (0, 0, 0, 0, 0))
    RETURNING p."photo_id", p."owner_id", p."status", p."deleted", p."vote_count", p."rating_sum", p."previous_vote_count", p."previous_rating_sum"
  ), moves AS (
    SELECT t."photo_id", t."owner_id", n."votes_on_approved" - w."votes_on_approved" AS "votes",
      n."rating_sum_on_approved" - w."rating_sum_on_approved" AS "rating_sum", n."rated_four_or_higher" - w."rated_four_or_higher" AS "rated"
    FROM totals t,
      "stats"."photo_figures"(t."status", t."deleted", t."vote_count", t."rating_sum") n,
      "stats"."photo_figures"(t."status", t."deleted", t."previous_vote_count", t."previous_rating_sum") w
  ), owner AS (
    INSERT INTO "stats"."owners" AS o ("owner_id", "votes_received", "rating_sum_received")
    SELECT "owner_id", sum("votes"), sum("rating_sum") FROM moves WHERE "owner_id" IS NOT NULL
    GROUP BY "owner_id" HAVING sum("votes") <> 0 OR sum("rating_sum") <> 0 ORDER BY "owner_id"
    ON CONFLICT ("owner_id") DO UPDATE SET
      "votes_received" = o."votes_received" + EXCLUDED."votes_received",
      "rating_sum_received" = o."rating_sum_received" + EXCLUDED."rating_sum_received"
    RETURNING o."owner_id"
  ), shards AS (
    INSERT INTO "stats"."community_counters" AS c ("shard", "votes_on_approved", "rated_four_or_higher")
    SELECT ph."shard", sum(m."votes"), sum(m."rated") FROM moves m JOIN photos ph ON ph."photo_id" = m."photo_id"
    WHERE (SELECT count(*) FROM owner) >= 0
    GROUP BY ph."shard" HAVING sum(m."votes") <> 0 OR sum(m."rated") <> 0 ORDER BY ph."shard"
    ON CONFLICT ("shard") DO UPDATE SET
      "votes_on_approved" = c."votes_on_approved" + EXCLUDED."votes_on_approved",
      "rated_four_or_higher" = c."rated_four_or_higher" + EXCLUDED."rated_four_or_higher"
  )
  SELECT count(*)::int AS "photos" FROM totals`;
const APPLY_VOTES_SQL = applyVotesSql({ onlyRecorded: false });
const APPLY_RECORDED_VOTES_SQL = applyVotesSql({ onlyRecorded: true });

/** The statement's values: the changes column by column. */
function applyVotesValues(votes: VoteChange[]): unknown[] {
  const star = (i: number) => votes.map((v) => v.stars?.[i] ?? 0);
  return [
    votes.map((v) => v.photoId),
    votes.map((v) => v.totals.voteCount),
    votes.map((v) => v.totals.ratingSum),
    votes.map((v) => v.totals.version),
    votes.map((v) => shardOf(v.photoId)),
    star(0),
    star(1),
    star(2),
    star(3),
    star(4),
    votes.map((v) => v.eventId),
  ];
}

/**
 * applyVotes as the votes consumer's one statement a batch (consumeBatchesInOneStatement with `deduplicate`): the same
 * changes, of the events the kit records in the same statement as handled, which were not before. Null for none.
 */
export function applyRecordedVotesStatement(votes: VoteChange[]): BatchStatement | null {
  return votes.length === 0 ? null : { text: APPLY_RECORDED_VOTES_SQL, values: applyVotesValues(votes) };
}

/**
 * The projection inside a consumer's transaction, on raw SQL only, so that any transaction's client will do: Prisma's
 * for the photo and user events, the pool's for the votes consumer's batches.
 */
export class SqlProjectionStore implements ProjectionStore {
  constructor(private readonly db: SqlClient) {}

  async lockPhoto(photoId: number): Promise<PhotoRow> {
    const [found] = await this.db.$queryRawUnsafe<PhotoRecord[]>(LOCK_PHOTO_SQL, photoId);
    if (found) return toPhotoRow(found);
    const [created] = await this.db.$queryRawUnsafe<PhotoRecord[]>(INSERT_OR_LOCK_PHOTO_SQL, photoId);
    return created ? toPhotoRow(created) : unknownPhoto(photoId);
  }

  async savePhoto(row: PhotoRow): Promise<void> {
    await this.db.$executeRawUnsafe(
      SAVE_PHOTO_SQL,
      row.photoId,
      row.ownerId,
      row.status,
      row.filename,
      row.description,
      row.createdAt,
      row.approvedAt,
      row.reviewedAt,
      row.reviewVersion,
      row.version,
      row.deleted,
      row.voteCount,
      row.ratingSum,
      row.ratingVersion,
      shardOf(row.photoId),
    );
  }

  async applyVotes(votes: VoteChange[]): Promise<void> {
    if (votes.length === 0) return;
    await this.db.$queryRawUnsafe(APPLY_VOTES_SQL, ...applyVotesValues(votes));
  }

  async markOwnerDeleted(ownerId: string): Promise<void> {
    await this.db.$executeRawUnsafe(
      `INSERT INTO "stats"."owners" ("owner_id", "deleted") VALUES ($1, true) ON CONFLICT ("owner_id") DO UPDATE SET "deleted" = true`,
      ownerId,
    );
  }
}

/** The projection's row from a stats.photos row; the rebuild reads the same columns and more. */
export function toPhotoRow(r: PhotoRecord): PhotoRow {
  return {
    photoId: Number(r.photo_id),
    ownerId: r.owner_id,
    status: r.status,
    filename: r.filename,
    description: r.description,
    createdAt: r.created_at,
    approvedAt: r.approved_at,
    reviewedAt: r.reviewed_at,
    reviewVersion: Number(r.review_version),
    version: Number(r.version),
    deleted: r.deleted,
    voteCount: r.vote_count,
    ratingSum: Number(r.rating_sum),
    ratingVersion: Number(r.rating_version),
  };
}
