import { describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import type { PhotoRatingTotals, RatingStore } from './ratings.store.js';
import { RATING_EVENTS, applyRatingEvents, ratingsStatementOf, type RatingEvent } from './ratings.consumer.js';

/** A RatingStore in memory with the same rules as the SQL: newer versions only, each rater once. */
function memoryStore(): RatingStore & { totals: Map<number, PhotoRatingTotals>; raters: Set<string> } {
  const totals = new Map<number, PhotoRatingTotals>();
  const raters = new Set<string>();
  return {
    totals,
    raters,
    async apply(changes) {
      for (const t of changes.totals) if ((totals.get(t.photoId)?.version ?? 0) < t.version) totals.set(t.photoId, { ...t });
      for (const { userId, photoId } of changes.raters) raters.add(`${userId}:${photoId}`);
    },
  };
}

/** One event in a statement of its own, as a batch of one. */
const applyAlone = (event: RatingEvent, store: RatingStore) => applyRatingEvents([event], store);

const cast = (photoId: number, voteCount: number, ratingSum: number, version: number) =>
  decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u', rating: 5, voteCount, ratingSum, version }, { source: 'vote' }), RATING_EVENTS);

describe('the ratings consumer', () => {
  it('sets the absolute totals of the newest version, whatever order and however often events arrive', async () => {
    const store = memoryStore();
    await applyAlone(cast(1, 3, 12, 3), store);
    await applyAlone(cast(1, 2, 7, 2), store); // late
    await applyAlone(cast(1, 3, 12, 3), store); // again
    expect(store.totals.get(1)).toEqual({ photoId: 1, voteCount: 3, ratingSum: 12, version: 3 });
    await applyAlone(cast(1, 4, 13, 4), store);
    expect(store.totals.get(1)).toEqual({ photoId: 1, voteCount: 4, ratingSum: 13, version: 4 });
  });

  it('ignores an event without totals (written before they travelled with it)', async () => {
    const store = memoryStore();
    const bare = decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId: 1, userId: 'u', rating: 5 }, { source: 'vote' }), RATING_EVENTS);
    await applyAlone(bare, store);
    expect(store.totals.size).toBe(0);
    expect([...store.raters]).toEqual(['u:1']);
  });

  it('records who rated the photo, once however often the event comes', async () => {
    const store = memoryStore();
    await applyAlone(cast(1, 1, 5, 1), store);
    await applyAlone(cast(1, 1, 5, 1), store);
    expect([...store.raters]).toEqual(['u:1']);
  });

  it('applies a batch as the events one by one would, in one statement that locks the ratings rows of its photos in id order', async () => {
    const events = [cast(2, 1, 4, 1), cast(1, 1, 5, 1), cast(2, 2, 9, 2), cast(2, 1, 4, 1)];
    const batch = memoryStore();
    const alone = memoryStore();
    await applyRatingEvents(events, batch);
    for (const event of events) await applyAlone(event, alone);
    expect(ratingsStatementOf(events)?.values[0]).toEqual([1, 2]);
    expect(ratingsStatementOf([])).toBeNull();
    expect(batch.totals).toEqual(alone.totals);
    expect(batch.raters).toEqual(alone.raters);
    expect(batch.totals.get(2)).toEqual({ photoId: 2, voteCount: 2, ratingSum: 9, version: 2 });
  });
});
