import { GroupCommit, bindToActiveTrace, inTransaction, type Database, type Envelope, type Outbox, type SqlClient } from '@snapcracks/kit';
import type { Prisma, PrismaClient } from './generated/prisma/client.js';
import { recount, type RecountEventOf, type RecountedVote } from './counting.store.js';
import { RatersRepository } from './raters.repository.js';

/** What the vote service knows of a photo, from the photo service's events (the `votable_photos` projection). */
export interface VotablePhoto {
  photoId: number;
  ownerId: string;
  approved: boolean;
  /** A tombstone: the photo is gone, and a late event about it must not bring it back. */
  deleted: boolean;
  /** The photo's version (PhotoState.version) this state is from. */
  version: number;
}

/** A photo's totals; `version` grows with every vote on it. */
export interface Totals {
  voteCount: number;
  ratingSum: number;
  version: number;
}

export interface NewVote {
  photoId: number;
  userId: string;
  rating: number;
}

/** A vote as stored, with the photo's totals right after it. */
export interface CastResult extends NewVote {
  /** The rating this vote replaced; null for the user's first vote on the photo. */
  previousRating: number | null;
  totals: Totals;
}

/** Builds the events that report a vote, from the vote and the totals it left: its vote.vote.cast first. */
export type EventsOf = (cast: CastResult) => Envelope[];

/** A vote removed with its voter's account, and the photo's totals right after. */
export interface RemovedVote {
  photoId: number;
  userId: string;
  /** The rating the vote held. */
  rating: number;
  totals: Totals;
}

/** Builds the event that reports a removed vote, from the vote and the totals it left. */
export type RemovedEventOf = (removed: RemovedVote) => Envelope;

/**
 * Votes and per-photo totals in the service's own words. A vote, the totals it changes and its event commit in one
 * transaction.
 */
export interface VoteRepository {
  findVotable(photoId: number): Promise<VotablePhoto | null>;
  /**
   * Stores the user's vote (new, or replacing their previous one) and moves the photo's totals by the difference,
   * with the events `eventsOf` builds, in one transaction; exact under any concurrency. Only while the photo is still
   * approved, not deleted and not the voter's own: otherwise nothing changes and null is answered.
   */
  cast(vote: NewVote, eventsOf: EventsOf): Promise<CastResult | null>;
  /** The user's rating of the photo, or null. */
  findRating(photoId: number, userId: string): Promise<number | null>;
  /** Whether the user's vote on the photo is set aside (voided, or suspended with their account): it cannot change. */
  isSetAside(photoId: number, userId: string): Promise<boolean>;
  /** The photo's totals, or null when nobody voted on it. */
  totals(photoId: number): Promise<Totals | null>;
  /** Every vote of the user, newest first (by when it was cast), each with whether it is set aside and why. */
  listByVoter(userId: string): Promise<VoterVote[]>;
}

/** A vote as its voter may see it: whether it counts, never who set it aside. */
export interface VoterVote {
  photoId: number;
  rating: number;
  castAt: Date;
  changedAt: Date;
  /** Set aside by an admin. */
  voided: boolean;
  /** Not counting while the voter's account is disabled. */
  suspended: boolean;
}

/** The votable-photos projection, written by the consumer of the photo events inside its transaction. */
export interface VotablePhotoStore {
  /** Stores the state unless the stored one is as new or newer (by version); answers whether it stored. */
  saveIfNewer(photo: VotablePhoto): Promise<boolean>;
  /** Removes every vote on the photo and its totals (the photo was deleted). */
  forgetVotes(photoId: number): Promise<void>;
}

/** The voters' side of the votes, written by the consumer of auth's user events inside its transaction. */
export interface VoterStore {
  /**
   * Removes every vote of the user and moves each of those photos' totals by exactly that vote, with a new version,
   * storing the event `eventOf` builds for each photo in the same transaction. Answers what it removed, by photo id;
   * a user without votes (or already forgotten) changes nothing.
   */
  forgetVoter(userId: string, eventOf: RemovedEventOf): Promise<RemovedVote[]>;
  /**
   * Records whether the voter's account is enabled, unless a newer state is stored (by `updatedAt`). When it stored:
   * a disabled voter's votes are suspended (with `suspend`), an enabled one's resumed, each photo's totals moving by
   * exactly those votes with an event each. Answers the votes whose counting changed.
   */
  setEnabled(userId: string, enabled: boolean, updatedAt: Date, suspend: boolean, eventOf: RecountEventOf): Promise<RecountedVote[]>;
}

type Raw = Pick<Prisma.TransactionClient, '$executeRaw' | '$queryRaw'>;
/** A pg pool on the vote schema (kit's Database.pool). */
export type Pool = Database<PrismaClient>['pool'];

interface CastRow {
  /** The (photo, member) pair's place in the statement's input, from 1. */
  ord: number;
  previous_rating: number | null;
  /** The photo's totals after the whole batch; bigint columns arrive as text from pg. */
  vote_count: number;
  rating_sum: string;
  version: string;
}

// A batch of votes in one statement, one input row per (photo, member) pair: its last rating and how many of the
// batch's votes it stands for (`votes`, more than one when a member changed a vote within the batch).
//  - The photos are read FOR SHARE: the projection's writes wait for votes in flight, so a deletion that commits
//    after a vote sees it (and removes it), and one that committed before stops it.
//  - The upsert keeps each replaced rating in `previous_rating`; ON CONFLICT DO UPDATE evaluates `v.rating` on the
//    latest row version while holding its lock, so two changes of one vote at once each see the other's result. A
//    pair's row changes once, from the rating before the batch to the last one, which is what `previous_rating` keeps.
//  - Each photo's totals move by the batch's exact differences in an upsert that locks the totals row until commit,
//    its version by the number of votes on it, repeats included.
//  - A vote an admin set aside (voided) or one suspended with its voter's account is not changed, and a disabled
//    account casts nothing: neither is in the answer, so the service says why.
//  Locks are always taken in the order photos (shared), votes, totals, each by key: concurrent batches queue, and the
//  voter and photo clean-ups and recounts (counting.store.ts) take the same order.
const CAST_VOTES_SQL = `
  WITH input AS (
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::smallint[], $4::int[]) WITH ORDINALITY AS i("photo_id", "user_id", "rating", "votes", "ord")
  ), photo AS (
    SELECT "photo_id", "owner_id" FROM "vote"."votable_photos"
    WHERE "photo_id" = ANY($1::bigint[]) AND "approved" AND NOT "deleted"
    ORDER BY "photo_id"
    FOR SHARE
  ), cast_votes AS (
    INSERT INTO "vote"."photo_votes" AS v ("photo_id", "user_id", "rating", "previous_rating")
    SELECT i."photo_id", i."user_id", i."rating", NULL FROM input i JOIN photo p ON p."photo_id" = i."photo_id" AND p."owner_id" <> i."user_id"
    WHERE NOT EXISTS (SELECT 1 FROM "vote"."voter_states" s WHERE s."user_id" = i."user_id" AND NOT s."enabled")
    ORDER BY i."photo_id", i."user_id"
    ON CONFLICT ("photo_id", "user_id") DO UPDATE
      SET "rating" = EXCLUDED."rating", "previous_rating" = v."rating", "updated_at" = CURRENT_TIMESTAMP
      WHERE v."voided_at" IS NULL AND NOT v."suspended"
    RETURNING v."photo_id", v."user_id", v."rating", v."previous_rating"
  ), moves AS (
    SELECT c."photo_id", count(*) FILTER (WHERE c."previous_rating" IS NULL) AS "added",
           sum(c."rating" - COALESCE(c."previous_rating", 0)) AS "moved", sum(i."votes") AS "votes"
    FROM cast_votes c JOIN input i ON i."photo_id" = c."photo_id" AND i."user_id" = c."user_id"
    GROUP BY c."photo_id"
  ), totals AS (
    INSERT INTO "vote"."photo_ratings" AS r ("photo_id", "vote_count", "rating_sum", "version")
    SELECT "photo_id", "added", "moved", "votes" FROM moves ORDER BY "photo_id"
    ON CONFLICT ("photo_id") DO UPDATE
      SET "vote_count" = r."vote_count" + EXCLUDED."vote_count", "rating_sum" = r."rating_sum" + EXCLUDED."rating_sum",
          "version" = r."version" + EXCLUDED."version"
    RETURNING r."photo_id", r."vote_count", r."rating_sum", r."version"
  )
  SELECT i."ord"::int AS "ord", c."previous_rating"::int AS "previous_rating",
         t."vote_count", t."rating_sum"::text AS "rating_sum", t."version"::text AS "version"
  FROM cast_votes c
  JOIN input i ON i."photo_id" = c."photo_id" AND i."user_id" = c."user_id"
  JOIN totals t ON t."photo_id" = c."photo_id"`;

/** A vote waiting for its batch, with the builder of its events, bound to the trace the vote was cast in. */
interface QueuedVote {
  vote: NewVote;
  eventsOf: EventsOf;
}

/** PostgreSQL's deadlock and serialization failures: the batch rolled back whole and may simply run again. */
const RETRYABLE = new Set(['40P01', '40001']);
const ATTEMPTS = 3;

/**
 * The only module of the vote service that talks to Prisma or SQL. Casting a vote goes through the pg pool directly,
 * as the gateway reads sessions (docs/PERFORMANCE.md, Hot paths): measured on two cores with PostgreSQL beside it,
 * the vote in Prisma's interactive transaction managed ~540 votes/s, the same statements on the pool ~2,400/s, and
 * VoteService.cast on the pool, event included, ~1,480/s. Votes and the two lookups members make use the pool; the
 * projection and the totals read use Prisma.
 */
export class PrismaVoteRepository implements VoteRepository {
  // Two batches in flight: one commits while the next is built and sent, and a pool of 10 keeps room for the rest. A
  // member's repeated votes on one photo share a batch (as one change of their row, below) rather than each waiting
  // for a batch of its own.
  private readonly batches = new GroupCommit<QueuedVote, CastResult | null>((votes) => this.castBatch(votes), {
    maxBatch: 100,
    maxInFlight: 2,
    keyOf: ({ vote }) => voteKey(vote),
    repeatsInBatch: true,
  });

  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
    private readonly pool: Pool,
  ) {}

  // On the pool like the vote itself: cheap, and asked whenever a vote is refused.
  async findVotable(photoId: number): Promise<VotablePhoto | null> {
    const { rows } = await this.pool.query<{ owner_id: string; approved: boolean; deleted: boolean; version: string }>({
      name: 'vote_find_votable',
      text: 'SELECT "owner_id", "approved", "deleted", "version"::text AS "version" FROM "vote"."votable_photos" WHERE "photo_id" = $1::bigint',
      values: [photoId],
    });
    const row = rows[0];
    return row ? { photoId, ownerId: row.owner_id, approved: row.approved, deleted: row.deleted, version: Number(row.version) } : null;
  }

  /**
   * Votes cast together (one CastVotes call) or while earlier ones are being written go together: one transaction of
   * BEGIN, the statement above, their events in one insert, COMMIT, in two round trips (BEGIN with the statement, the
   * insert with COMMIT). Every vote's answer and event still carry the rating it replaced and the totals right after
   * it, as if the batch's votes had been cast one by one in their order, a member's repeats on a photo included.
   */
  cast(vote: NewVote, eventsOf: EventsOf): Promise<CastResult | null> {
    return this.batches.submit({ vote, eventsOf: bindToActiveTrace(eventsOf) });
  }

  private async castBatch(queued: QueuedVote[]): Promise<(CastResult | null)[]> {
    const votes = queued.map((q) => q.vote);
    const pairs = pairsOf(votes);
    for (let attempt = 1; ; attempt++) {
      try {
        const results = await inTransaction(this.pool, async (tx) => {
          const { rows } = await tx.client.query<CastRow>({
            name: 'vote_cast_batch',
            text: CAST_VOTES_SQL,
            values: [
              pairs.map(({ last }) => last.photoId),
              pairs.map(({ last }) => last.userId),
              pairs.map(({ last }) => last.rating),
              pairs.map(({ indices }) => indices.length),
            ],
          });
          const cast = resultsInOrder(votes, pairs, rows);
          // Events in the batch's order, so each photo's versions rise along the outbox, and a type's together: the
          // outbox stores a run of one type as one row, so the casts take one row and the rare milestones another.
          const events = byType(cast.flatMap((result, i) => (result ? queued[i]!.eventsOf(result) : [])));
          const stored = this.outbox.statementFor(events);
          // The events' row goes out with COMMIT (and the statement with BEGIN): two round trips in all.
          await (stored ? tx.commitWith(stored) : tx.commitWith());
          return cast;
        });
        if (results.some(Boolean)) this.outbox.nudge();
        return results;
      } catch (error) {
        if (attempt >= ATTEMPTS || !RETRYABLE.has((error as { code?: string }).code ?? '')) throw error;
      }
    }
  }

  // Asked whenever a member opens a photo: on the pool too.
  async findRating(photoId: number, userId: string): Promise<number | null> {
    const { rows } = await this.pool.query<{ rating: number }>({
      name: 'vote_find_rating',
      text: 'SELECT "rating"::int AS "rating" FROM "vote"."photo_votes" WHERE "photo_id" = $1::bigint AND "user_id" = $2',
      values: [photoId, userId],
    });
    return rows[0]?.rating ?? null;
  }

  async isSetAside(photoId: number, userId: string): Promise<boolean> {
    const { rows } = await this.pool.query<{ set_aside: boolean }>(
      `SELECT ("voided_at" IS NOT NULL OR "suspended") AS "set_aside" FROM "vote"."photo_votes" WHERE "photo_id" = $1::bigint AND "user_id" = $2`,
      [photoId, userId],
    );
    return rows[0]?.set_aside ?? false;
  }

  async totals(photoId: number): Promise<Totals | null> {
    const row = await this.prisma.photoRating.findUnique({ where: { photoId: BigInt(photoId) } });
    return row ? { voteCount: row.voteCount, ratingSum: Number(row.ratingSum), version: Number(row.version) } : null;
  }

  async listByVoter(userId: string): Promise<VoterVote[]> {
    const rows = await this.prisma.photoVote.findMany({
      where: { userId },
      orderBy: [{ createdAt: 'desc' }, { photoId: 'desc' }],
      select: { photoId: true, rating: true, createdAt: true, updatedAt: true, voidedAt: true, suspended: true },
    });
    return rows.map((row) => ({
      photoId: Number(row.photoId),
      rating: row.rating,
      castAt: row.createdAt,
      changedAt: row.updatedAt,
      voided: row.voidedAt !== null,
      suspended: row.suspended,
    }));
  }

  /** The votable-photos projection inside a consumer's transaction (or, in tests, on the client itself). */
  static votablePhotos(db: Raw): VotablePhotoStore {
    return new PrismaVotablePhotoStore(db);
  }

  /** The voters' votes inside a consumer's transaction, storing events in `outbox` with the change. */
  static voters(tx: Raw & SqlClient, outbox: Pick<Outbox, 'enqueue'>): VoterStore {
    return new PrismaVoterStore(tx, outbox);
  }
}

/** The events of each type together, each type's in their order, the types in the order they first appear. */
function byType(events: Envelope[]): Envelope[] {
  const groups = new Map<string, Envelope[]>();
  for (const event of events) {
    const group = groups.get(event.type);
    if (group) group.push(event);
    else groups.set(event.type, [event]);
  }
  return groups.size <= 1 ? events : [...groups.values()].flat();
}

/** A member's vote on a photo: one row of photo_votes, which one statement may change once. */
function voteKey(vote: NewVote): string {
  return `${vote.photoId}/${vote.userId}`;
}

/** A member's votes on one photo within a batch: the indices of them all, in order, and the last, which stays. */
interface Pair {
  last: NewVote;
  indices: number[];
}

/**
 * The batch's votes by (photo, member) pair, in the order each pair first appears: one statement cannot change a row
 * twice, and a member's repeats on a photo in one transaction leave only their last rating.
 */
function pairsOf(votes: NewVote[]): Pair[] {
  const pairs = new Map<string, Pair>();
  votes.forEach((vote, index) => {
    const key = voteKey(vote);
    const pair = pairs.get(key);
    if (pair) {
      pair.last = vote;
      pair.indices.push(index);
    } else pairs.set(key, { last: vote, indices: [index] });
  });
  return [...pairs.values()];
}

/**
 * Each vote of the batch as if cast one by one in its order (null when it was not). A pair's first vote replaced the
 * rating its row held before the batch (the statement's `previous_rating`), each later one the vote before it. The
 * statement answers each photo's totals after the whole batch; walking the photo's votes back from the last, each one's
 * totals are the next one's minus what that next vote moved.
 */
function resultsInOrder(votes: NewVote[], pairs: Pair[], rows: CastRow[]): (CastResult | null)[] {
  const replaced = new Map<number, number | null>();
  const totalsAfterBatch = new Map<number, Totals>();
  for (const row of rows) {
    const pair = pairs[row.ord - 1]!;
    let previous = row.previous_rating;
    for (const index of pair.indices) {
      replaced.set(index, previous);
      previous = votes[index]!.rating;
    }
    totalsAfterBatch.set(pair.last.photoId, { voteCount: row.vote_count, ratingSum: Number(row.rating_sum), version: Number(row.version) });
  }
  const results: (CastResult | null)[] = votes.map(() => null);
  const totalsAfterLater = new Map<number, Totals>();
  for (let index = votes.length - 1; index >= 0; index--) {
    if (!replaced.has(index)) continue;
    const vote = votes[index]!;
    const previousRating = replaced.get(index)!;
    const totals = totalsAfterLater.get(vote.photoId) ?? totalsAfterBatch.get(vote.photoId)!;
    results[index] = { ...vote, previousRating, totals };
    totalsAfterLater.set(vote.photoId, {
      voteCount: totals.voteCount - (previousRating === null ? 1 : 0),
      ratingSum: totals.ratingSum - (vote.rating - (previousRating ?? 0)),
      version: totals.version - 1,
    });
  }
  return results;
}

interface TotalsRow {
  photo_id: string;
  vote_count: number;
  rating_sum: string;
  version: string;
}

/**
 * Takes locks in the order casting a vote does (photo shared, then the votes, then the totals, each set in photo
 * order), so it queues behind votes in flight and never deadlocks with them; a vote of this user being changed at
 * the same moment is removed with the rating it was changed to. The totals equal the remaining rows afterwards.
 */
class PrismaVoterStore implements VoterStore {
  constructor(
    private readonly tx: Raw & SqlClient,
    private readonly outbox: Pick<Outbox, 'enqueue'>,
  ) {}

  setEnabled(userId: string, enabled: boolean, updatedAt: Date, suspend: boolean, eventOf: RecountEventOf): Promise<RecountedVote[]> {
    return setVoterEnabled(this.tx, this.outbox, { userId, enabled, updatedAt, suspend, eventOf });
  }

  async forgetVoter(userId: string, eventOf: RemovedEventOf): Promise<RemovedVote[]> {
    await this.tx.$queryRaw`
      SELECT "photo_id" FROM "vote"."votable_photos"
      WHERE "photo_id" IN (SELECT "photo_id" FROM "vote"."photo_votes" WHERE "user_id" = ${userId})
      ORDER BY "photo_id" FOR SHARE`;
    const removed = await this.tx.$queryRaw<{ photo_id: string; rating: number; counted: boolean }[]>`
      DELETE FROM "vote"."photo_votes" WHERE "user_id" = ${userId}
      RETURNING "photo_id"::text AS "photo_id", "rating"::int AS "rating", ("voided_at" IS NULL AND NOT "suspended") AS "counted"`;
    await this.tx.$executeRaw`DELETE FROM "vote"."voter_states" WHERE "user_id" = ${userId}`;
    await this.tx.$executeRaw`DELETE FROM "vote"."rater_figures" WHERE "user_id" = ${userId}`;
    // A voided or suspended vote is in no total: it goes without moving one.
    const votes = removed
      .filter((r) => r.counted)
      .map((r) => ({ photoId: Number(r.photo_id), rating: r.rating }))
      .sort((a, b) => a.photoId - b.photoId);
    if (votes.length === 0) return [];
    const photoIds = votes.map((v) => v.photoId);
    const ratings = votes.map((v) => v.rating);
    await this.tx.$queryRaw`
      SELECT "photo_id" FROM "vote"."photo_ratings" WHERE "photo_id" = ANY(${photoIds}::bigint[]) ORDER BY "photo_id" FOR UPDATE`;
    const rows = await this.tx.$queryRaw<TotalsRow[]>`
      UPDATE "vote"."photo_ratings" AS r
      SET "vote_count" = r."vote_count" - 1, "rating_sum" = r."rating_sum" - d."rating", "version" = r."version" + 1
      FROM unnest(${photoIds}::bigint[], ${ratings}::int[]) AS d("photo_id", "rating")
      WHERE r."photo_id" = d."photo_id"
      RETURNING r."photo_id"::text AS "photo_id", r."vote_count", r."rating_sum"::text AS "rating_sum", r."version"::text AS "version"`;
    const totals = new Map(rows.map((row) => [Number(row.photo_id), { voteCount: row.vote_count, ratingSum: Number(row.rating_sum), version: Number(row.version) }]));
    const result: RemovedVote[] = [];
    for (const vote of votes) {
      const after = totals.get(vote.photoId);
      // A vote always has its photo's totals (both change in one transaction); a photo without is skipped, not invented.
      if (!after) continue;
      const entry: RemovedVote = { photoId: vote.photoId, userId, rating: vote.rating, totals: after };
      await this.outbox.enqueue(this.tx, eventOf(entry));
      result.push(entry);
    }
    return result;
  }
}

/** The voters' account states, in a consumer's transaction; the votes' recount as counting.store.ts does it. */
async function setVoterEnabled(
  tx: Raw & SqlClient,
  outbox: Pick<Outbox, 'enqueue'>,
  { userId, enabled, updatedAt, suspend, eventOf }: { userId: string; enabled: boolean; updatedAt: Date; suspend: boolean; eventOf: RecountEventOf },
): Promise<RecountedVote[]> {
  const stored = await tx.$executeRawUnsafe(
    `INSERT INTO "vote"."voter_states" ("user_id", "enabled", "updated_at") VALUES ($1, $2, $3)
     ON CONFLICT ("user_id") DO UPDATE SET "enabled" = EXCLUDED."enabled", "updated_at" = EXCLUDED."updated_at"
     WHERE "voter_states"."updated_at" < EXCLUDED."updated_at"`,
    userId,
    enabled,
    updatedAt,
  );
  if (stored === 0 || (!enabled && !suspend)) return [];
  const changed = await recount(tx, outbox, userId, null, { kind: enabled ? 'resume' : 'suspend' }, eventOf);
  if (changed.length > 0) await RatersRepository.refreshOneIn(tx, userId);
  return changed;
}

class PrismaVotablePhotoStore implements VotablePhotoStore {
  constructor(private readonly db: Raw) {}

  // Order-safe: a state older than the stored one (redelivered late, or overtaken) changes nothing. The upsert
  // locks the row, so it waits for votes in flight (they hold it FOR SHARE).
  async saveIfNewer(p: VotablePhoto): Promise<boolean> {
    const stored = await this.db.$executeRaw`
      INSERT INTO "vote"."votable_photos" ("photo_id", "owner_id", "approved", "deleted", "version")
      VALUES (${p.photoId}::bigint, ${p.ownerId}, ${p.approved}, ${p.deleted}, ${p.version}::bigint)
      ON CONFLICT ("photo_id") DO UPDATE SET
        "owner_id" = EXCLUDED."owner_id",
        "approved" = EXCLUDED."approved",
        "deleted" = EXCLUDED."deleted",
        "version" = EXCLUDED."version"
      WHERE "votable_photos"."version" < EXCLUDED."version"`;
    return stored > 0;
  }

  async forgetVotes(photoId: number): Promise<void> {
    await this.db.$executeRaw`DELETE FROM "vote"."photo_votes" WHERE "photo_id" = ${photoId}::bigint`;
    await this.db.$executeRaw`DELETE FROM "vote"."photo_ratings" WHERE "photo_id" = ${photoId}::bigint`;
  }
}
