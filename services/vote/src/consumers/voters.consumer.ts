import { makeEvent, type DecodedEvent } from '@snapcracks/kit';
import { UserDeleted, UserUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import { recountEvent } from '../honest-votes.service.js';
import type { RemovedEventOf, VoterStore } from '../vote.repository.js';

/** The account events that change a voter's votes: a deletion takes them away, disabling suspends them. */
export const VOTER_EVENTS = ['auth.user.deleted', 'auth.user.updated'] as const;
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

export interface VoterPolicy {
  /** VOTES_OF_DISABLED_ACCOUNTS_COUNT: when false, a disabled account's votes stop counting until it is enabled again. */
  disabledVotesCount: boolean;
}

/**
 * A deleted account's votes go, and each photo it rated gets its new totals with a new version (and their event), in
 * the consumer's transaction. A deletion is final and account ids are never reused, so order does not matter: handled
 * again, or after any vote event, it finds nothing more to remove.
 *
 * An updated account's enabled flag is recorded (the newest by its updated_at wins, so a late event changes nothing):
 * a disabled voter's votes are suspended unless the policy says they count, an enabled one's resumed, with the
 * photos' totals following exactly as for a deletion. Handled again, it finds nothing left to change.
 */
export async function applyVoterEvent(event: VoterEvent, store: VoterStore, policy: VoterPolicy = { disabledVotesCount: false }): Promise<void> {
  if (event.type === 'auth.user.deleted') {
    const { userId } = event.payload as UserDeleted;
    if (userId) await store.forgetVoter(userId, voteRemovedEvent);
    return;
  }
  const { user, isEnabled, updatedAt } = event.payload as UserUpdated;
  if (!user?.id || !updatedAt) return;
  await store.setEnabled(user.id, isEnabled, updatedAt, !policy.disabledVotesCount, recountEvent);
}
