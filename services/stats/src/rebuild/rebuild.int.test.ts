import { describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, type Envelope } from '@snapcracks/kit';
import { StatsService, utcWeekOf } from '../stats.service.js';
import { PHOTO_EVENTS, factsOf } from '../consumers/photos.consumer.js';
import { VOTE_EVENTS } from '../consumers/votes.consumer.js';
import { USER_EVENTS } from '../consumers/users.consumer.js';
import { deliver as deliverTo } from '../testing/deliver.js';
import { memberTruthOf, randomHistories, shuffledDeliveries, truthOf, type PhotoHistory, seededRandom } from '../testing/histories.js';
import type { BackfillSources, BackfilledPhoto, BackfilledVotes } from './backfill.sources.js';
import { rebuildStats } from './rebuild.js';
import { useStatsTestDatabase } from '../testing/stats-test-database.js';

const logger = createLogger('test', 'silent');
const stats = useStatsTestDatabase('stats_rebuild', 6);

const NOW = new Date('2030-01-09T12:00:00Z');
const pages = <T>(items: T[], size = 25): T[][] => Array.from({ length: Math.ceil(items.length / size) }, (_, i) => items.slice(i * size, (i + 1) * size));
async function* stream<T>(items: T[][]): AsyncIterable<T[]> {
  yield* items;
}

/** The source services as the histories leave them: what the backfill RPCs would answer once every change is made. */
function sourcesOf(histories: PhotoHistory[], deletedOwners: Set<string>): BackfillSources {
  const last = <T extends { version: number }>(items: T[]) => items.reduce<T | undefined>((newest, item) => (newest && newest.version >= item.version ? newest : item), undefined);
  const live = histories.filter((h) => !h.final.deleted).sort((a, b) => a.photoId - b.photoId);
  const photos = live.map((h): BackfilledPhoto => {
    const states = h.events.filter((e) => (PHOTO_EVENTS as readonly string[]).includes(e.type)).map((e) => factsOf(decodeEventOfType(e, PHOTO_EVENTS).payload.photo)!);
    return { photoId: h.photoId, state: last(states)!, reviewedAt: h.final.reviewedAt };
  });
  const votes = live.flatMap((h): BackfilledVotes[] => {
    const totals = h.events.filter((e) => e.type === 'vote.vote.cast').map((e) => decodeEventOfType(e, VOTE_EVENTS).payload);
    const newest = last(totals.map((t) => ({ voteCount: t.voteCount!, ratingSum: t.ratingSum!, version: t.version! })));
    return newest ? [{ photoId: h.photoId, totals: newest, stars: h.final.stars }] : [];
  });
  const owners = [...new Set(histories.map((h) => h.ownerId))].filter((id) => !deletedOwners.has(id)).sort();
  return { photos: () => stream(pages(photos)), votes: () => stream(pages(votes)), userIds: () => stream(pages(owners)) };
}

/** Every owner's dashboard and the community's figures, against the truth of the final states. */
async function expectTruth(histories: PhotoHistory[], deletedOwners: Set<string>) {
  const truth = truthOf(histories);
  expect(await stats.repository.communityFigures()).toEqual(truth.figures);
  expect(await stats.repository.countFiguresFromRows()).toEqual(truth.figures);
  const week = utcWeekOf(NOW);
  const service = new StatsService(stats.repository, () => NOW);
  for (const ownerId of new Set(histories.map((h) => h.ownerId))) {
    expect(await service.user(ownerId), ownerId).toEqual(memberTruthOf(histories, ownerId, { weekFrom: week.from, weekTo: week.to, deletedOwners }));
  }
}

const deletedOwnersIn = (events: Envelope[]) =>
  new Set(events.filter((e) => e.type === 'auth.user.deleted').map((e) => decodeEventOfType(e, USER_EVENTS).payload.userId));

describe('rebuilding the read models from the sources', () => {
  it.each([1, 2, 3])('gives the figures the events give, from nothing or while the events keep arriving (seed %i)', async (seed) => {
    const random = seededRandom(seed);
    const histories = randomHistories(random, { photos: 80, owners: 8, firstPhotoId: seed * 1000 });
    const deliveries = shuffledDeliveries(random, histories, { repeatShare: 0.1 });
    const deletedOwners = deletedOwnersIn(deliveries);
    const sources = sourcesOf(histories, deletedOwners);

    // From nothing: the sources alone.
    const report = await rebuildStats(stats.db.pool, sources, logger);
    expect(report).toMatchObject({ photos: histories.filter((h) => !h.final.deleted).length, tombstoned: 0 });
    await expectTruth(histories, deletedOwners);

    // Again from the start, now with half the events handled, and the other half arriving while the rebuild runs (the
    // consumers wait for it, then apply on top): every event is older than what the sources said, so none moves a
    // figure, a vote's star included (the rebuild's baseline).
    await stats.db.prisma.$executeRawUnsafe('TRUNCATE stats.photos, stats.owners, stats.community_counters, stats.processed_events');
    const half = Math.floor(deliveries.length / 2);
    for (const event of deliveries.slice(0, half)) await deliverTo(stats.db.prisma, event);
    let next = half;
    const worker = async () => {
      while (next < deliveries.length) await deliverTo(stats.db.prisma, deliveries[next++]!);
    };
    const settled = await Promise.allSettled([rebuildStats(stats.db.pool, sources, logger), ...Array.from({ length: 3 }, worker)]);
    for (const result of settled) if (result.status === 'rejected') throw result.reason;
    await expectTruth(histories, deletedOwners);
  });

  it('tombstones a photo that was known but is gone, so that a late event cannot bring it back', async () => {
    const [kept, gone] = randomHistories(seededRandom(9), { photos: 2, owners: 1, firstPhotoId: 1 });
    // Both just uploaded, as far as stats and the photo service know.
    const uploadOnly = (h: PhotoHistory): PhotoHistory => ({ ...h, events: [h.events[0]!], final: { ...h.final, deleted: false } });
    await deliverTo(stats.db.prisma, kept!.events[0]!);
    await deliverTo(stats.db.prisma, gone!.events[0]!);
    // The photo service no longer has `gone`: deleted while its deletion event has not been handled.
    const report = await rebuildStats(stats.db.pool, sourcesOf([uploadOnly(kept!)], new Set()), logger);
    expect(report.tombstoned).toBe(1);
    expect(await stats.db.prisma.photo.findUniqueOrThrow({ where: { photoId: BigInt(gone!.photoId) } })).toMatchObject({ deleted: true });
    // Its later events (an edit, an approval, votes) arrive late: none brings it back.
    for (const event of gone!.events.slice(1)) await deliverTo(stats.db.prisma, event);
    expect(await stats.repository.communityFigures()).toEqual(await stats.repository.countFiguresFromRows());
    expect((await stats.repository.countFiguresFromRows()).photos).toBe(1);
  });

  it('rolls everything back when a source fails part way', async () => {
    const random = seededRandom(11);
    const histories = randomHistories(random, { photos: 30, owners: 3, firstPhotoId: 1 });
    const sources = sourcesOf(histories, new Set());
    await rebuildStats(stats.db.pool, sources, logger);
    const before = await stats.repository.communityFigures();
    // A stream that fails before its first page, after the photos and votes have been written.
    const failing: BackfillSources = {
      ...sources,
      userIds: () => ({ [Symbol.asyncIterator]: () => ({ next: () => Promise.reject(new Error('auth is unreachable')) }) }),
    };
    await stats.db.prisma.$executeRawUnsafe('UPDATE stats.photos SET status = NULL');
    await expect(rebuildStats(stats.db.pool, failing, logger)).rejects.toThrow('auth is unreachable');
    // Nothing of the failed rebuild stays: the rows are as they were before it.
    expect((await stats.repository.countFiguresFromRows()).photos).toBe(0);
    expect(before.photos).toBeGreaterThan(0);
  });
});
