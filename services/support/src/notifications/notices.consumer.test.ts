import { describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { PhotoMilestonesReached, VoteMilestone } from '@snapcracks/proto/events/v1';
import { VOTE_NOTICE_EVENTS, milestoneNotices } from './notices.consumer.js';

const { VOTE_MILESTONE_FIRST_VOTE: FIRST, VOTE_MILESTONE_VOTE_COUNT: COUNT, VOTE_MILESTONE_HIGH_RATING: HIGH } = VoteMilestone;

const reached = (milestones: VoteMilestone[], voteCount: number, ratingSum: number, voterId = 'voter') =>
  decodeEventOfType(
    makeEvent('vote.photo.milestones_reached', PhotoMilestonesReached, { photoId: 7, voterId, milestones, voteCount, ratingSum }, { source: 'vote' }),
    VOTE_NOTICE_EVENTS,
  );
const photo = { ownerId: 'owner', description: 'Kerb crack' };
const kinds = (event: ReturnType<typeof reached>) => milestoneNotices(event, photo).map((n) => [n.kind, n.dedupeKey]);

describe('vote milestone notices', () => {
  it('tell the owner of each milestone a vote reached, each once per photo by its key', () => {
    expect(kinds(reached([FIRST], 1, 3))).toEqual([['first_vote', 'votes:7:1']]);
    expect(kinds(reached([COUNT], 10, 30))).toEqual([['vote_milestone', 'votes:7:10']]);
    expect(kinds(reached([COUNT, HIGH], 50, 240))).toEqual([
      ['vote_milestone', 'votes:7:50'],
      ['high_rating', 'rating:7'],
    ]);
    expect(kinds(reached([HIGH], 12, 54))).toEqual([['high_rating', 'rating:7']]);
  });

  it('say it in the contract’s words, for the owner', () => {
    expect(milestoneNotices(reached([COUNT], 10, 30), photo)[0]).toMatchObject({ userId: 'owner', photoId: 7, title: 'Your photo reached 10 votes', body: '"Kerb crack" has been rated 10 times.' });
    expect(milestoneNotices(reached([FIRST], 1, 4), photo)[0]).toMatchObject({ userId: 'owner', title: 'Your photo got its first vote' });
  });

  it('make nothing of a vote by the owner, nor of a milestone this version does not know', () => {
    expect(milestoneNotices(reached([FIRST], 1, 4, 'owner'), photo)).toEqual([]);
    expect(milestoneNotices(reached([VoteMilestone.VOTE_MILESTONE_UNSPECIFIED], 3, 9), photo)).toEqual([]);
  });
});
