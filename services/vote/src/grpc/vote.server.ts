import { requireMember, type Handlers } from '@snapcracks/kit';
import type { VoteServiceServer } from '@snapcracks/proto/vote/v1';
import type { VoteService } from '../vote.service.js';
import type { VoteBackfillHandlers } from './backfill.server.js';

/**
 * Protocol edge: maps proto messages to the service's calls and back; every call is a member's. The backfill for other
 * components' rebuilds is in backfill.server.ts.
 */
export function voteHandlers(service: VoteService): Omit<Handlers<VoteServiceServer>, keyof VoteBackfillHandlers> {
  return {
    async castVote(request, ctx) {
      return service.cast(requireMember(ctx), request.photoId, request.rating);
    },

    async getMyVote(request, ctx) {
      const rating = await service.myVote(requireMember(ctx), request.photoId);
      return rating === null ? {} : { rating };
    },
  };
}
