import type { ReportCategory } from '@snapcracks/http-contract';
import type { Prisma, PrismaClient } from './generated/prisma/client.js';
import type { ActionKind } from './moderation-action.repository.js';

/** The decisions an admin makes about a photo (not holds by reports, resubmissions, deletions or cleanups). */
export const DECISION_KINDS: readonly ActionKind[] = ['approve', 'reject', 'remove', 'reinstate', 'dismiss_reports'];

export interface AdminDecisionCount {
  adminId: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  count: number;
}

export interface CategoryCount {
  category: ReportCategory;
  total: number;
  open: number;
  dismissed: number;
  removed: number;
}

export interface ReporterRecord {
  userId: string;
  decided: number;
  dismissed: number;
}

export interface ReviewFiguresRepository {
  decisionsPerAdminPerDay(since: Date): Promise<AdminDecisionCount[]>;
  /**
   * The median wait from upload to a photo's first approval or rejection, over first decisions made since `since`
   * whose entry knows the upload time; with how many there were.
   */
  medianUploadToFirstDecision(since: Date): Promise<{ seconds: number | null; measured: number }>;
  reportsByCategory(since: Date): Promise<CategoryCount[]>;
  /** Reporters with at least `minDecided` decided reports of which at least `share` were dismissed, highest share first. */
  reportersMostlyDismissed(minDecided: number, share: number, limit: number): Promise<ReporterRecord[]>;
}

type Db = PrismaClient | Prisma.TransactionClient;

export class PrismaReviewFiguresRepository implements ReviewFiguresRepository {
  constructor(private readonly db: Db) {}

  async decisionsPerAdminPerDay(since: Date): Promise<AdminDecisionCount[]> {
    return this.db.$queryRaw<AdminDecisionCount[]>`
      SELECT "actor_id" AS "adminId", to_char("created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(*)::int AS count
      FROM "moderation"."moderation_actions"
      WHERE "created_at" >= ${since} AND "action" = ANY(${[...DECISION_KINDS]}::text[])
      GROUP BY 1, 2 ORDER BY 1, 2`;
  }

  async medianUploadToFirstDecision(since: Date): Promise<{ seconds: number | null; measured: number }> {
    // A photo's first decision only: an approval after a hold or a resubmission measures something else.
    const [row] = await this.db.$queryRaw<[{ seconds: number | null; measured: number }]>`
      SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY EXTRACT(EPOCH FROM a."created_at" - a."photo_uploaded_at"))::float8 AS seconds,
             COUNT(*)::int AS measured
      FROM "moderation"."moderation_actions" a
      WHERE a."created_at" >= ${since} AND a."action" IN ('approve', 'reject') AND a."photo_uploaded_at" IS NOT NULL
        AND NOT EXISTS (
          SELECT 1 FROM "moderation"."moderation_actions" e
          WHERE e."photo_id" = a."photo_id" AND e."created_at" < a."created_at" AND e."action" IN ('approve', 'reject', 'remove', 'reinstate'))`;
    return { seconds: row.seconds === null ? null : Number(row.seconds), measured: row.measured };
  }

  async reportsByCategory(since: Date): Promise<CategoryCount[]> {
    return this.db.$queryRaw<CategoryCount[]>`
      SELECT "category", COUNT(*)::int AS total,
             COUNT(*) FILTER (WHERE "status" = 'open')::int AS open,
             COUNT(*) FILTER (WHERE "status" = 'dismissed')::int AS dismissed,
             COUNT(*) FILTER (WHERE "status" = 'removed')::int AS removed
      FROM "moderation"."photo_reports" WHERE "created_at" >= ${since}
      GROUP BY "category"`;
  }

  async reportersMostlyDismissed(minDecided: number, share: number, limit: number): Promise<ReporterRecord[]> {
    return this.db.$queryRaw<ReporterRecord[]>`
      SELECT "reporter_id" AS "userId", COUNT(*)::int AS decided, COUNT(*) FILTER (WHERE "status" = 'dismissed')::int AS dismissed
      FROM "moderation"."photo_reports" WHERE "status" <> 'open'
      GROUP BY "reporter_id"
      HAVING COUNT(*) >= ${minDecided} AND COUNT(*) FILTER (WHERE "status" = 'dismissed') >= ${share}::float8 * COUNT(*)
      ORDER BY COUNT(*) FILTER (WHERE "status" = 'dismissed')::float8 / COUNT(*) DESC, COUNT(*) DESC, "reporter_id"
      LIMIT ${limit}`;
  }
}
