import { describe, expect, it } from 'vitest';
import { decodeEventOfType } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { cast, reviewed, uploaded } from '../testing/events.js';
import { InMemoryProjectionStore } from '../testing/in-memory-projection.store.js';
import { PHOTO_EVENTS, applyPhotoEvent } from './photos.consumer.js';
import { VOTE_EVENTS, applyVoteEvent, applyVoteEvents } from './votes.consumer.js';

/** The in-memory projection, noting the locks a batch asks for (it needs none itself). */
function batchStore() {
  const locked: number[][] = [];
  const store = Object.assign(new InMemoryProjectionStore(), { lockForVotes: async (photoIds: number[]) => void locked.push(photoIds) });
  return { store, locked };
}

async function withApprovedPhotos(store: InMemoryProjectionStore, ...photoIds: number[]): Promise<void> {
  for (const photoId of photoIds) {
    await applyPhotoEvent(decodeEventOfType(uploaded({ photoId, ownerId: `owner-${photoId}` }), PHOTO_EVENTS), store);
    const approval = reviewed({ photoId, ownerId: `owner-${photoId}`, status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 2 }, new Date(Date.UTC(2030, 0, 2)));
    await applyPhotoEvent(decodeEventOfType(approval, PHOTO_EVENTS), store);
  }
}

describe('a batch of vote events', () => {
  it('locks its photos first, then leaves the projection as the events one by one would', async () => {
    const events = [
      cast(2, { voteCount: 1, ratingSum: 4, version: 1 }, { userId: 'a', rating: 4 }),
      cast(1, { voteCount: 1, ratingSum: 5, version: 1 }, { userId: 'a', rating: 5 }),
      cast(2, { voteCount: 2, ratingSum: 5, version: 2 }, { userId: 'b', rating: 1 }),
      cast(0, { voteCount: 1, ratingSum: 5, version: 1 }), // no photo: ignored, never locked
    ].map((event) => decodeEventOfType(event, VOTE_EVENTS));
    const batch = batchStore();
    const alone = new InMemoryProjectionStore();
    await withApprovedPhotos(batch.store, 1, 2);
    await withApprovedPhotos(alone, 1, 2);

    await applyVoteEvents(events, batch.store);
    for (const event of events) await applyVoteEvent(event, alone);

    expect(batch.locked).toEqual([[2, 1]]); // each photo once (the store sorts them)
    expect(batch.store.figures).toEqual(alone.figures);
    expect([...batch.store.photos]).toEqual([...alone.photos]);
    expect([...batch.store.owners]).toEqual([...alone.owners]);
    expect([...batch.store.stars]).toEqual([...alone.stars]);
    expect(batch.store.figures).toMatchObject({ votesOnApproved: 3 });
  });
});
