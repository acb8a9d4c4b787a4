import { describe, expect, it } from 'vitest';
import { decodeEvent, decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { UserDeleted, UserUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import { InMemoryVoteRepository } from '../testing/in-memory-vote.repository.js';
import { voteEvents } from '../vote.service.js';
import { VOTER_EVENTS, applyVoterEvent } from './voters.consumer.js';

const userDeleted = (userId: string) => decodeEventOfType(makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' }), VOTER_EVENTS);

const userUpdated = (userId: string, isEnabled: boolean, at: string) =>
  decodeEventOfType(
    makeEvent('auth.user.updated', UserUpdated, { user: { id: userId }, isEnabled, isAdmin: false, hasAcceptedTerms: true, updatedAt: new Date(at) }, { source: 'auth' }),
    VOTER_EVENTS,
  );

async function votesOn(store: InMemoryVoteRepository, photoId: number, votes: Record<string, number>) {
  await store.votablePhotos.saveIfNewer({ photoId, ownerId: 'owner', approved: true, deleted: false, version: 2 });
  for (const [userId, rating] of Object.entries(votes)) await store.cast({ photoId, userId, rating }, voteEvents);
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

describe('the voters consumer, on an account disabled and enabled', () => {
  it("suspends a disabled account's votes and resumes them once enabled, each photo's totals following as vote.vote.cast", async () => {
    const store = new InMemoryVoteRepository();
    await votesOn(store, 1, { dis: 4, ada: 2 });
    await votesOn(store, 2, { dis: 1 });
    const before = store.events.length;
    await applyVoterEvent(userUpdated('dis', false, '2030-01-01T00:00:00Z'), store.voters);
    expect(await store.totals(1)).toEqual({ voteCount: 1, ratingSum: 2, version: 3 });
    expect(await store.totals(2)).toEqual({ voteCount: 0, ratingSum: 0, version: 2 });
    expect(store.events.slice(before).map((e) => decodeEvent(e, VoteCast))).toEqual([
      { photoId: 1, userId: '', rating: 0, previousRating: 4, voteCount: 1, ratingSum: 2, version: 3 },
      { photoId: 2, userId: '', rating: 0, previousRating: 1, voteCount: 0, ratingSum: 0, version: 2 },
    ]);
    // Still the member's votes: they count again once the account is enabled.
    expect(await store.findRating(1, 'dis')).toBe(4);
    await applyVoterEvent(userUpdated('dis', true, '2030-01-02T00:00:00Z'), store.voters);
    expect(await store.totals(1)).toEqual({ voteCount: 2, ratingSum: 6, version: 4 });
    expect(decodeEvent(store.events.at(-1)!, VoteCast)).toEqual({ photoId: 2, userId: '', rating: 1, voteCount: 1, ratingSum: 1, version: 3 });
  });

  it('ignores an older state, a repeated one and, when disabled votes count, the disabling', async () => {
    const store = new InMemoryVoteRepository();
    await votesOn(store, 1, { dis: 4 });
    await applyVoterEvent(userUpdated('dis', true, '2030-01-02T00:00:00Z'), store.voters);
    const after = { events: store.events.length, totals: await store.totals(1) };
    await applyVoterEvent(userUpdated('dis', false, '2030-01-01T00:00:00Z'), store.voters);
    await applyVoterEvent(userUpdated('dis', true, '2030-01-02T00:00:00Z'), store.voters);
    expect({ events: store.events.length, totals: await store.totals(1) }).toEqual(after);
    await applyVoterEvent(userUpdated('dis', false, '2030-01-03T00:00:00Z'), store.voters, { disabledVotesCount: true });
    expect({ events: store.events.length, totals: await store.totals(1) }).toEqual(after);
  });
});
