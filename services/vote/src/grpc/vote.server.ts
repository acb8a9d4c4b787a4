import { InvalidArgumentError, requireAdmin, requireMember, requireService, runBatchItem, type Handlers, type IdentitySigner } from '@snapcracks/kit';
import { RaterSort as RaterSortMessage, type VoteServiceServer } from '@snapcracks/proto/vote/v1';
import type { VoteService } from '../vote.service.js';
import type { HonestVotesService } from '../honest-votes.service.js';
import type { RaterSort } from '../raters.repository.js';
import type { VoteBackfillHandlers } from './backfill.server.js';

/** The gateway sends at most 100; more is a caller's mistake, not a burst. */
export const MAX_VOTES_PER_CALL = 500;

/**
 * Protocol edge: maps proto messages to the service's calls and back; every call is a member's. The backfill for other
 * components' rebuilds is in backfill.server.ts.
 */
const SORTS: Partial<Record<RaterSortMessage, RaterSort>> = {
  [RaterSortMessage.RATER_SORT_UNSPECIFIED]: 'score',
  [RaterSortMessage.RATER_SORT_SCORE]: 'score',
  [RaterSortMessage.RATER_SORT_VOTES]: 'votes',
  [RaterSortMessage.RATER_SORT_MEAN]: 'mean',
  [RaterSortMessage.RATER_SORT_SPREAD]: 'spread',
  [RaterSortMessage.RATER_SORT_DEVIATION]: 'deviation',
  [RaterSortMessage.RATER_SORT_RUN]: 'run',
  [RaterSortMessage.RATER_SORT_BURSTS]: 'bursts',
};

export function voteHandlers(
  service: VoteService,
  honest: HonestVotesService,
  signer: IdentitySigner,
): Omit<Handlers<VoteServiceServer>, keyof VoteBackfillHandlers> {
  return {
    async castVote(request, ctx) {
      return service.cast(requireMember(ctx), request.photoId, request.rating);
    },

    // Every vote goes to the service at once, so the repository's group commit writes them together.
    async castVotes(request, ctx) {
      requireService(ctx, 'gateway');
      if (request.votes.length > MAX_VOTES_PER_CALL) throw new InvalidArgumentError(`At most ${MAX_VOTES_PER_CALL} votes per call`);
      const outcomes = await Promise.all(
        request.votes.map(({ vote, origin }) =>
          runBatchItem(signer, ctx, origin, (itemCtx) => service.cast(requireMember(itemCtx), vote?.photoId ?? 0, vote?.rating ?? 0)),
        ),
      );
      return { outcomes: outcomes.map((o) => ({ outcome: o.ok ? { $case: 'cast' as const, value: o.value } : { $case: 'error' as const, value: o.error } })) };
    },

    async getMyVote(request, ctx) {
      const rating = await service.myVote(requireMember(ctx), request.photoId);
      return rating === null ? {} : { rating };
    },

    async listMyVotes(_request, ctx) {
      return { votes: await service.mine(requireMember(ctx)) };
    },

    async listRaters(request, ctx) {
      requireAdmin(ctx);
      const sort = SORTS[request.sort];
      if (!sort) throw new InvalidArgumentError('Unknown sort');
      const page = await honest.list(sort, request.page ?? {});
      return { raters: page.raters.map((r) => ({ ...r, deviation: r.deviation ?? undefined })), total: page.total, totalPages: page.totalPages, computedAt: page.computedAt ?? undefined };
    },

    async listRaterVotes(request, ctx) {
      requireAdmin(ctx);
      const page = await honest.votes(request.userId, request.page ?? {});
      return {
        votes: page.votes.map((v) => ({
          ...v,
          consensus: v.consensus ?? undefined,
          voidedAt: v.voidedAt ?? undefined,
          voidedBy: v.voidedBy ?? undefined,
          voidReason: v.voidReason ?? undefined,
        })),
        total: page.total,
        totalPages: page.totalPages,
        actions: page.actions,
      };
    },

    async voidVotes(request, ctx) {
      return { changed: await honest.void(requireAdmin(ctx), request.userId, request.photoIds, request.reason) };
    },

    async restoreVotes(request, ctx) {
      return { changed: await honest.restore(requireAdmin(ctx), request.userId, request.photoIds, request.reason) };
    },
  };
}
