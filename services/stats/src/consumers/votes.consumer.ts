import type { DecodedEvent } from '@snapcracks/kit';
import type { ProjectionStore } from '../stats.repository.js';

/** The vote events that keep each photo's vote totals in the projection. */
export const VOTE_EVENTS = ['vote.vote.cast'] as const;
export type VoteEvent = DecodedEvent<(typeof VOTE_EVENTS)[number]>;

/**
 * Sets the photo's totals to the absolute ones the vote service reported, unless the stored ones are as new (the
 * totals' version orders them), and moves the community's figures by the difference. Totals that arrive before the
 * photo's own events wait in a row of unknown status, counted once the photo's state arrives.
 */
export async function applyVoteEvent(event: VoteEvent, store: ProjectionStore): Promise<void> {
  const { photoId, voteCount, ratingSum, version } = event.payload;
  // An event without totals (written before they travelled with it) has nothing to set.
  if (!photoId || voteCount === undefined || ratingSum === undefined || version === undefined) return;
  // The busiest consumer: one statement (see ProjectionStore.setVoteTotals).
  await store.setVoteTotals(photoId, { voteCount, ratingSum, version });
}
