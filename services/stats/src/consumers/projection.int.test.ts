import { describe, expect, it } from 'vitest';
import type { Envelope } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { CommunityFigures } from '../stats.repository.js';
import { cast, deleted, edited, reviewed, uploaded, userDeleted } from '../testing/events.js';
import { deliver as deliverTo } from '../testing/deliver.js';
import { randomHistories, shuffledDeliveries, truthOf, type Random, seededRandom } from '../testing/histories.js';
import { useStatsTestDatabase } from '../testing/stats-test-database.js';

const { PHOTO_STATUS_APPROVED: APPROVED, PHOTO_STATUS_REJECTED: REJECTED, PHOTO_STATUS_PENDING: PENDING } = PhotoStatus;
const stats = useStatsTestDatabase('stats_projection', 8);

const deliver = (event: Envelope) => deliverTo(stats.db.prisma, event);
const deliverAll = async (events: Envelope[]) => {
  for (const event of events) await deliver(event);
};

const NONE: CommunityFigures = { photos: 0, pendingPhotos: 0, approvedPhotos: 0, votesOnApproved: 0, ratedFourOrHigher: 0, distinctUploaders: 0 };

/** The counters, checked against a count over the rows and the owners' figures against their photos. */
async function figures(): Promise<CommunityFigures> {
  const kept = await stats.repository.communityFigures();
  expect(kept).toEqual(await stats.repository.countFiguresFromRows());
  const approved = await stats.db.prisma.photo.groupBy({ by: ['ownerId'], where: { status: 'approved', deleted: false }, _count: true, _sum: { voteCount: true, ratingSum: true } });
  const owners = await stats.db.prisma.owner.findMany({ where: { OR: [{ approvedPhotos: { not: 0 } }, { votesReceived: { not: 0 } }, { ratingSumReceived: { not: 0 } }] }, orderBy: { ownerId: 'asc' } });
  expect(owners.map((o) => [o.ownerId, o.approvedPhotos, o.votesReceived, Number(o.ratingSumReceived)])).toEqual(
    approved.map((a) => [a.ownerId, a._count, a._sum.voteCount ?? 0, Number(a._sum.ratingSum ?? 0)]).sort(),
  );
  return kept;
}

const photoRow = (photoId: number) => stats.db.prisma.photo.findUniqueOrThrow({ where: { photoId: BigInt(photoId) } });
const at = (iso: string) => new Date(iso);

describe('the stats projection on PostgreSQL', () => {
  it('counts a photo through upload, approval and votes, and forgets it when deleted', async () => {
    const photo = { photoId: 1, ownerId: 'ada' };
    await deliver(uploaded(photo));
    expect(await figures()).toEqual({ ...NONE, photos: 1, pendingPhotos: 1 });
    await deliver(reviewed({ ...photo, status: APPROVED, version: 2 }, at('2030-01-02T10:00:00Z')));
    expect(await figures()).toEqual({ ...NONE, photos: 1, approvedPhotos: 1, distinctUploaders: 1 });
    await deliver(cast(1, { voteCount: 1, ratingSum: 5, version: 1 }));
    await deliver(cast(1, { voteCount: 2, ratingSum: 7, version: 2 }));
    expect(await figures()).toEqual({ ...NONE, photos: 1, approvedPhotos: 1, votesOnApproved: 2, distinctUploaders: 1 });
    await deliver(cast(1, { voteCount: 2, ratingSum: 8, version: 3 })); // a vote changed from 2 to 3: average 4
    expect(await figures()).toMatchObject({ votesOnApproved: 2, ratedFourOrHigher: 1 });
    await deliver(deleted({ ...photo, status: APPROVED, version: 3 }));
    expect(await figures()).toEqual(NONE);
    expect(await photoRow(1)).toMatchObject({ deleted: true, version: 3n, voteCount: 2, reviewedAt: at('2030-01-02T10:00:00Z') });
  });

  it('ignores redeliveries, and older or repeated states and totals, whatever order they arrive in', async () => {
    const photo = { photoId: 2, ownerId: 'ada' };
    const approval = reviewed({ ...photo, status: APPROVED, version: 2 }, at('2030-01-02T10:00:00Z'));
    const third = cast(2, { voteCount: 3, ratingSum: 13, version: 3 });
    expect(await deliver(third)).toBe(true); // totals before the photo: kept, not counted
    expect(await figures()).toEqual(NONE);
    expect(await photoRow(2)).toMatchObject({ status: null, voteCount: 3, ratingVersion: 3n });
    await deliver(approval); // overtook the upload
    expect(await figures()).toEqual({ ...NONE, photos: 1, approvedPhotos: 1, votesOnApproved: 3, ratedFourOrHigher: 1, distinctUploaders: 1 });
    const after = await figures();
    expect(await deliver(approval)).toBe(false); // redelivered: same id
    expect(await deliver(third)).toBe(false);
    await deliver(uploaded(photo)); // late
    await deliver(cast(2, { voteCount: 2, ratingSum: 5, version: 2 })); // late
    await deliver(cast(2, { voteCount: 9, ratingSum: 9, version: 3 })); // another event claiming the same version
    await deliver(reviewed({ ...photo, status: REJECTED, version: 2 }, at('2030-01-03T10:00:00Z'))); // same version again
    expect(await figures()).toEqual(after);
    expect(await photoRow(2)).toMatchObject({ status: 'approved', version: 2n, voteCount: 3, ratingSum: 13n, reviewedAt: at('2030-01-02T10:00:00Z') });
  });

  it('keeps a deleted photo as a tombstone that no late event brings back, even one that overtook its upload', async () => {
    const photo = { photoId: 3, ownerId: 'bob' };
    await deliver(deleted({ ...photo, status: APPROVED, version: 4 }));
    await deliverAll([
      uploaded(photo),
      reviewed({ ...photo, status: APPROVED, version: 2 }, at('2030-01-02T10:00:00Z')),
      edited({ ...photo, status: APPROVED, version: 3, description: 'late' }),
      cast(3, { voteCount: 1, ratingSum: 5, version: 1 }),
    ]);
    expect(await figures()).toEqual(NONE);
    expect(await photoRow(3)).toMatchObject({ deleted: true, version: 4n });
  });

  it('keeps the review time of a decision that an edit overtook', async () => {
    const photo = { photoId: 4, ownerId: 'cy' };
    await deliver(edited({ ...photo, status: REJECTED, version: 3, description: 'edited after the decision' }));
    expect(await photoRow(4)).toMatchObject({ status: 'rejected', reviewedAt: null });
    await deliver(reviewed({ ...photo, status: REJECTED, version: 2 }, at('2030-01-02T10:00:00Z')));
    expect(await photoRow(4)).toMatchObject({ status: 'rejected', version: 3n, description: 'edited after the decision', reviewedAt: at('2030-01-02T10:00:00Z'), reviewVersion: 2n });
    expect(await figures()).toEqual({ ...NONE, photos: 1 });
  });

  it('counts an uploader once whatever number of approved photos, until their last one goes', async () => {
    const approve = (photoId: number, ownerId: string) => [
      uploaded({ photoId, ownerId }),
      reviewed({ photoId, ownerId, status: APPROVED, version: 2 }, at('2030-01-02T10:00:00Z')),
    ];
    await deliverAll([...approve(10, 'ada'), ...approve(11, 'ada'), ...approve(27, 'ada'), ...approve(12, 'bob')]);
    await deliverAll([uploaded({ photoId: 13, ownerId: 'cy' }), reviewed({ photoId: 13, ownerId: 'cy', status: REJECTED, version: 2 }, at('2030-01-02T10:00:00Z'))]);
    expect(await figures()).toMatchObject({ approvedPhotos: 4, photos: 5, distinctUploaders: 2 });
    await deliver(deleted({ photoId: 10, ownerId: 'ada', status: APPROVED, version: 3 }));
    await deliver(deleted({ photoId: 27, ownerId: 'ada', status: APPROVED, version: 3 }));
    expect(await figures()).toMatchObject({ approvedPhotos: 2, distinctUploaders: 2 });
    await deliver(deleted({ photoId: 11, ownerId: 'ada', status: APPROVED, version: 3 }));
    expect(await figures()).toMatchObject({ approvedPhotos: 1, distinctUploaders: 1 });
  });

  it('marks a deleted account without moving the figures: the photo service decides about its photos', async () => {
    await deliverAll([uploaded({ photoId: 20, ownerId: 'dee' }), reviewed({ photoId: 20, ownerId: 'dee', status: APPROVED, version: 2 }, at('2030-01-02T10:00:00Z'))]);
    const before = await figures();
    await deliver(userDeleted('dee'));
    await deliver(userDeleted('never-uploaded'));
    expect(await figures()).toEqual(before);
    expect(await stats.db.prisma.owner.findMany({ orderBy: { ownerId: 'asc' } })).toEqual([
      { ownerId: 'dee', approvedPhotos: 1, votesReceived: 0, ratingSumReceived: 0n, deleted: true },
      { ownerId: 'never-uploaded', approvedPhotos: 0, votesReceived: 0, ratingSumReceived: 0n, deleted: true },
    ]);
  });

  it('leaves the pending count right when a photo is uploaded, approved and rejected in any order', async () => {
    await deliverAll([
      reviewed({ photoId: 30, ownerId: 'ada', status: REJECTED, version: 2 }, at('2030-01-02T10:00:00Z')),
      uploaded({ photoId: 30, ownerId: 'ada' }),
      uploaded({ photoId: 31, ownerId: 'ada' }),
      edited({ photoId: 31, ownerId: 'ada', status: PENDING, version: 2, description: 'x' }),
    ]);
    expect(await figures()).toEqual({ ...NONE, photos: 2, pendingPhotos: 1 });
  });

  // The whole life of many photos, each event delivered in a random order (per photo and across photos), some
  // twice, several at once: the counters must equal both a count over the rows and the truth of the final states.
  it.each([1, 2, 3, 4, 5])('keeps exact figures for random histories delivered shuffled, repeated and concurrently (seed %i)', async (seed) => {
    const random: Random = seededRandom(seed);
    const histories = randomHistories(random, { photos: 120, owners: 12, firstPhotoId: seed * 1000 });
    const deliveries = shuffledDeliveries(random, histories, { repeatShare: 0.15 });
    let next = 0;
    const worker = async () => {
      while (next < deliveries.length) await deliver(deliveries[next++]!);
    };
    // Every worker finishes before the test ends, even when one fails, so none writes into the next test.
    const failed = (await Promise.allSettled(Array.from({ length: 6 }, worker))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;
    const truth = truthOf(histories);
    expect(await figures()).toEqual(truth.figures);
    expect(truth.figures.approvedPhotos).toBeGreaterThan(0);
    expect(truth.figures.ratedFourOrHigher).toBeGreaterThan(0);
  });
});
