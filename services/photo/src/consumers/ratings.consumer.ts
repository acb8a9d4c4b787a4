import type { DecodedEvent } from '@snapcracks/kit';
import type { RatingStore } from '../photo.repository.js';

/** The vote events that keep each photo's rating totals (shown as its average and vote count). */
export const RATING_EVENTS = ['vote.vote.cast'] as const;
export type RatingEvent = DecodedEvent<(typeof RATING_EVENTS)[number]>;

/**
 * Sets a photo's vote count and rating sum to the absolute totals the vote service reported, unless the stored ones
 * are newer (the totals' version orders them), so a redelivered, late or overtaken event never skews a rating; and
 * records that the voter has rated it.
 */
export async function applyRatingEvent(event: RatingEvent, store: RatingStore): Promise<void> {
  const { photoId, userId, voteCount, ratingSum, version } = event.payload;
  if (!photoId) return;
  // Whoever voted has rated the photo, whatever order the totals arrive in (need-your-vote leaves it out).
  if (userId) await store.addRater(userId, photoId);
  // An event without totals (written before they travelled with it) has nothing more to set.
  if (voteCount === undefined || ratingSum === undefined || version === undefined) return;
  await store.setIfNewer({ photoId, voteCount, ratingSum, version });
}
