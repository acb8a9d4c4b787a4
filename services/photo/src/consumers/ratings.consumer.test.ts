import { describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import type { PhotoRatingTotals, RatingStore } from '../photo.repository.js';
import { RATING_EVENTS, applyRatingEvent } from './ratings.consumer.js';

/** A RatingStore in memory with the same rule as the SQL: newer versions only. */
function memoryStore(): RatingStore & { totals: Map<number, PhotoRatingTotals>; raters: Set<string> } {
  const totals = new Map<number, PhotoRatingTotals>();
  const raters = new Set<string>();
  return {
    totals,
    raters,
    async addRater(userId, photoId) {
      raters.add(`${userId}:${photoId}`);
    },
    async setIfNewer(t) {
      if ((totals.get(t.photoId)?.version ?? 0) >= t.version) return false;
      totals.set(t.photoId, { ...t });
      return true;
    },
  };
}

const cast = (photoId: number, voteCount: number, ratingSum: number, version: number) =>
  decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u', rating: 5, voteCount, ratingSum, version }, { source: 'vote' }), RATING_EVENTS);

describe('the ratings consumer', () => {
  it('sets the absolute totals of the newest version, whatever order and however often events arrive', async () => {
    const store = memoryStore();
    await applyRatingEvent(cast(1, 3, 12, 3), store);
    await applyRatingEvent(cast(1, 2, 7, 2), store); // late
    await applyRatingEvent(cast(1, 3, 12, 3), store); // again
    expect(store.totals.get(1)).toEqual({ photoId: 1, voteCount: 3, ratingSum: 12, version: 3 });
    await applyRatingEvent(cast(1, 4, 13, 4), store);
    expect(store.totals.get(1)).toEqual({ photoId: 1, voteCount: 4, ratingSum: 13, version: 4 });
  });

  it('ignores an event without totals (written before they travelled with it)', async () => {
    const store = memoryStore();
    const bare = decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'u', rating: 5 }, { source: 'vote' }), RATING_EVENTS);
    await applyRatingEvent(bare, store);
    expect(store.totals.size).toBe(0);
    expect([...store.raters]).toEqual(['u:1']);
  });

  it('records who rated the photo, once however often the event comes', async () => {
    const store = memoryStore();
    await applyRatingEvent(cast(1, 1, 5, 1), store);
    await applyRatingEvent(cast(1, 1, 5, 1), store);
    expect([...store.raters]).toEqual(['u:1']);
  });
});
