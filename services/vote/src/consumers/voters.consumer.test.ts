import { describe, expect, it } from 'vitest';
import { decodeEvent, decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { UserDeleted, VoteCast } from '@snapcracks/proto/events/v1';
import { InMemoryVoteRepository } from '../testing/in-memory-vote.repository.js';
import { voteCastEvent } from '../vote.service.js';
import { VOTER_EVENTS, applyVoterEvent } from './voters.consumer.js';

const userDeleted = (userId: string) => decodeEventOfType(makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' }), VOTER_EVENTS);

async function votesOn(store: InMemoryVoteRepository, photoId: number, votes: Record<string, number>) {
  await store.votablePhotos.saveIfNewer({ photoId, ownerId: 'owner', approved: true, deleted: false, version: 2 });
  for (const [userId, rating] of Object.entries(votes)) await store.cast({ photoId, userId, rating }, voteCastEvent);
}

describe('the voters consumer', () => {
  it('removes a deleted account’s votes and reports each photo’s new totals as vote.vote.cast, without the voter', async () => {
    const store = new InMemoryVoteRepository();
    await votesOn(store, 1, { gone: 5, ada: 3 });
    await votesOn(store, 2, { bob: 1, gone: 2 });
    const before = store.events.length;
    await applyVoterEvent(userDeleted('gone'), store.voters);
    expect(await store.totals(1)).toEqual({ voteCount: 1, ratingSum: 3, version: 3 });
    expect(await store.totals(2)).toEqual({ voteCount: 1, ratingSum: 1, version: 3 });
    expect(await store.findRating(1, 'gone')).toBeNull();
    const reported = store.events.slice(before);
    expect(reported.map((e) => e.type)).toEqual(['vote.vote.cast', 'vote.vote.cast']);
    // userId is empty: readers must not count a deleted account as having rated the photo.
    expect(reported.map((e) => decodeEvent(e, VoteCast))).toEqual([
      { photoId: 1, userId: '', rating: 0, previousRating: 5, voteCount: 1, ratingSum: 3, version: 3 },
      { photoId: 2, userId: '', rating: 0, previousRating: 2, voteCount: 1, ratingSum: 1, version: 3 },
    ]);
  });

  it('changes nothing the second time, for an account without votes, or without an id', async () => {
    const store = new InMemoryVoteRepository();
    await votesOn(store, 1, { gone: 5, ada: 3 });
    await applyVoterEvent(userDeleted('gone'), store.voters);
    const after = { events: store.events.length, totals: await store.totals(1) };
    await applyVoterEvent(userDeleted('gone'), store.voters);
    await applyVoterEvent(userDeleted('never-voted'), store.voters);
    await applyVoterEvent(userDeleted(''), store.voters);
    expect({ events: store.events.length, totals: await store.totals(1) }).toEqual(after);
    expect(await store.findRating(1, 'ada')).toBe(3);
  });
});
