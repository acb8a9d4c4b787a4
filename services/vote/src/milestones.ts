import { NOTIFICATIONS } from '@snapcracks/http-contract';
import { VoteMilestone } from '@snapcracks/proto/events/v1';
import type { CastResult } from './vote.repository.js';

const { voteMilestones, highRating } = NOTIFICATIONS;

function ratedHighly(voteCount: number, ratingSum: number): boolean {
  return voteCount >= highRating.minVotes && ratingSum >= highRating.average * voteCount;
}

/**
 * The milestones a member's vote took its photo to, for the owner to hear of: the first vote and each count among
 * the milestones (reached only by a new vote), and the high average, when this vote (new or changed) lifted the photo
 * to it from below. Nearly every vote reaches none. Checking the average's crossing, rather than the average itself,
 * keeps a well-rated photo's every later vote from counting as a milestone again.
 */
export function milestonesReached({ rating, previousRating, totals: { voteCount, ratingSum } }: CastResult): VoteMilestone[] {
  const milestones: VoteMilestone[] = [];
  const isNew = previousRating === null;
  if (isNew && voteCount === 1) milestones.push(VoteMilestone.VOTE_MILESTONE_FIRST_VOTE);
  if (isNew && (voteMilestones as readonly number[]).includes(voteCount)) milestones.push(VoteMilestone.VOTE_MILESTONE_VOTE_COUNT);
  const countBefore = isNew ? voteCount - 1 : voteCount;
  const sumBefore = ratingSum - rating + (previousRating ?? 0);
  if (ratedHighly(voteCount, ratingSum) && !ratedHighly(countBefore, sumBefore)) milestones.push(VoteMilestone.VOTE_MILESTONE_HIGH_RATING);
  return milestones;
}
