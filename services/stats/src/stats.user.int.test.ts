import { describe, expect, it } from 'vitest';
import type { Envelope } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { StatsService, utcWeekOf } from './stats.service.js';
import { cast, deleted, reviewed, uploaded, userDeleted } from './testing/events.js';
import { deliver as deliverTo } from './testing/deliver.js';
import { memberTruthOf, randomHistories, seededRandom } from './testing/histories.js';
import { useStatsTestDatabase } from './testing/stats-test-database.js';

const { PHOTO_STATUS_APPROVED: APPROVED, PHOTO_STATUS_REJECTED: REJECTED } = PhotoStatus;
const stats = useStatsTestDatabase('stats_user', 6);

const deliver = (event: Envelope) => deliverTo(stats.db.prisma, event);
const deliverAll = async (events: Envelope[]) => {
  for (const event of events) await deliver(event);
};
const statsAt = (iso: string) => new StatsService(stats.repository, () => new Date(iso));

let nextId = 1;
/** An approved photo of `ownerId` with votes of the given ratings (one voter each). */
function approvedPhoto(ownerId: string, ratings: number[], options: { approvedAt?: string; description?: string } = {}): Envelope[] {
  const photoId = nextId++;
  const approvedAt = new Date(options.approvedAt ?? '2030-01-02T10:00:00Z');
  let sum = 0;
  return [
    uploaded({ photoId, ownerId, description: options.description }),
    reviewed({ photoId, ownerId, status: APPROVED, version: 2, description: options.description }, approvedAt),
    ...ratings.map((rating, i) => cast(photoId, { voteCount: i + 1, ratingSum: (sum += rating), version: i + 1 }, { userId: `voter-${i}`, rating })),
  ];
}

describe('a member’s stats on PostgreSQL', () => {
  it('ranks by approved uploads and by average, ties sharing a rank, the average rank only from three votes', async () => {
    await deliverAll([
      ...approvedPhoto('ada', [4, 4]),
      ...approvedPhoto('ada', [4]), // ada: 2 approved, 3 votes, average 4
      ...approvedPhoto('bob', [5, 3, 4, 4]),
      ...approvedPhoto('bob', [4, 4]), // bob: 2 approved, 6 votes, average 4 (a tie with ada)
      ...approvedPhoto('cy', [5, 5]), // cy: 1 approved, 2 votes, average 5: too few votes to rank, and ahead of no one
      ...approvedPhoto('dee', [5, 4, 4]),
      ...approvedPhoto('dee', []),
      ...approvedPhoto('dee', []), // dee: 3 approved, 3 votes, average 4.33
      ...approvedPhoto('eve', [1, 1, 1, 1]), // eve: an active member whose account is deleted: counted nowhere
      userDeleted('eve'),
      uploaded({ photoId: nextId++, ownerId: 'fay' }), // fay: pending only, not active
    ]);
    const stats = statsAt('2030-01-10T12:00:00Z');
    const ranks = async (ownerId: string) => {
      const { rankByUploads, rankByAverageRating, totalActiveUsers } = await stats.user(ownerId);
      return { rankByUploads, rankByAverageRating, totalActiveUsers };
    };
    expect(await ranks('dee')).toEqual({ rankByUploads: 1, rankByAverageRating: 1, totalActiveUsers: 4 });
    expect(await ranks('ada')).toEqual({ rankByUploads: 2, rankByAverageRating: 2, totalActiveUsers: 4 });
    expect(await ranks('bob')).toEqual({ rankByUploads: 2, rankByAverageRating: 2, totalActiveUsers: 4 });
    expect(await ranks('cy')).toEqual({ rankByUploads: 4, rankByAverageRating: null, totalActiveUsers: 4 });
    expect(await ranks('fay')).toEqual({ rankByUploads: null, rankByAverageRating: null, totalActiveUsers: 4 });
    expect(await ranks('eve')).toEqual({ rankByUploads: null, rankByAverageRating: null, totalActiveUsers: 4 });

    // A third vote puts cy first by average (5.0 ahead of 4.33); a deletion moves ranks at once.
    const cyPhoto = 5;
    await deliver(cast(cyPhoto, { voteCount: 3, ratingSum: 15, version: 3 }));
    expect(await ranks('cy')).toEqual({ rankByUploads: 4, rankByAverageRating: 1, totalActiveUsers: 4 });
    expect(await ranks('dee')).toMatchObject({ rankByAverageRating: 2 });
    await deliver(deleted({ photoId: 1, ownerId: 'ada', status: APPROVED, version: 3 }));
    expect(await ranks('ada')).toEqual({ rankByUploads: 3, rankByAverageRating: null, totalActiveUsers: 4 });
    expect(await ranks('cy')).toMatchObject({ rankByUploads: 3 });
  });

  it('answers null rated photos without votes, and picks the highest and lowest by average, then votes', async () => {
    await deliverAll([...approvedPhoto('ada', []), uploaded({ photoId: nextId++, ownerId: 'ada' })]);
    expect(await statsAt('2030-01-10T12:00:00Z').user('ada')).toMatchObject({
      totalUploads: 2,
      approvedUploads: 1,
      pendingUploads: 1,
      averageRating: 0,
      recentAverageRating: 0,
      recentVoteCount: 0,
      totalVotes: 0,
      rankByUploads: 1,
      rankByAverageRating: null,
      highestRatedPhoto: null,
      lowestRatedPhoto: null,
    });
    expect(await statsAt('2030-01-10T12:00:00Z').user('nobody')).toMatchObject({ totalUploads: 0, highestRatedPhoto: null, lowestRatedPhoto: null, rankByUploads: null });

    const first = nextId;
    await deliverAll([
      ...approvedPhoto('bob', [4], { description: 'one vote of 4' }),
      ...approvedPhoto('bob', [4, 4], { description: 'two votes of 4' }),
      ...approvedPhoto('bob', [5, 5], { description: 'the best' }),
      ...approvedPhoto('bob', [1, 2], { description: 'the worst' }),
    ]);
    const bob = await statsAt('2030-01-10T12:00:00Z').user('bob');
    expect(bob.highestRatedPhoto).toEqual({ id: first + 2, filename: `${first + 2}.webp`, description: 'the best', averageRating: 5, voteCount: 2 });
    expect(bob.lowestRatedPhoto).toEqual({ id: first + 3, filename: `${first + 3}.webp`, description: 'the worst', averageRating: 1.5, voteCount: 2 });
    await deliver(deleted({ photoId: first + 2, ownerId: 'bob', status: APPROVED, version: 3 }));
    await deliver(deleted({ photoId: first + 3, ownerId: 'bob', status: APPROVED, version: 3 }));
    const after = await statsAt('2030-01-10T12:00:00Z').user('bob');
    // Two photos average 4: the one with more votes is both the surer best and the surer worst.
    expect(after.highestRatedPhoto).toMatchObject({ description: 'two votes of 4', averageRating: 4, voteCount: 2 });
    expect(after.lowestRatedPhoto).toMatchObject({ description: 'two votes of 4' });
    expect(after).toMatchObject({ averageRating: 4, totalVotes: 3 });
  });

  it('takes the recent average over the last five approved photos by approval time', async () => {
    const days = ['01', '02', '03', '04', '05', '06', '07'];
    // Approved on the 1st to the 7th, rated 1 on the first two days and 5 after: the last five average 5.
    for (const [i, day] of days.entries()) await deliverAll(approvedPhoto('ada', i < 2 ? [1, 1] : [5], { approvedAt: `2030-01-${day}T08:00:00Z` }));
    // Rejected photos with votes never count.
    await deliverAll([
      cast(999, { voteCount: 1, ratingSum: 1, version: 1 }),
      uploaded({ photoId: 999, ownerId: 'ada' }),
      reviewed({ photoId: 999, ownerId: 'ada', status: REJECTED, version: 2 }, new Date('2030-01-09T00:00:00Z')),
    ]);
    expect(await statsAt('2030-01-10T12:00:00Z').user('ada')).toMatchObject({
      approvedUploads: 7,
      rejectedUploads: 1,
      totalVotes: 9,
      averageRating: 29 / 9,
      recentAverageRating: 5,
      recentVoteCount: 5,
    });
  });

  it('counts this week’s uploads from Monday 00:00 UTC', async () => {
    const upload = (createdAt: string) => uploaded({ photoId: nextId++, ownerId: 'ada', createdAt: new Date(createdAt) });
    await deliverAll([upload('2030-01-06T23:59:59.999Z'), upload('2030-01-07T00:00:00.000Z'), upload('2030-01-13T23:59:59.999Z'), upload('2030-01-14T00:00:00.000Z')]);
    expect((await statsAt('2030-01-07T00:00:00.000Z').user('ada')).uploadsThisWeek).toBe(2); // Monday 7th to Sunday 13th
    expect((await statsAt('2030-01-13T23:59:59.999Z').user('ada')).uploadsThisWeek).toBe(2);
    expect((await statsAt('2030-01-06T23:59:59.999Z').user('ada')).uploadsThisWeek).toBe(1); // the week before
    expect((await statsAt('2030-01-14T00:00:00.000Z').user('ada')).uploadsThisWeek).toBe(1);
    expect((await statsAt('2030-01-14T00:00:00.000Z').user('ada')).totalUploads).toBe(4);
  });

  // Random lives of photos, each event delivered in a random order and several at once, an account deleted: every
  // member's figures must equal a direct computation over the final states.
  it.each([1, 2, 3])('answers every member’s figures as a direct count over the final states (seed %i)', async (seed) => {
    const random = seededRandom(seed);
    const histories = randomHistories(random, { photos: 150, owners: 10, firstPhotoId: 10_000 * seed });
    const deletedOwners = new Set(['owner-3']);
    const deliveries = [...histories.flatMap((h) => h.events), ...[...deletedOwners].map(userDeleted)];
    for (let i = deliveries.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [deliveries[i], deliveries[j]] = [deliveries[j]!, deliveries[i]!];
    }
    let next = 0;
    const worker = async () => {
      while (next < deliveries.length) await deliver(deliveries[next++]!);
    };
    const failed = (await Promise.allSettled(Array.from({ length: 4 }, worker))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;

    const now = '2030-01-10T12:00:00Z';
    const week = utcWeekOf(new Date(now));
    const owners = [...new Set(histories.map((h) => h.ownerId))];
    let ranked = 0;
    for (const ownerId of owners) {
      const truth = memberTruthOf(histories, ownerId, { weekFrom: week.from, weekTo: week.to, deletedOwners });
      expect(await statsAt(now).user(ownerId), ownerId).toEqual(truth);
      if (truth.rankByAverageRating !== null) ranked++;
    }
    expect(ranked).toBeGreaterThan(1);
  });
});
