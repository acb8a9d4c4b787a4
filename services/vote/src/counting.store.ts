import type { Envelope, Outbox, SqlClient } from '@snapcracks/kit';
import type { Totals } from './vote.repository.js';

/**
 * What makes a vote stop or start counting. A vote counts in its photo's totals exactly when it is neither voided (by
 * an admin) nor suspended (its voter's account is disabled); each change flips only the votes it applies to.
 */
export type CountingChange =
  | { kind: 'void'; adminId: string; reason: string }
  | { kind: 'restore' }
  | { kind: 'suspend' }
  | { kind: 'resume' };

/** A vote whose counting changed, and its photo's totals right after. */
export interface RecountedVote {
  photoId: number;
  rating: number;
  /** Whether it counted before and after the change (a voided vote of a disabled account counts in neither). */
  counted: boolean;
  counts: boolean;
  /** The photo's totals after the change; unchanged (and no event) when the vote's counting did not change. */
  totals: Totals | null;
}

/** Builds the event that reports a photo's new totals after one of its votes stopped or started counting. */
export type RecountEventOf = (vote: RecountedVote & { totals: Totals }) => Envelope;

const COUNTS = `"voided_at" IS NULL AND NOT "suspended"`;
const CHANGES: Record<CountingChange['kind'], { applies: string; set: string }> = {
  void: { applies: `"voided_at" IS NULL`, set: `"voided_at" = CURRENT_TIMESTAMP, "voided_by" = $3, "void_reason" = $4` },
  restore: { applies: `"voided_at" IS NOT NULL`, set: `"voided_at" = NULL, "voided_by" = NULL, "void_reason" = NULL` },
  suspend: { applies: `NOT "suspended"`, set: `"suspended" = true` },
  resume: { applies: `"suspended"`, set: `"suspended" = false` },
};

interface ChangedRow {
  photo_id: string;
  rating: number;
  counted: boolean;
  counts: boolean;
}

interface TotalsRow {
  photo_id: string;
  vote_count: number;
  rating_sum: string;
  version: string;
}

/**
 * Changes whether a member's votes count (all of them, or those on `photoIds`) and moves each photo's totals by exactly
 * the votes that stopped or started counting, with a new version and an event each, in the caller's transaction
 * (`tx`, whose outbox rows commit with it). Locks are taken in the order casting a vote takes them (photos shared,
 * then the votes, then the totals, each in photo order), so it queues behind votes in flight and never deadlocks
 * with them. Answers every vote the change applied to, in photo order.
 */
export async function recount(
  tx: SqlClient,
  outbox: Pick<Outbox, 'enqueue'>,
  userId: string,
  photoIds: number[] | null,
  change: CountingChange,
  eventOf: RecountEventOf,
): Promise<RecountedVote[]> {
  const { applies, set } = CHANGES[change.kind];
  const extra = change.kind === 'void' ? [change.adminId, change.reason] : [];
  await tx.$queryRawUnsafe(
    `SELECT "photo_id" FROM "vote"."votable_photos"
     WHERE "photo_id" IN (SELECT "photo_id" FROM "vote"."photo_votes" WHERE "user_id" = $1 AND ($2::bigint[] IS NULL OR "photo_id" = ANY($2::bigint[])))
     ORDER BY "photo_id" FOR SHARE`,
    userId,
    photoIds,
  );
  const rows = await tx.$queryRawUnsafe<ChangedRow[]>(
    `WITH target AS (
       SELECT "id", (${COUNTS}) AS "counted" FROM "vote"."photo_votes"
       WHERE "user_id" = $1 AND ($2::bigint[] IS NULL OR "photo_id" = ANY($2::bigint[])) AND ${applies}
       ORDER BY "photo_id" FOR UPDATE
     )
     UPDATE "vote"."photo_votes" v SET ${set} FROM target t WHERE v."id" = t."id"
     RETURNING v."photo_id"::text AS "photo_id", v."rating"::int AS "rating", t."counted", (v."voided_at" IS NULL AND NOT v."suspended") AS "counts"`,
    userId,
    photoIds,
    ...extra,
  );
  const changed = rows.map((r) => ({ photoId: Number(r.photo_id), rating: r.rating, counted: r.counted, counts: r.counts })).sort((a, b) => a.photoId - b.photoId);
  const moving = changed.filter((v) => v.counted !== v.counts);
  const totals = new Map<number, Totals>();
  if (moving.length > 0) {
    const ids = moving.map((v) => v.photoId);
    await tx.$queryRawUnsafe(`SELECT "photo_id" FROM "vote"."photo_ratings" WHERE "photo_id" = ANY($1::bigint[]) ORDER BY "photo_id" FOR UPDATE`, ids);
    const after = await tx.$queryRawUnsafe<TotalsRow[]>(
      `UPDATE "vote"."photo_ratings" AS r
       SET "vote_count" = r."vote_count" + d."votes", "rating_sum" = r."rating_sum" + d."sum", "version" = r."version" + 1
       FROM unnest($1::bigint[], $2::int[], $3::int[]) AS d("photo_id", "votes", "sum")
       WHERE r."photo_id" = d."photo_id"
       RETURNING r."photo_id"::text AS "photo_id", r."vote_count", r."rating_sum"::text AS "rating_sum", r."version"::text AS "version"`,
      ids,
      moving.map((v) => (v.counts ? 1 : -1)),
      moving.map((v) => (v.counts ? v.rating : -v.rating)),
    );
    for (const row of after) totals.set(Number(row.photo_id), { voteCount: row.vote_count, ratingSum: Number(row.rating_sum), version: Number(row.version) });
  }
  const result: RecountedVote[] = [];
  for (const vote of changed) {
    const after = vote.counted !== vote.counts ? (totals.get(vote.photoId) ?? null) : null;
    // A vote always has its photo's totals (both change in one transaction); one without is skipped, not invented.
    if (after) await outbox.enqueue(tx, eventOf({ ...vote, totals: after }));
    result.push({ ...vote, totals: after });
  }
  return result;
}
