import type { BatchStatement, DecodedEvent } from '@snapcracks/kit';
import { applyRecordedVotesStatement, type ProjectionStore, type VoteChange } from '../projection.store.js';
import { starsMoveOf } from '../stats.projection.js';

/** The vote events that keep each photo's vote totals in the projection. */
export const VOTE_EVENTS = ['vote.vote.cast'] as const;
export type VoteEvent = DecodedEvent<(typeof VOTE_EVENTS)[number]>;

/**
 * What a vote event changes: the photo's totals, absolute as the vote service reported them with their version, and
 * the voter's rating moving between the star counts (starsMoveOf). Null for an event without totals (written before
 * they travelled with it), which has nothing to set.
 */
function voteChangeOf({ id, payload: p }: VoteEvent): VoteChange | null {
  if (!p.photoId || p.voteCount === undefined || p.ratingSum === undefined || p.version === undefined) return null;
  return { eventId: id, photoId: p.photoId, totals: { voteCount: p.voteCount, ratingSum: p.ratingSum, version: p.version }, stars: starsMoveOf(p.rating, p.previousRating) };
}

/**
 * Sets the photo's totals to the absolute ones the vote service reported, unless the stored ones are as new (the
 * totals' version orders them), moves the voter's rating between the star counts, and moves the community's figures
 * by the difference. Totals that arrive before the photo's own events wait in a row of unknown status, counted once
 * the photo's state arrives. The same statement as a batch's (applyVoteEvents), for one event.
 */
export async function applyVoteEvent(event: VoteEvent, store: ProjectionStore): Promise<void> {
  await applyVoteEvents([event], store);
}

/**
 * A batch of vote events in one transaction (the service consumes them with consumeBatches), leaving what applying them
 * one by one would: each photo gets only its newest totals (the older ones would be overtaken by version anyway), and
 * every voter's rating moves between the star counts (moves commute). One statement per batch, however many events and
 * photos it holds, which takes its row locks in the order every transaction keeps (ProjectionStore.applyVotes).
 */
export async function applyVoteEvents(events: VoteEvent[], store: ProjectionStore): Promise<void> {
  const votes = events.flatMap((event) => voteChangeOf(event) ?? []);
  if (votes.length > 0) await store.applyVotes(votes);
}

/**
 * applyVoteEvents as the service's consumer runs it: one statement a batch on the pool, which records the events it
 * counts (consumeBatchesInOneStatement with `deduplicate`: the star moves are not idempotent).
 */
export function voteEventsStatementOf(events: VoteEvent[]): BatchStatement | null {
  return applyRecordedVotesStatement(events.flatMap((event) => voteChangeOf(event) ?? []));
}
