import type { BatchStatement, DecodedEvent } from '@snapcracks/kit';
import { ratingsStatement, type RatingChanges, type RatingStore } from './ratings.store.js';

/** The vote events that keep each photo's rating totals (shown as its average and vote count). */
export const RATING_EVENTS = ['vote.vote.cast'] as const;
export type RatingEvent = DecodedEvent<(typeof RATING_EVENTS)[number]>;

/**
 * What a batch of vote events changes, as applying them one by one would leave it: per photo the absolute totals of the
 * newest version (the totals' version orders them, so a redelivered, late or overtaken event never skews a rating), and
 * every voter as a rater, whatever order the totals arrive in (need-your-vote leaves rated photos out). An event
 * without totals (written before they travelled with it) only records its voter. Both are idempotent, so the batch
 * needs no record of the events it handled.
 */
export function ratingChangesOf(events: RatingEvent[]): RatingChanges {
  const newest = new Map<number, RatingChanges['totals'][number]>();
  const raters = new Map<string, { userId: string; photoId: number }>();
  for (const { payload } of events) {
    const { photoId, userId, voteCount, ratingSum, version } = payload;
    if (!photoId) continue;
    if (userId) raters.set(`${userId}\u0000${photoId}`, { userId, photoId });
    if (voteCount === undefined || ratingSum === undefined || version === undefined) continue;
    if ((newest.get(photoId)?.version ?? -1) < version) newest.set(photoId, { photoId, voteCount, ratingSum, version });
  }
  return { totals: [...newest.values()], raters: [...raters.values()] };
}

/** A batch's changes as the one statement the service's consumer runs on the pool (consumeBatchesInOneStatement). */
export function ratingsStatementOf(events: RatingEvent[]): BatchStatement | null {
  return ratingsStatement(ratingChangesOf(events));
}

/** A batch's changes through a store: a transaction's, or one in memory in tests. */
export async function applyRatingEvents(events: RatingEvent[], store: RatingStore): Promise<void> {
  await store.apply(ratingChangesOf(events));
}
