import { describe, expect, it } from 'vitest';
import type { CommunityFigures, StatsRepository } from './stats.repository.js';
import { StatsService, utcDayOf } from './stats.service.js';

const figures: CommunityFigures = { photos: 10, pendingPhotos: 3, approvedPhotos: 6, votesOnApproved: 40, ratedFourOrHigher: 2, distinctUploaders: 4 };

function repository(asked: { from: Date; to: Date }[] = []): StatsRepository {
  return {
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
});
