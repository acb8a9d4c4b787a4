import { describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { VOTE_NOTICE_EVENTS, mayNotify, voteNotices } from './notices.consumer.js';

const vote = (payload: { userId?: string; voteCount: number; ratingSum: number; previousRating?: number }) =>
  decodeEventOfType(makeEvent('vote.vote.cast', VoteCast, { photoId: 7, userId: 'voter', rating: 5, version: 1, ...payload }, { source: 'vote' }), VOTE_NOTICE_EVENTS);
const photo = { ownerId: 'owner', description: 'Kerb crack' };
const kinds = (event: ReturnType<typeof vote>) => voteNotices(event, photo).map((n) => [n.kind, n.dedupeKey]);

describe('vote notices', () => {
  it('come from a member’s new vote at 1, 10, 50 and 100 votes, and at an average of 4.5 with 10 votes', () => {
    expect(kinds(vote({ voteCount: 1, ratingSum: 3 }))).toEqual([['first_vote', 'votes:7:1']]);
    expect(kinds(vote({ voteCount: 10, ratingSum: 30 }))).toEqual([['vote_milestone', 'votes:7:10']]);
    expect(kinds(vote({ voteCount: 50, ratingSum: 240 }))).toEqual([
      ['vote_milestone', 'votes:7:50'],
      ['high_rating', 'rating:7'],
    ]);
    expect(kinds(vote({ voteCount: 12, ratingSum: 54 }))).toEqual([['high_rating', 'rating:7']]);
    expect(voteNotices(vote({ voteCount: 10, ratingSum: 30 }), photo)[0]).toMatchObject({ userId: 'owner', photoId: 7, title: 'Your photo reached 10 votes', body: '"Kerb crack" has been rated 10 times.' });
  });

  it('let nearly every vote through untouched: other counts, changed votes, admins’ recounts, the owner’s own', () => {
    for (const event of [
      vote({ voteCount: 2, ratingSum: 6 }),
      vote({ voteCount: 11, ratingSum: 44 }),
      vote({ voteCount: 10, ratingSum: 30, previousRating: 2 }),
      vote({ userId: '', voteCount: 10, ratingSum: 30 }),
      vote({ voteCount: 9, ratingSum: 45 }),
    ]) {
      expect(mayNotify(event)).toBe(false);
    }
    expect(mayNotify(vote({ voteCount: 1, ratingSum: 4 }))).toBe(true);
    expect(voteNotices(vote({ userId: 'owner', voteCount: 1, ratingSum: 4 }), photo)).toEqual([]);
  });
});
