import { requireMember, type Handlers } from '@snapcracks/kit';
import type { VoteServiceServer } from '@snapcracks/proto/vote/v1';
import type { VoteService } from '../vote.service.js';

/** Protocol edge: maps proto messages to the service's calls and back; every call is a member's. */
export function voteHandlers(service: VoteService): Handlers<VoteServiceServer> {
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
