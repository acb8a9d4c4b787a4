import { makeEvent, type DecodedEvent } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import type { RemovedEventOf, VoterStore } from '../vote.repository.js';

/** The account events that take a voter's votes away. */
export const VOTER_EVENTS = ['auth.user.deleted'] as const;
export type VoterEvent = DecodedEvent<(typeof VOTER_EVENTS)[number]>;

/**
 * vote.vote.cast for a vote removed with its voter's account: no voter (so no reader records a deleted account as
 * having rated the photo), rating 0, the removed rating as `previous_rating`, and the photo's absolute totals after
 * the removal with their new version. Every reader of the totals (the photo service's ratings, stats, the gateway's
 * public pages) already applies vote.vote.cast by version, so the totals stay exact everywhere with no new event type.
 */
export const voteRemovedEvent: RemovedEventOf = (removed) =>
  makeEvent(
    'vote.vote.cast',
    VoteCast,
    {
      photoId: removed.photoId,
      userId: '',
      rating: 0,
      previousRating: removed.rating,
      voteCount: removed.totals.voteCount,
      ratingSum: removed.totals.ratingSum,
      version: removed.totals.version,
    },
    { source: 'vote' },
  );

/**
 * A deleted account's votes go, and each photo it rated gets its new totals with a new version (and their event), in
 * the consumer's transaction. A deletion is final and account ids are never reused, so order does not matter: handled
 * again, or after any vote event, it finds nothing more to remove.
 */
export async function applyVoterEvent(event: VoterEvent, store: VoterStore): Promise<void> {
  const { userId } = event.payload;
  if (!userId) return;
  await store.forgetVoter(userId, voteRemovedEvent);
}
