import type { PrismaClient } from './generated/prisma/client.js';
import type { Stars } from './stats.projection.js';

/** The community's figures, summed over the counter shards. */
export interface CommunityFigures {
  photos: number;
  pendingPhotos: number;
  approvedPhotos: number;
  votesOnApproved: number;
  ratedFourOrHigher: number;
  distinctUploaders: number;
}

/** Photos whose review decision was taken in [from, to) and that still have the status it gave them. */
export interface ReviewedCounts {
  approved: number;
  rejected: number;
}

/** One of a member's approved photos that received votes. */
export interface RatedPhotoRecord {
  id: number;
  filename: string;
  description: string | null;
  voteCount: number;
  ratingSum: number;
}

/** A member's photos (known status, not deleted), counted from their rows. */
export interface MemberPhotoFigures {
  total: number;
  approved: number;
  pending: number;
  rejected: number;
  /** Photos of any status uploaded in [from, to). */
  uploadedBetween: number;
  /** Votes on the approved photos, and their ratings' sum. */
  votes: number;
  ratingSum: number;
  /** The same over the `recent` latest approved photos (by approval time, then newest id). */
  recentVotes: number;
  recentRatingSum: number;
  /** The votes on the approved photos per rating, 1 star first; they sum to `votes`. */
  stars: Stars;
  /** The approved photos with votes of highest and lowest average (see the queries for ties); null when none. */
  highest: RatedPhotoRecord | null;
  lowest: RatedPhotoRecord | null;
}

/** Where a member stands among active members: owners with an approved photo whose account is not deleted. */
export interface MemberStanding {
  /** The member's own figures in `owners` (zero when they have no row, or their account is deleted). */
  approvedPhotos: number;
  votes: number;
  ratingSum: number;
  activeMembers: number;
  /** Active members with more approved photos than the member. */
  withMoreApproved: number;
  /** Active members with at least `minVotes` votes whose average (ratings' sum / votes) is higher than the member's. */
  withBetterAverage: number;
}

/** What the stats service reads. */
export interface StatsRepository {
  /** The figures the consumers keep (a sum over the counter shards). */
  communityFigures(): Promise<CommunityFigures>;
  /**
   * The same figures counted from the photo rows (a full scan, never on a request path): what a rebuild of the counters
   * would store, and what the counters are checked against.
   */
  countFiguresFromRows(): Promise<CommunityFigures>;
  reviewedBetween(from: Date, to: Date): Promise<ReviewedCounts>;
  /** One member's photo figures: an index range scan on (owner_id, created_at), a few rows per member. */
  memberPhotos(ownerId: string, options: { uploadedFrom: Date; uploadedTo: Date; recent: number }): Promise<MemberPhotoFigures>;
  /** One pass over `owners` (one narrow row per member). */
  memberStanding(ownerId: string, options: { minVotes: number }): Promise<MemberStanding>;
}

const COMMUNITY_FIGURES_SQL = `
  SELECT COALESCE(sum("photos"), 0)::float8 AS "photos", COALESCE(sum("pending_photos"), 0)::float8 AS "pending_photos",
         COALESCE(sum("approved_photos"), 0)::float8 AS "approved_photos", COALESCE(sum("votes_on_approved"), 0)::float8 AS "votes_on_approved",
         COALESCE(sum("rated_four_or_higher"), 0)::float8 AS "rated_four_or_higher", COALESCE(sum("distinct_uploaders"), 0)::float8 AS "distinct_uploaders"
  FROM "stats"."community_counters"`;

// What every row counts for (photo_figures), summed.
const COUNT_FIGURES_FROM_ROWS_SQL = `
  SELECT COALESCE(sum(f."photos"), 0)::float8 AS "photos", COALESCE(sum(f."pending_photos"), 0)::float8 AS "pending_photos",
         COALESCE(sum(f."approved_photos"), 0)::float8 AS "approved_photos", COALESCE(sum(f."votes_on_approved"), 0)::float8 AS "votes_on_approved",
         COALESCE(sum(f."rated_four_or_higher"), 0)::float8 AS "rated_four_or_higher",
         count(DISTINCT p."owner_id") FILTER (WHERE f."approved_photos" > 0)::float8 AS "distinct_uploaders"
  FROM "stats"."photos" p, "stats"."photo_figures"(p."status", p."deleted", p."vote_count", p."rating_sum") f`;

// Two index range scans on (status, reviewed_at).
const REVIEWED_BETWEEN_SQL = `
  SELECT count(*) FILTER (WHERE "status" = 'approved')::int AS "approved", count(*) FILTER (WHERE "status" = 'rejected')::int AS "rejected"
  FROM "stats"."photos"
  WHERE "status" IN ('approved', 'rejected') AND "reviewed_at" >= $1::timestamptz AND "reviewed_at" < $2::timestamptz AND NOT "deleted"`;

// A member's photos once (the CTE is read several times, so PostgreSQL materialises it), from the (owner_id,
// created_at) index. Averages are compared as float8: IEEE division is correctly rounded, so equal fractions (2/4 and
// 3/6) give equal numbers. Ties of the highest: more votes, then the newer approval, then the newer photo; of the
// lowest: more votes (the surer low), then the newer approval, then the newer photo.
const MEMBER_PHOTOS_SQL = `
  WITH mine AS (
    SELECT "photo_id", "status", "created_at", "approved_at", "filename", "description", "vote_count", "rating_sum",
           "stars_1", "stars_2", "stars_3", "stars_4", "stars_5"
    FROM "stats"."photos"
    WHERE "owner_id" = $1 AND "status" IS NOT NULL AND NOT "deleted"
  ), recent AS (
    SELECT "vote_count", "rating_sum" FROM mine WHERE "status" = 'approved'
    ORDER BY "approved_at" DESC NULLS LAST, "photo_id" DESC LIMIT $4
  ), rated AS (
    SELECT "photo_id", "filename", "description", "vote_count", "rating_sum", "approved_at",
           "rating_sum"::float8 / "vote_count" AS "average"
    FROM mine WHERE "status" = 'approved' AND "vote_count" > 0
  )
  SELECT count(*)::int AS "total",
         count(*) FILTER (WHERE "status" = 'approved')::int AS "approved",
         count(*) FILTER (WHERE "status" = 'pending')::int AS "pending",
         count(*) FILTER (WHERE "status" = 'rejected')::int AS "rejected",
         count(*) FILTER (WHERE "created_at" >= $2::timestamptz AND "created_at" < $3::timestamptz)::int AS "uploaded_between",
         COALESCE(sum("vote_count") FILTER (WHERE "status" = 'approved'), 0)::float8 AS "votes",
         COALESCE(sum("rating_sum") FILTER (WHERE "status" = 'approved'), 0)::float8 AS "rating_sum",
         ARRAY[COALESCE(sum("stars_1") FILTER (WHERE "status" = 'approved'), 0), COALESCE(sum("stars_2") FILTER (WHERE "status" = 'approved'), 0),
               COALESCE(sum("stars_3") FILTER (WHERE "status" = 'approved'), 0), COALESCE(sum("stars_4") FILTER (WHERE "status" = 'approved'), 0),
               COALESCE(sum("stars_5") FILTER (WHERE "status" = 'approved'), 0)]::float8[] AS "stars",
         (SELECT COALESCE(sum("vote_count"), 0)::float8 FROM recent) AS "recent_votes",
         (SELECT COALESCE(sum("rating_sum"), 0)::float8 FROM recent) AS "recent_rating_sum",
         (SELECT json_build_object('id', "photo_id", 'filename', "filename", 'description', "description", 'voteCount', "vote_count", 'ratingSum', "rating_sum")
          FROM rated ORDER BY "average" DESC, "vote_count" DESC, "approved_at" DESC NULLS LAST, "photo_id" DESC LIMIT 1) AS "highest",
         (SELECT json_build_object('id', "photo_id", 'filename', "filename", 'description', "description", 'voteCount', "vote_count", 'ratingSum', "rating_sum")
          FROM rated ORDER BY "average" ASC, "vote_count" DESC, "approved_at" DESC NULLS LAST, "photo_id" DESC LIMIT 1) AS "lowest"
  FROM mine`;

// Three index-only range scans of the owners' partial indexes (see the migration owner_votes_received): the active
// members, those with more approved photos, and those ranked by average with a higher one. The vote minimum is written
// into the statement, as the index's predicate holds it, so that the planner can use the index.
const memberStandingSql = (minVotes: number) => `
  WITH me AS (
    SELECT "approved_photos", "votes_received", "rating_sum_received", "average_received"
    FROM "stats"."owners" WHERE "owner_id" = $1 AND NOT "deleted"
  )
  SELECT COALESCE((SELECT "approved_photos" FROM me), 0)::int AS "approved_photos",
         COALESCE((SELECT "votes_received" FROM me), 0)::int AS "votes",
         COALESCE((SELECT "rating_sum_received" FROM me), 0)::float8 AS "rating_sum",
         (SELECT count(*) FROM "stats"."owners" WHERE "approved_photos" > 0 AND NOT "deleted")::int AS "active_members",
         (SELECT count(*) FROM "stats"."owners" WHERE "approved_photos" > 0 AND NOT "deleted"
            AND "approved_photos" > (SELECT "approved_photos" FROM me))::int AS "with_more_approved",
         (SELECT count(*) FROM "stats"."owners" WHERE "votes_received" >= ${minVotes} AND "approved_photos" > 0 AND NOT "deleted"
            AND "average_received" > (SELECT "average_received" FROM me))::int AS "with_better_average"`;

interface MemberPhotosRecord {
  total: number;
  approved: number;
  pending: number;
  rejected: number;
  uploaded_between: number;
  votes: number;
  rating_sum: number;
  recent_votes: number;
  recent_rating_sum: number;
  stars: number[];
  highest: RatedPhotoJson | null;
  lowest: RatedPhotoJson | null;
}
interface RatedPhotoJson {
  id: number | string;
  filename: string | null;
  description: string | null;
  voteCount: number;
  ratingSum: number | string;
}

const toStars = (counts: number[]): Stars => [counts[0] ?? 0, counts[1] ?? 0, counts[2] ?? 0, counts[3] ?? 0, counts[4] ?? 0];

const toRatedPhoto = (json: RatedPhotoJson | null): RatedPhotoRecord | null =>
  json && { id: Number(json.id), filename: json.filename ?? '', description: json.description, voteCount: json.voteCount, ratingSum: Number(json.ratingSum) };

/** The read models as the service reads them: raw SQL through Prisma's client. */
export class PrismaStatsRepository implements StatsRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async communityFigures(): Promise<CommunityFigures> {
    return toFigures(await this.prisma.$queryRawUnsafe<FiguresRecord[]>(COMMUNITY_FIGURES_SQL));
  }

  async countFiguresFromRows(): Promise<CommunityFigures> {
    return toFigures(await this.prisma.$queryRawUnsafe<FiguresRecord[]>(COUNT_FIGURES_FROM_ROWS_SQL));
  }

  async reviewedBetween(from: Date, to: Date): Promise<ReviewedCounts> {
    const [row] = await this.prisma.$queryRawUnsafe<ReviewedCounts[]>(REVIEWED_BETWEEN_SQL, from, to);
    return { approved: row!.approved, rejected: row!.rejected };
  }

  async memberPhotos(ownerId: string, options: { uploadedFrom: Date; uploadedTo: Date; recent: number }): Promise<MemberPhotoFigures> {
    const [row] = await this.prisma.$queryRawUnsafe<MemberPhotosRecord[]>(MEMBER_PHOTOS_SQL, ownerId, options.uploadedFrom, options.uploadedTo, options.recent);
    const r = row!;
    return {
      total: r.total,
      approved: r.approved,
      pending: r.pending,
      rejected: r.rejected,
      uploadedBetween: r.uploaded_between,
      votes: r.votes,
      ratingSum: r.rating_sum,
      recentVotes: r.recent_votes,
      recentRatingSum: r.recent_rating_sum,
      stars: toStars(r.stars),
      highest: toRatedPhoto(r.highest),
      lowest: toRatedPhoto(r.lowest),
    };
  }

  async memberStanding(ownerId: string, options: { minVotes: number }): Promise<MemberStanding> {
    if (!Number.isSafeInteger(options.minVotes)) throw new Error(`minVotes must be an integer, got ${options.minVotes}`);
    const [row] = await this.prisma.$queryRawUnsafe<Record<string, number>[]>(memberStandingSql(options.minVotes), ownerId);
    const r = row!;
    return {
      approvedPhotos: r.approved_photos!,
      votes: r.votes!,
      ratingSum: r.rating_sum!,
      activeMembers: r.active_members!,
      withMoreApproved: r.with_more_approved!,
      withBetterAverage: r.with_better_average!,
    };
  }
}

type FiguresRecord = Record<'photos' | 'pending_photos' | 'approved_photos' | 'votes_on_approved' | 'rated_four_or_higher' | 'distinct_uploaders', number>;

function toFigures([row]: FiguresRecord[]): CommunityFigures {
  return {
    photos: row!.photos,
    pendingPhotos: row!.pending_photos,
    approvedPhotos: row!.approved_photos,
    votesOnApproved: row!.votes_on_approved,
    ratedFourOrHigher: row!.rated_four_or_higher,
    distinctUploaders: row!.distinct_uploaders,
  };
}
