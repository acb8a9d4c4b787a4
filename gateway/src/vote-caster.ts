import { ROOT_CONTEXT, context } from '@opentelemetry/api';
import { GroupCommit, batchItemOrigin, callErrorToServiceError, type Caller } from '@snapcracks/kit';
import type { BatchedVote, CastVoteOutcome, CastVoteResponse } from '@snapcracks/proto/vote/v1';
import type { Clients } from './clients.js';

/**
 * Casts members' votes through the vote service, many to a call: a vote goes at once when no call is under way, and
 * the votes that arrive while one is go together in the next (CastVotes). One call at a time, because a second in
 * flight halves the batches and every stage after the call costs per batch (docs/PERFORMANCE.md). Each still answers, and
 * fails, exactly as its own CastVote would: the vote service authorizes every vote by its member's signed identity.
 * A gRPC call costs about as much CPU as the rest of a vote's request, so a burst of votes costs a few calls.
 */
export class VoteCaster {
  private readonly calls: GroupCommit<BatchedVote, CastVoteOutcome>;

  constructor(private readonly clients: Pick<Clients, 'signer' | 'vote'>) {
    this.calls = new GroupCommit((votes) => this.send(votes), { maxBatch: 100, maxInFlight: 1 });
  }

  async cast(caller: Caller, photoId: number, rating: number): Promise<CastVoteResponse> {
    const { outcome } = await this.calls.submit({ vote: { photoId, rating }, origin: batchItemOrigin(this.clients.signer, caller, 'vote') });
    if (outcome?.$case === 'cast') return outcome.value;
    throw callErrorToServiceError(outcome?.value);
  }

  private async send(votes: BatchedVote[]): Promise<CastVoteOutcome[]> {
    // The call is every vote's, not the trace of whichever request happened to start it: each vote carries its own.
    const { outcomes } = await context.with(ROOT_CONTEXT, () => this.clients.vote.call.castVotes({ votes }, { caller: null }));
    return outcomes;
  }
}
