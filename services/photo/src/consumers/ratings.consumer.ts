import type { DecodedEvent } from '@snapcracks/kit';
import type { PhotoRatingTotals, RatingStore } from './ratings.store.js';

/** The vote events that keep each photo's rating totals (shown as its average and vote count). */
export const RATING_EVENTS = ['vote.vote.cast'] as const;
export type RatingEvent = DecodedEvent<(typeof RATING_EVENTS)[number]>;

/**
 * A batch of vote events in one transaction (the service consumes them with consumeBatches), with what applying them one
 * by one would leave: per photo the absolute totals of the newest version (the totals' version orders them, so a
 * redelivered, late or overtaken event never skews a rating), and every voter as a rater, whatever order the totals
 * arrive in (need-your-vote leaves rated photos out). An event without totals (written before they travelled with it)
 * only records its voter. The photos' ratings rows (narrow rows of their own, never the photos') are locked first, in
 * id order; then one statement sets the totals and one records the raters, instead of two per event.
 */
export async function applyRatingEvents(events: RatingEvent[], store: RatingStore): Promise<void> {
  const newest = new Map<number, PhotoRatingTotals>();
  const raters = new Map<string, { userId: string; photoId: number }>();
  for (const { payload } of events) {
    const { photoId, userId, voteCount, ratingSum, version } = payload;
    if (!photoId) continue;
    if (userId) raters.set(`${userId}\u0000${photoId}`, { userId, photoId });
    if (voteCount === undefined || ratingSum === undefined || version === undefined) continue;
    if ((newest.get(photoId)?.version ?? -1) < version) newest.set(photoId, { photoId, voteCount, ratingSum, version });
  }
  const totals = [...newest.values()].sort((a, b) => a.photoId - b.photoId);
  // Every photo of the batch, one whose events carried no totals too: its raters go in only while the photo exists.
  const photoIds = new Set([...totals.map((t) => t.photoId), ...[...raters.values()].map((r) => r.photoId)]);
  await store.lockRatings([...photoIds].sort((a, b) => a - b));
  await store.setManyIfNewer(totals);
  await store.addRaters([...raters.values()]);
}
