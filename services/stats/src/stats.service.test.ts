import { describe, expect, it } from 'vitest';
import type { CommunityFigures, MemberPhotoFigures, MemberStanding, StatsRepository } from './stats.repository.js';
import { MIN_VOTES_FOR_RATING_RANK, RECENT_APPROVED_PHOTOS, StatsService, utcDayOf, utcWeekOf } from './stats.service.js';

const figures: CommunityFigures = { photos: 10, pendingPhotos: 3, approvedPhotos: 6, votesOnApproved: 40, ratedFourOrHigher: 2, distinctUploaders: 4 };

const NO_PHOTOS: MemberPhotoFigures = {
  total: 0,
  approved: 0,
  pending: 0,
  rejected: 0,
  uploadedBetween: 0,
  votes: 0,
  ratingSum: 0,
  recentVotes: 0,
  recentRatingSum: 0,
  stars: [0, 0, 0, 0, 0],
  highest: null,
  lowest: null,
};
const NOT_ACTIVE: MemberStanding = { approvedPhotos: 0, votes: 0, ratingSum: 0, activeMembers: 7, withMoreApproved: 0, withBetterAverage: 0 };

function repository(asked: { from: Date; to: Date }[] = [], member: { photos?: MemberPhotoFigures; standing?: MemberStanding; asked?: unknown[] } = {}): StatsRepository {
  return {
    memberPhotos: async (ownerId, options) => {
      member.asked?.push({ ownerId, ...options });
      return member.photos ?? NO_PHOTOS;
    },
    memberStanding: async (ownerId, options) => {
      member.asked?.push({ ownerId, ...options });
      return member.standing ?? NOT_ACTIVE;
    },
    communityFigures: async () => figures,
    countFiguresFromRows: async () => figures,
    reviewedBetween: async (from, to) => {
      asked.push({ from, to });
      return { approved: 5, rejected: 1 };
    },
  };
}

describe('the stats service', () => {
  it('answers the gallery’s figures from the community counters', async () => {
    expect(await new StatsService(repository()).gallery()).toEqual({ photoCount: 6, totalVotes: 40, ratedFourOrHigher: 2, distinctUploaders: 4 });
  });

  it('answers the admin’s figures, counting decisions of the current UTC day', async () => {
    const asked: { from: Date; to: Date }[] = [];
    const service = new StatsService(repository(asked), () => new Date('2030-03-10T23:59:59.999Z'));
    expect(await service.admin()).toEqual({ pendingReviews: 3, approvedToday: 5, rejectedToday: 1, totalPhotos: 10 });
    expect(asked).toEqual([{ from: new Date('2030-03-10T00:00:00.000Z'), to: new Date('2030-03-11T00:00:00.000Z') }]);
  });

  it('starts a day at UTC midnight, whatever the time zone of the process', () => {
    expect(utcDayOf(new Date('2030-03-11T00:00:00.000Z'))).toEqual({ from: new Date('2030-03-11T00:00:00.000Z'), to: new Date('2030-03-12T00:00:00.000Z') });
    expect(utcDayOf(new Date('2030-03-10T23:59:59.999Z')).from).toEqual(new Date('2030-03-10T00:00:00.000Z'));
    // 01:30 in Paris on the 11th is still the 10th in UTC.
    expect(utcDayOf(new Date('2030-03-11T01:30:00+02:00')).from).toEqual(new Date('2030-03-10T00:00:00.000Z'));
    expect(utcDayOf(new Date('2030-12-31T12:00:00Z')).to).toEqual(new Date('2031-01-01T00:00:00.000Z'));
  });

  it('starts a week on Monday at UTC midnight, as the gallery’s new-this-week', () => {
    // 2030-03-11 is a Monday.
    expect(utcWeekOf(new Date('2030-03-11T00:00:00.000Z'))).toEqual({ from: new Date('2030-03-11T00:00:00.000Z'), to: new Date('2030-03-18T00:00:00.000Z') });
    expect(utcWeekOf(new Date('2030-03-10T23:59:59.999Z')).from).toEqual(new Date('2030-03-04T00:00:00.000Z'));
    expect(utcWeekOf(new Date('2030-03-17T23:59:59.999Z')).from).toEqual(new Date('2030-03-11T00:00:00.000Z'));
    // Monday 00:30 in Paris is still Sunday in UTC: last week.
    expect(utcWeekOf(new Date('2030-03-11T00:30:00+01:00')).from).toEqual(new Date('2030-03-04T00:00:00.000Z'));
  });
});

describe('a member’s stats', () => {
  const sunday = () => new Date('2030-03-17T20:00:00.000Z');

  it('asks for this week’s uploads, the last five approved photos and the three-vote rule', async () => {
    const asked: unknown[] = [];
    await new StatsService(repository([], { asked }), sunday).user('ada');
    expect(RECENT_APPROVED_PHOTOS).toBe(5);
    expect(MIN_VOTES_FOR_RATING_RANK).toBe(3);
    expect(asked).toEqual([
      { ownerId: 'ada', uploadedFrom: new Date('2030-03-11T00:00:00.000Z'), uploadedTo: new Date('2030-03-18T00:00:00.000Z'), recent: 5 },
      { ownerId: 'ada', minVotes: 3 },
    ]);
  });

  it('answers zeros and nulls for a member with no photos', async () => {
    expect(await new StatsService(repository(), sunday).user('new')).toEqual({
      totalUploads: 0,
      approvedUploads: 0,
      pendingUploads: 0,
      rejectedUploads: 0,
      uploadsThisWeek: 0,
      averageRating: 0,
      recentAverageRating: 0,
      recentVoteCount: 0,
      totalVotes: 0,
      rankByUploads: null,
      rankByAverageRating: null,
      totalActiveUsers: 7,
      highestRatedPhoto: null,
      lowestRatedPhoto: null,
      ratingDistribution: [0, 0, 0, 0, 0],
    });
  });

  it('averages over votes (sum of ratings / votes), ranks as 1 + those strictly ahead, and maps the rated photos', async () => {
    const photos: MemberPhotoFigures = {
      total: 9,
      approved: 5,
      pending: 3,
      rejected: 1,
      uploadedBetween: 2,
      votes: 8,
      ratingSum: 29,
      recentVotes: 6,
      recentRatingSum: 20,
      stars: [0, 1, 1, 2, 4],
      highest: { id: 4, filename: '4.webp', description: 'best', voteCount: 2, ratingSum: 10 },
      lowest: { id: 5, filename: '5.webp', description: null, voteCount: 3, ratingSum: 6 },
    };
    const standing: MemberStanding = { approvedPhotos: 5, votes: 8, ratingSum: 29, activeMembers: 40, withMoreApproved: 2, withBetterAverage: 0 };
    expect(await new StatsService(repository([], { photos, standing }), sunday).user('ada')).toEqual({
      totalUploads: 9,
      approvedUploads: 5,
      pendingUploads: 3,
      rejectedUploads: 1,
      uploadsThisWeek: 2,
      averageRating: 29 / 8,
      recentAverageRating: 20 / 6,
      recentVoteCount: 6,
      totalVotes: 8,
      rankByUploads: 3,
      rankByAverageRating: 1,
      totalActiveUsers: 40,
      highestRatedPhoto: { id: 4, filename: '4.webp', description: 'best', averageRating: 5, voteCount: 2 },
      lowestRatedPhoto: { id: 5, filename: '5.webp', description: null, averageRating: 2, voteCount: 3 },
      ratingDistribution: [0, 1, 1, 2, 4],
    });
  });

  it('gives a rating rank from three votes received, not fewer', async () => {
    const rankWith = async (votes: number) =>
      (
        await new StatsService(repository([], { standing: { approvedPhotos: 1, votes, ratingSum: votes * 4, activeMembers: 3, withMoreApproved: 1, withBetterAverage: 1 } }), sunday).user(
          'ada',
        )
      ).rankByAverageRating;
    expect(await rankWith(2)).toBeNull();
    expect(await rankWith(3)).toBe(2);
  });
});
