import { describe, expect, it } from 'vitest';
import { VoteMilestone } from '@snapcracks/proto/events/v1';
import { milestonesReached } from './milestones.js';

const { VOTE_MILESTONE_FIRST_VOTE: FIRST, VOTE_MILESTONE_VOTE_COUNT: COUNT, VOTE_MILESTONE_HIGH_RATING: HIGH } = VoteMilestone;

/** A member's vote of `rating` (replacing `previousRating`, if any) that left the photo at these totals. */
const vote = (rating: number, voteCount: number, ratingSum: number, previousRating: number | null = null) =>
  milestonesReached({ photoId: 7, userId: 'voter', rating, previousRating, totals: { voteCount, ratingSum, version: voteCount } });

describe('milestonesReached', () => {
  it('finds the first vote and the counts of 10, 50 and 100, reached by a new vote', () => {
    expect(vote(3, 1, 3)).toEqual([FIRST]);
    expect(vote(3, 10, 30)).toEqual([COUNT]);
    expect(vote(3, 50, 150)).toEqual([COUNT]);
    expect(vote(3, 100, 300)).toEqual([COUNT]);
    expect(vote(3, 2, 6)).toEqual([]);
    expect(vote(3, 11, 33)).toEqual([]);
  });

  it('finds none in a changed vote’s count: the count did not move', () => {
    expect(vote(4, 1, 4, 2)).toEqual([]);
    expect(vote(3, 10, 30, 2)).toEqual([]);
  });

  it('finds the high average when the vote lifts the photo to 4.5 with 10 votes, and not on every vote after', () => {
    // Nine votes summing 41 (4.56) become ten summing 46: the tenth vote makes it count.
    expect(vote(5, 10, 46)).toEqual([COUNT, HIGH]);
    // 11 votes summing 49 (4.45) become 12 summing 54 (4.5).
    expect(vote(5, 12, 54)).toEqual([HIGH]);
    // Already there before (11 votes, 50): another five keeps it there and reaches nothing.
    expect(vote(5, 12, 55)).toEqual([]);
    // Dropping below (a 1) reaches nothing either.
    expect(vote(1, 12, 51)).toEqual([]);
  });

  it('finds the high average reached by a changed vote, and not one it leaves', () => {
    // 12 votes summing 53 (4.42): a 3 changed to 4 lifts it to 54 (4.5).
    expect(vote(4, 12, 54, 3)).toEqual([HIGH]);
    // A 5 changed to a 4 at 12 votes summing 54 (before 55): it was there already.
    expect(vote(4, 12, 54, 5)).toEqual([]);
  });
});
