import type { DecodedEvent } from '@snapcracks/kit';
import type { RatingStore } from '../photo.repository.js';

/** The vote events that keep each photo's rating totals (shown as its average and vote count). */
export const RATING_EVENTS = ['vote.vote.cast'] as const;
export type RatingEvent = DecodedEvent<(typeof RATING_EVENTS)[number]>;

/**
 * Sets a photo's vote count and rating sum to the absolute totals the vote service reported, unless the stored ones
 * are newer (the totals' version orders them), so a redelivered, late or overtaken event never skews a rating.
 */
export async function applyRatingEvent(event: RatingEvent, store: RatingStore): Promise<void> {
  const { photoId, voteCount, ratingSum, version } = event.payload;
  // An event without totals (written before they travelled with it) has nothing to set.
  if (!photoId || voteCount === undefined || ratingSum === undefined || version === undefined) return;
  await store.setIfNewer({ photoId, voteCount, ratingSum, version });
}
