import { PAGES, RATERS, pageProblem } from '@snapcracks/http-contract';
import {
  InvalidArgumentError,
  NotFoundError,
  controlCharactersMessage,
  hasControlCharacters,
  inTransaction,
  makeEvent,
  type Caller,
  type Outbox,
} from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { recount, type CountingChange, type RecountEventOf } from './counting.store.js';
import type { RaterAction, RaterFigures, RaterSort, RaterVote, RatersRepository } from './raters.repository.js';
import type { Pool } from './vote.repository.js';

/**
 * vote.vote.cast for a vote that stopped or started counting: no voter (the member is still the one who rated the
 * photo; nobody is recorded anew), the rating it now adds and the one it took away, and the photo's absolute totals
 * with their new version. Every reader of the totals applies it as it applies a removed account's vote.
 */
export const recountEvent: RecountEventOf = (vote) =>
  makeEvent(
    'vote.vote.cast',
    VoteCast,
    {
      photoId: vote.photoId,
      userId: '',
      rating: vote.counts ? vote.rating : 0,
      previousRating: vote.counted ? vote.rating : undefined,
      voteCount: vote.totals.voteCount,
      ratingSum: vote.totals.ratingSum,
      version: vote.totals.version,
    },
    { source: 'vote' },
  );

export interface RaterPage {
  raters: RaterFigures[];
  total: number;
  totalPages: number;
  computedAt: Date | null;
}

/**
 * Honest votes (admins only; the gRPC edge checks): the Raters page, and votes set aside or restored with a reason.
 * A change and the photos' new totals (as events), its audit entry and the voter's figures commit together.
 */
export class HonestVotesService {
  constructor(
    private readonly pool: Pool,
    private readonly outbox: Outbox,
    private readonly raters: RatersRepository,
  ) {}

  async list(sort: RaterSort, request: { page?: number; limit?: number }): Promise<RaterPage> {
    const { page, limit } = pageOf(request, PAGES.limits.raters);
    const [{ raters, total }, computedAt] = await Promise.all([this.raters.page(sort, (page - 1) * limit, limit), this.raters.computedAt()]);
    return { raters, total, totalPages: Math.ceil(total / limit), computedAt };
  }

  async votes(userId: string, request: { page?: number; limit?: number }): Promise<{ votes: RaterVote[]; total: number; totalPages: number; actions: RaterAction[] }> {
    const { page, limit } = pageOf(request, PAGES.limits.raterVotes);
    const [{ votes, total }, actions] = await Promise.all([this.raters.votes(userId, (page - 1) * limit, limit), this.raters.actions(userId)]);
    if (total === 0) throw new NotFoundError(RATERS.unknownMember);
    return { votes, total, totalPages: Math.ceil(total / limit), actions };
  }

  /** Sets the member's votes (all, or those on `photoIds`) aside; answers how many were not already. */
  void(admin: Caller, userId: string, photoIds: number[], rawReason: string): Promise<number> {
    const reason = checkedReason(rawReason);
    return this.change(admin, userId, photoIds, reason, { kind: 'void', adminId: admin.userId, reason });
  }

  /** Lets the member's voided votes (all, or those on `photoIds`) count again; answers how many were voided. */
  restore(admin: Caller, userId: string, photoIds: number[], rawReason: string): Promise<number> {
    return this.change(admin, userId, photoIds, checkedReason(rawReason), { kind: 'restore' });
  }

  private async change(admin: Caller, userId: string, photoIds: number[], reason: string, change: CountingChange): Promise<number> {
    if (!userId) throw new NotFoundError(RATERS.unknownMember);
    if (photoIds.length > RATERS.maxPhotos || photoIds.some((id) => !Number.isSafeInteger(id) || id < 1)) throw new InvalidArgumentError(RATERS.photosInvalid);
    const chosen = photoIds.length > 0 ? [...new Set(photoIds)] : null;
    const changed = await inTransaction(this.pool, async (tx) => {
      const { rows } = await tx.client.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "vote"."photo_votes" WHERE "user_id" = $1`, [userId]);
      if (rows[0]!.n === 0) throw new NotFoundError(RATERS.unknownMember);
      const votes = await recount(tx, this.outbox, userId, chosen, change, recountEvent);
      if (votes.length > 0) {
        await this.raters.recordAction(tx, { userId, adminId: admin.userId, action: change.kind === 'void' ? 'void' : 'restore', reason, votes: votes.length, allVotes: chosen === null });
        await this.raters.refreshOne(tx, userId);
      }
      return votes.length;
    });
    if (changed > 0) this.outbox.nudge();
    return changed;
  }
}

function pageOf(request: { page?: number; limit?: number }, limits: { max: number; default: number }): { page: number; limit: number } {
  const page = request.page || 1;
  const limit = request.limit || limits.default;
  const problem = pageProblem(page, limit, limits);
  if (problem) throw new InvalidArgumentError(problem);
  return { page, limit };
}

function checkedReason(raw: string): string {
  if (hasControlCharacters(raw)) throw new InvalidArgumentError(controlCharactersMessage('reason'));
  const reason = raw.trim();
  if (!reason) throw new InvalidArgumentError(RATERS.reasonRequired);
  if (reason.length > RATERS.reasonMaxLength) throw new InvalidArgumentError(RATERS.reasonTooLong);
  return reason;
}
