import { status } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { IdentityKeyring, IdentitySigner, httpStatusForGrpc, isServiceError } from '@snapcracks/kit';
import type { CastVoteOutcome, CastVotesRequest } from '@snapcracks/proto/vote/v1';
import { VoteCaster } from './vote-caster.js';

const keyring = IdentityKeyring.generate();
const gatewaySigner = new IdentitySigner(keyring, 'gateway');
const voteSigner = new IdentitySigner(keyring, 'vote');
const member = (userId: string) => ({ userId, isAdmin: false, hasAcceptedTerms: true });
const settle = () => new Promise((resolve) => setImmediate(resolve));

/** A vote service whose calls answer only when the test says so: each vote's outcome from `answer`, or the call fails. */
function heldVoteService(answer: (vote: CastVotesRequest['votes'][number]) => CastVoteOutcome) {
  const calls: { request: CastVotesRequest; caller: unknown; finish(error?: Error): void }[] = [];
  const castVotes = (request: CastVotesRequest, options: { caller: unknown }) =>
    new Promise<{ outcomes: CastVoteOutcome[] }>((resolve, reject) => {
      calls.push({ request, caller: options.caller, finish: (error) => (error ? reject(error) : resolve({ outcomes: request.votes.map(answer) })) });
    });
  return { calls, client: { signer: gatewaySigner, vote: { call: { castVotes } } } as unknown as ConstructorParameters<typeof VoteCaster>[0] };
}

const accept = ({ vote }: CastVotesRequest['votes'][number]): CastVoteOutcome => ({
  outcome: { $case: 'cast', value: { rating: vote!.rating, averageRating: vote!.rating, voteCount: vote!.photoId } },
});

describe('VoteCaster', () => {
  it('sends a lone vote at once, and the votes that arrive meanwhile together in the next call', async () => {
    const service = heldVoteService(accept);
    const caster = new VoteCaster(service.client);
    const first = caster.cast(member('ada'), 1, 5);
    await settle();
    expect(service.calls.map((c) => c.request.votes.length)).toEqual([1]);
    const later = [caster.cast(member('bob'), 2, 4), caster.cast(member('cy'), 3, 3), caster.cast(member('ada'), 4, 2)];
    await settle();
    expect(service.calls).toHaveLength(1);
    service.calls[0]!.finish();
    expect(await first).toEqual({ rating: 5, averageRating: 5, voteCount: 1 });
    await settle();
    expect(service.calls[1]!.request.votes.map((v) => v.vote)).toEqual([
      { photoId: 2, rating: 4 },
      { photoId: 3, rating: 3 },
      { photoId: 4, rating: 2 },
    ]);
    service.calls[1]!.finish();
    expect((await Promise.all(later)).map((v) => v.voteCount)).toEqual([2, 3, 4]);
  });

  it('makes the call as the gateway with no user, each vote carrying its member’s user assertion', async () => {
    const service = heldVoteService(accept);
    const caster = new VoteCaster(service.client);
    const vote = caster.cast(member('ada'), 1, 5);
    await settle();
    const call = service.calls[0]!;
    expect(call.caller).toBeNull();
    expect(voteSigner.verifyUser(call.request.votes[0]!.origin!.identity)).toEqual(member('ada'));
    call.finish();
    await vote;
  });

  it('rejects a refused vote with the status its own call would have had, and only that vote', async () => {
    const service = heldVoteService((v) =>
      v.vote!.photoId === 7 ? { outcome: { $case: 'error', value: { code: status.PERMISSION_DENIED, message: 'You cannot vote on your own photo' } } } : accept(v),
    );
    const caster = new VoteCaster(service.client);
    const votes = [caster.cast(member('ada'), 7, 5), caster.cast(member('bob'), 8, 4)];
    await settle();
    service.calls[0]!.finish();
    const [refused, cast] = await Promise.allSettled(votes);
    expect(cast).toMatchObject({ status: 'fulfilled', value: { rating: 4 } });
    const error = (refused as PromiseRejectedResult).reason;
    expect(isServiceError(error)).toBe(true);
    expect(error).toMatchObject({ code: status.PERMISSION_DENIED, details: 'You cannot vote on your own photo' });
    expect(httpStatusForGrpc(error.code)).toBe(403);
  });

  it('fails every vote of a call that failed, and goes on with the next', async () => {
    const service = heldVoteService(accept);
    const caster = new VoteCaster(service.client);
    const failed = caster.cast(member('ada'), 1, 5);
    await settle();
    const next = caster.cast(member('bob'), 2, 4);
    service.calls[0]!.finish(Object.assign(new Error('14 UNAVAILABLE'), { code: status.UNAVAILABLE }));
    await expect(failed).rejects.toMatchObject({ code: status.UNAVAILABLE });
    await settle();
    service.calls[1]!.finish();
    expect(await next).toMatchObject({ rating: 4 });
  });
});
