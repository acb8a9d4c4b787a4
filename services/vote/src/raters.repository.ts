import { RATERS } from '@snapcracks/http-contract';
import type { SqlClient } from '@snapcracks/kit';
import type { Pool } from './vote.repository.js';

export type RaterSort = (typeof RATERS.sorts)[number];

/** One voter's figures (see RATERS and docs/administration.md, Honest votes). */
export interface RaterFigures {
  userId: string;
  votes: number;
  voided: number;
  suspended: number;
  mean: number;
  spread: number;
  deviation: number | null;
  longestRun: number;
  bursts: number;
  score: number;
  lastVoteAt: Date;
}

export interface RaterVote {
  photoId: number;
  rating: number;
  castAt: Date;
  consensus: number | null;
  voidedAt: Date | null;
  voidedBy: string | null;
  voidReason: string | null;
  suspended: boolean;
}

export interface RaterAction {
  id: string;
  action: 'void' | 'restore';
  adminId: string;
  reason: string;
  votes: number;
  allVotes: boolean;
  at: Date;
}

const { burstSeconds, consensusMinVotes, confidentVotes, weights } = RATERS;

/**
 * Every voter's figures (or one voter's: `$1`), from their votes in the order cast and each photo's counting totals.
 * A vote's consensus is the photo's other counting votes' mean; a run is a streak of one rating in cast order (gaps
 * and islands: the row number among all the voter's votes less that among their votes of that rating is constant
 * along a streak). The score weighs four signs, each from 0 to 1, scaled down below `confidentVotes` votes.
 */
const FIGURES_SQL = (oneVoter: boolean) => `
  WITH v AS (
    SELECT pv."user_id", pv."photo_id", pv."rating", pv."created_at", pv."voided_at" IS NOT NULL AS "voided", pv."suspended",
           COALESCE(r."vote_count", 0) - CASE WHEN pv."voided_at" IS NULL AND NOT pv."suspended" THEN 1 ELSE 0 END AS "others",
           COALESCE(r."rating_sum", 0) - CASE WHEN pv."voided_at" IS NULL AND NOT pv."suspended" THEN pv."rating" ELSE 0 END AS "others_sum"
    FROM "vote"."photo_votes" pv LEFT JOIN "vote"."photo_ratings" r ON r."photo_id" = pv."photo_id"
    ${oneVoter ? 'WHERE pv."user_id" = $1' : ''}
  ), seq AS (
    SELECT v.*, EXTRACT(EPOCH FROM v."created_at" - lag(v."created_at") OVER w) AS "gap",
           row_number() OVER w - row_number() OVER (PARTITION BY v."user_id", v."rating" ORDER BY v."created_at", v."photo_id") AS "streak"
    FROM v WINDOW w AS (PARTITION BY v."user_id" ORDER BY v."created_at", v."photo_id")
  ), runs AS (
    SELECT "user_id", max("n")::int AS "longest_run" FROM (SELECT "user_id", count(*) AS "n" FROM seq GROUP BY "user_id", "rating", "streak") s GROUP BY "user_id"
  ), figures AS (
    SELECT "user_id", count(*)::int AS "votes", count(*) FILTER (WHERE "voided")::int AS "voided", count(*) FILTER (WHERE "suspended")::int AS "suspended",
           avg("rating")::float8 AS "mean", COALESCE(stddev_pop("rating"), 0)::float8 AS "spread",
           avg(abs("rating" - "others_sum"::float8 / "others")) FILTER (WHERE "others" >= ${consensusMinVotes})::float8 AS "deviation",
           count(*) FILTER (WHERE "gap" < ${burstSeconds})::int AS "bursts", max("created_at") AS "last_vote_at"
    FROM seq GROUP BY "user_id"
  )
  SELECT f."user_id", f."votes", f."voided", f."suspended", f."mean", f."spread", f."deviation", r."longest_run", f."bursts", f."last_vote_at",
         round((LEAST(1, f."votes"::float8 / ${confidentVotes}) * (
             ${weights.deviation} * LEAST(1, COALESCE(f."deviation", 0) / 2)
           + ${weights.bursts} * f."bursts"::float8 / GREATEST(f."votes" - 1, 1)
           + ${weights.run} * CASE WHEN f."votes" >= 5 THEN r."longest_run"::float8 / f."votes" ELSE 0 END
           + ${weights.uniform} * CASE WHEN f."votes" >= 5 AND f."spread" < 0.5 THEN 1 ELSE 0 END))::numeric, 1)::float8 AS "score"
  FROM figures f JOIN runs r USING ("user_id")`;

const COLUMNS = `"user_id", "votes", "voided", "suspended", "mean", "spread", "deviation", "longest_run", "bursts", "last_vote_at", "score"`;
const UPDATE_ALL = [...COLUMNS.split(', ').slice(1), '"computed_at"'].map((c) => `${c} = EXCLUDED.${c}`).join(', ');
/** Advisory lock keys: the whole table's refresh (one replica at a time) and, with a voter's hash, one voter's. */
const REFRESH_ALL_LOCK = `hashtext('vote.rater_figures')`;
const REFRESH_ONE_LOCK = `hashtext('vote.rater_figures.voter')`;
const TABLE = `"vote"."rater_figures"`;

/**
 * Every voter's figures computed again over all votes, replacing the table's rows, in the caller's transaction (the
 * refresh holds its lock; a seeded database fills the table as the service would have); answers how many voters.
 */
export async function replaceAllRaterFigures(client: { query(text: string): Promise<{ rowCount: number | null }> }): Promise<number> {
  await client.query(`DELETE FROM ${TABLE}`);
  const { rowCount } = await client.query(`INSERT INTO ${TABLE} (${COLUMNS}, "computed_at") SELECT ${COLUMNS}, CURRENT_TIMESTAMP FROM (${FIGURES_SQL(false)}) f`);
  return rowCount ?? 0;
}

/** When the whole table was last computed: its oldest row (a voter's refresh only makes rows newer); null when empty. */
async function oldestComputedAt(client: { query<R>(text: string): Promise<{ rows: R[] }> }): Promise<Date | null> {
  const { rows } = await client.query<{ at: Date | null }>(`SELECT min("computed_at") AS "at" FROM ${TABLE}`);
  return rows[0]?.at ?? null;
}

const ORDER: Record<RaterSort, string> = {
  score: `"score" DESC`,
  votes: `"votes" DESC`,
  mean: `"mean" DESC`,
  spread: `"spread" DESC`,
  deviation: `"deviation" DESC NULLS LAST`,
  run: `"longest_run" DESC`,
  bursts: `"bursts" DESC`,
};

interface FiguresRow {
  user_id: string;
  votes: number;
  voided: number;
  suspended: number;
  mean: number;
  spread: number;
  deviation: number | null;
  longest_run: number;
  bursts: number;
  last_vote_at: Date;
  score: number;
}

const toFigures = (r: FiguresRow): RaterFigures => ({
  userId: r.user_id,
  votes: r.votes,
  voided: r.voided,
  suspended: r.suspended,
  mean: r.mean,
  spread: r.spread,
  deviation: r.deviation,
  longestRun: r.longest_run,
  bursts: r.bursts,
  score: r.score,
  lastVoteAt: r.last_vote_at,
});

/**
 * The Raters page's reads and the figures table behind it. Computing every voter's figures reads every vote (about
 * 8 s for a million on two cores), so `rater_figures` keeps them: all of them again every RATER_FIGURES_REFRESH, one
 * voter's at once after a void or restoration.
 */
export class RatersRepository {
  constructor(private readonly pool: Pool) {}

  /**
   * Computes every voter's figures again, replacing the table in one transaction; answers how many voters, or null when
   * it left the table as it was: another replica is computing it, or, with `unlessComputedWithinMs`, the table was
   * computed that recently (by another replica, or by this service before it restarted).
   */
  async refreshAll({ unlessComputedWithinMs }: { unlessComputedWithinMs?: number } = {}): Promise<number | null> {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // One replica at a time; the others find the lock taken and leave it to that one. A voter's refresh in flight
      // (refreshOneIn) holds it shared: this round is skipped rather than written from a snapshot without that change.
      const { rows: locked } = await client.query<{ locked: boolean }>(`SELECT pg_try_advisory_xact_lock(${REFRESH_ALL_LOCK}) AS "locked"`);
      const fresh = async (ms: number) => ((await oldestComputedAt(client))?.getTime() ?? 0) > Date.now() - ms;
      if (!locked[0]!.locked || (unlessComputedWithinMs !== undefined && (await fresh(unlessComputedWithinMs)))) {
        await client.query('COMMIT');
        return null;
      }
      const voters = await replaceAllRaterFigures(client);
      await client.query('COMMIT');
      return voters;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** One voter's figures again, in the caller's transaction (after their votes changed); gone when they have no votes. */
  refreshOne(tx: SqlClient, userId: string): Promise<void> {
    return RatersRepository.refreshOneIn(tx, userId);
  }

  /**
   * Waits for a whole-table refresh in progress (its snapshot may predate this change, and it would write that over
   * these figures) and for another transaction refreshing this voter (two voids on different photos at once), then
   * computes the figures in a snapshot that sees both. Called last in the transaction that changed the votes, so
   * the locks it waits on are never held by anything that waits for this transaction's rows.
   */
  static async refreshOneIn(tx: SqlClient, userId: string): Promise<void> {
    await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock_shared(${REFRESH_ALL_LOCK}), pg_advisory_xact_lock(${REFRESH_ONE_LOCK}, hashtext($1))`, userId);
    await tx.$executeRawUnsafe(
      `INSERT INTO ${TABLE} (${COLUMNS}, "computed_at") SELECT ${COLUMNS}, CURRENT_TIMESTAMP FROM (${FIGURES_SQL(true)}) f
       ON CONFLICT ("user_id") DO UPDATE SET ${UPDATE_ALL}`,
      userId,
    );
    await tx.$executeRawUnsafe(
      `DELETE FROM ${TABLE} WHERE "user_id" = $1 AND NOT EXISTS (SELECT 1 FROM "vote"."photo_votes" WHERE "user_id" = $1)`,
      userId,
    );
  }

  /** When the whole table was last computed; null before the first time. */
  computedAt(): Promise<Date | null> {
    return oldestComputedAt(this.pool);
  }

  async page(sort: RaterSort, offset: number, limit: number): Promise<{ raters: RaterFigures[]; total: number }> {
    const { rows } = await this.pool.query<FiguresRow & { total: string }>(
      `SELECT ${COLUMNS}, count(*) OVER () AS "total" FROM ${TABLE} ORDER BY ${ORDER[sort]}, "user_id" LIMIT $1 OFFSET $2`,
      [limit, offset],
    );
    const total = rows[0] ? Number(rows[0].total) : (await this.pool.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM ${TABLE}`)).rows[0]!.n;
    return { raters: rows.map(toFigures), total };
  }

  /** The voter's votes, newest first, each with its photo's other counting votes' mean. */
  async votes(userId: string, offset: number, limit: number): Promise<{ votes: RaterVote[]; total: number }> {
    const [{ rows }, { rows: count }] = await Promise.all([
      this.pool.query<{
        photo_id: string;
        rating: number;
        created_at: Date;
        consensus: number | null;
        voided_at: Date | null;
        voided_by: string | null;
        void_reason: string | null;
        suspended: boolean;
      }>(
        `SELECT pv."photo_id"::text AS "photo_id", pv."rating"::int AS "rating", pv."created_at", pv."voided_at", pv."voided_by", pv."void_reason", pv."suspended",
                CASE WHEN o."others" >= ${consensusMinVotes} THEN o."others_sum"::float8 / o."others" END AS "consensus"
         FROM "vote"."photo_votes" pv
         LEFT JOIN "vote"."photo_ratings" r ON r."photo_id" = pv."photo_id"
         CROSS JOIN LATERAL (
           SELECT COALESCE(r."vote_count", 0) - CASE WHEN pv."voided_at" IS NULL AND NOT pv."suspended" THEN 1 ELSE 0 END AS "others",
                  COALESCE(r."rating_sum", 0) - CASE WHEN pv."voided_at" IS NULL AND NOT pv."suspended" THEN pv."rating" ELSE 0 END AS "others_sum"
         ) o
         WHERE pv."user_id" = $1 ORDER BY pv."created_at" DESC, pv."photo_id" DESC LIMIT $2 OFFSET $3`,
        [userId, limit, offset],
      ),
      this.pool.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "vote"."photo_votes" WHERE "user_id" = $1`, [userId]),
    ]);
    return {
      total: count[0]!.n,
      votes: rows.map((r) => ({
        photoId: Number(r.photo_id),
        rating: r.rating,
        castAt: r.created_at,
        consensus: r.consensus,
        voidedAt: r.voided_at,
        voidedBy: r.voided_by,
        voidReason: r.void_reason,
        suspended: r.suspended,
      })),
    };
  }

  async actions(userId: string, limit = 50): Promise<RaterAction[]> {
    const { rows } = await this.pool.query<{ id: string; action: 'void' | 'restore'; admin_id: string; reason: string; votes: number; all_votes: boolean; created_at: Date }>(
      `SELECT "id", "action", "admin_id", "reason", "votes", "all_votes", "created_at" FROM "vote"."vote_actions"
       WHERE "user_id" = $1 ORDER BY "created_at" DESC, "id" LIMIT $2`,
      [userId, limit],
    );
    return rows.map((r) => ({ id: r.id, action: r.action, adminId: r.admin_id, reason: r.reason, votes: r.votes, allVotes: r.all_votes, at: r.created_at }));
  }

  /** Records what an admin did, in the caller's transaction. */
  async recordAction(tx: SqlClient, action: Omit<RaterAction, 'id' | 'at'> & { userId: string }): Promise<void> {
    await tx.$executeRawUnsafe(
      `INSERT INTO "vote"."vote_actions" ("id", "user_id", "admin_id", "action", "reason", "votes", "all_votes") VALUES (gen_random_uuid(), $1, $2, $3, $4, $5, $6)`,
      action.userId,
      action.adminId,
      action.action,
      action.reason,
      action.votes,
      action.allVotes,
    );
  }
}
