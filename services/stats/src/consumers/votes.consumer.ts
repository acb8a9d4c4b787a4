import type { DecodedEvent } from '@snapcracks/kit';
import type { ProjectionStore, StarsMove, VoteBatchStore } from '../stats.repository.js';
import { starsMoveOf } from '../stats.projection.js';

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
  // A second, short statement on the row just locked: the voter’s rating moves between its star counts (starsMoveOf).
  const stars = starsMoveOf(event.payload.rating, event.payload.previousRating);
  if (stars) await store.moveStars(photoId, stars, version);
}

/**
 * A batch of vote events in one transaction (the service consumes them with consumeBatches), leaving what applying them
 * one by one would: the rows they change are locked first, in the lock order every transaction keeps; then each photo
 * gets only its newest totals (the older ones would be overtaken by version anyway), and every voter's rating moves
 * between the star counts (moves commute). Three statements per batch, however many events and photos it holds.
 */
export async function applyVoteEvents(events: VoteEvent[], store: VoteBatchStore): Promise<void> {
  const newest = new Map<number, { voteCount: number; ratingSum: number; version: number }>();
  for (const { payload: p } of events) {
    if (!p.photoId || p.voteCount === undefined || p.ratingSum === undefined || p.version === undefined) continue;
    if ((newest.get(p.photoId)?.version ?? -1) < p.version) newest.set(p.photoId, { voteCount: p.voteCount, ratingSum: p.ratingSum, version: p.version });
  }
  if (newest.size === 0) return;
  // Locking makes a row for a photo not known yet.
  await store.lockForVotes([...newest.keys()]);
  await store.setVoteTotalsOfPhotos([...newest].map(([photoId, totals]) => ({ photoId, totals })));
  const moves = events.flatMap(({ payload: p }): StarsMove[] => {
    const move = newest.has(p.photoId) ? starsMoveOf(p.rating, p.previousRating) : null;
    return move ? [{ photoId: p.photoId, move, eventVersion: p.version! }] : [];
  });
  await store.moveStarsOfVotes(moves);
}
