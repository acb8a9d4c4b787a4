import { describe, expect, it } from 'vitest';
import { decodeEventOfType } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { cast, reviewed, uploaded } from '../testing/events.js';
import { InMemoryProjectionStore } from '../testing/in-memory-projection.store.js';
import { PHOTO_EVENTS, applyPhotoEvent } from './photos.consumer.js';
import type { VoteChange } from '../projection.store.js';
import { VOTE_EVENTS, applyVoteEvent, applyVoteEvents, voteEventsStatementOf } from './votes.consumer.js';

/** The in-memory projection, noting what each of its vote statements is given. */
function recordingStore() {
  const calls: VoteChange[][] = [];
  const store = new InMemoryProjectionStore();
  const applyVotes = store.applyVotes.bind(store);
  store.applyVotes = async (votes) => {
    calls.push(votes);
    await applyVotes(votes);
  };
  return { store, calls };
}

async function withApprovedPhotos(store: InMemoryProjectionStore, ...photoIds: number[]): Promise<void> {
  for (const photoId of photoIds) {
    await applyPhotoEvent(decodeEventOfType(uploaded({ photoId, ownerId: `owner-${photoId}` }), PHOTO_EVENTS), store);
    const approval = reviewed({ photoId, ownerId: `owner-${photoId}`, status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 2 }, new Date(Date.UTC(2030, 0, 2)));
    await applyPhotoEvent(decodeEventOfType(approval, PHOTO_EVENTS), store);
  }
}

describe('a batch of vote events', () => {
  it('goes to the store in one call, each event with totals once, and leaves what the events one by one leave', async () => {
    const events = [
      cast(2, { voteCount: 1, ratingSum: 4, version: 1 }, { userId: 'a', rating: 4 }),
      cast(1, { voteCount: 1, ratingSum: 5, version: 1 }, { userId: 'a', rating: 5 }),
      cast(2, { voteCount: 2, ratingSum: 5, version: 2 }, { userId: 'b', rating: 1 }),
      cast(2, { voteCount: 2, ratingSum: 6, version: 3 }, { userId: 'b', rating: 2, previousRating: 1 }),
      cast(1, { voteCount: 1, ratingSum: 5, version: 2 }, { userId: 'a', rating: 5, previousRating: 5 }), // the same rating again: no star moves
      cast(0, { voteCount: 1, ratingSum: 5, version: 1 }), // no photo
    ].map((event) => decodeEventOfType(event, VOTE_EVENTS));
    const batch = recordingStore();
    const alone = recordingStore();
    await withApprovedPhotos(batch.store, 1, 2);
    await withApprovedPhotos(alone.store, 1, 2);

    await applyVoteEvents(events, batch.store);
    for (const event of events) await applyVoteEvent(event, alone.store);

    expect(batch.calls).toEqual([
      [
        { eventId: events[0]!.id, photoId: 2, totals: { voteCount: 1, ratingSum: 4, version: 1 }, stars: [0, 0, 0, 1, 0] },
        { eventId: events[1]!.id, photoId: 1, totals: { voteCount: 1, ratingSum: 5, version: 1 }, stars: [0, 0, 0, 0, 1] },
        { eventId: events[2]!.id, photoId: 2, totals: { voteCount: 2, ratingSum: 5, version: 2 }, stars: [1, 0, 0, 0, 0] },
        { eventId: events[3]!.id, photoId: 2, totals: { voteCount: 2, ratingSum: 6, version: 3 }, stars: [-1, 1, 0, 0, 0] },
        { eventId: events[4]!.id, photoId: 1, totals: { voteCount: 1, ratingSum: 5, version: 2 }, stars: null },
      ],
    ]);
    // The service's statement carries the same changes, with the event ids it filters by what it records.
    const statement = voteEventsStatementOf(events);
    expect(statement?.text).toMatch(/"event_id" IN \(SELECT "event_id" FROM "recorded"\)/);
    expect(statement?.values.at(-1)).toEqual(events.slice(0, 5).map((e) => e.id));
    expect(voteEventsStatementOf([events[5]!])).toBeNull();
    expect(alone.calls).toHaveLength(5); // the same statement, one event at a time
    expect([...batch.store.photos]).toEqual([...alone.store.photos]);
    expect([...batch.store.stars]).toEqual([...alone.store.stars]);
    expect(batch.store.photos.get(1)).toMatchObject({ voteCount: 1, ratingSum: 5, ratingVersion: 2 });
    expect(batch.store.photos.get(2)).toMatchObject({ voteCount: 2, ratingSum: 6, ratingVersion: 3 });
    expect(batch.store.stars.get(2)?.stars).toEqual([0, 1, 0, 1, 0]);
  });
});
