import { InvalidArgumentError, requireMember, requireService, runBatchItem, type Handlers, type IdentitySigner } from '@snapcracks/kit';
import type { VoteServiceServer } from '@snapcracks/proto/vote/v1';
import type { VoteService } from '../vote.service.js';
import type { VoteBackfillHandlers } from './backfill.server.js';

/** The gateway sends at most 100; more is a caller's mistake, not a burst. */
export const MAX_VOTES_PER_CALL = 500;

/**
 * Protocol edge: maps proto messages to the service's calls and back; every call is a member's. The backfill for other
 * components' rebuilds is in backfill.server.ts.
 */
export function voteHandlers(service: VoteService, signer: IdentitySigner): Omit<Handlers<VoteServiceServer>, keyof VoteBackfillHandlers> {
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
  };
}
