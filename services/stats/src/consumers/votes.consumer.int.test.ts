import { describe, expect, it } from 'vitest';
import { createBatchConsumer, decodeEventOfType, type Envelope } from '@snapcracks/kit';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import { PrismaStatsRepository } from '../stats.repository.js';
import { deliver } from '../testing/deliver.js';
import { randomHistories, shuffledDeliveries, truthOf, type Random } from '../testing/histories.js';
import { VOTE_EVENTS, applyVoteEvents } from './votes.consumer.js';
import { useStatsTestDatabase } from '../testing/stats-test-database.js';

const batches = createRecordingLogger('warn');
const stats = useStatsTestDatabase('stats_vote_batches', 8);

/** The votes consumer as the service runs it (consumeBatches): on the pool, a batch of events per transaction. */
const votesConsumer = (maxBatch: number) =>
  createBatchConsumer({
    pool: stats.db.pool,
    schema: 'stats',
    consumer: 'stats.votes',
    maxBatch,
    logger: batches.logger,
    handle: (events, tx) => applyVoteEvents(events.map((event) => decodeEventOfType(event, VOTE_EVENTS)), PrismaStatsRepository.voteBatch(tx)),
  });

describe('the stats votes consumer in batches on PostgreSQL', () => {
  // The photo and user events one by one through Prisma, the vote events in batches through two replicas' consumers,
  // all at once and shuffled, some twice: the counters must equal both a count over the rows and the truth, and no
  // batch may deadlock another (a batch that fails is handled again event by event, with a warning).
  it.each([1, 2, 3])('keeps exact figures for random histories, the votes in concurrent batches (seed %i)', async (seed) => {
    const random: Random = mulberry32(seed);
    const histories = randomHistories(random, { photos: 150, owners: 12, firstPhotoId: seed * 1000 });
    const deliveries = shuffledDeliveries(random, histories, { repeatShare: 0.15 });
    const replicas = [votesConsumer(8), votesConsumer(8)];
    const isVote = (event: Envelope) => (VOTE_EVENTS as readonly string[]).includes(event.type);
    let next = 0;
    const handOut = async (worker: number) => {
      while (next < deliveries.length) {
        // A vote is handed to its replica without waiting, as the bus does up to its concurrency; others wait their turn.
        const batch: Promise<unknown>[] = [];
        while (next < deliveries.length && isVote(deliveries[next]!) && batch.length < 12) batch.push(replicas[worker % 2]!(deliveries[next++]!));
        if (batch.length === 0) batch.push(deliver(stats.db.prisma, deliveries[next++]!));
        await Promise.all(batch);
      }
    };
    const failed = (await Promise.allSettled(Array.from({ length: 4 }, (_, i) => handOut(i)))).find((r) => r.status === 'rejected');
    if (failed) throw failed.reason;

    const truth = truthOf(histories);
    const kept = await stats.repository.communityFigures();
    expect(kept).toEqual(await stats.repository.countFiguresFromRows());
    expect(kept).toEqual(truth.figures);
    const owners = await stats.db.prisma.owner.findMany({ where: { approvedPhotos: { not: 0 } } });
    expect(new Map(owners.map((o) => [o.ownerId, { approvedPhotos: o.approvedPhotos, votes: o.votesReceived, ratingSum: Number(o.ratingSumReceived) }]))).toEqual(truth.owners);
    const photos = await stats.db.prisma.photo.findMany({ where: { deleted: false, status: { not: null } } });
    const live = histories.filter((h) => !h.final.deleted);
    expect(new Map(photos.map((p) => [Number(p.photoId), [p.stars1, p.stars2, p.stars3, p.stars4, p.stars5]]))).toEqual(new Map(live.map((h) => [h.photoId, h.final.stars])));
    expect(truth.figures.votesOnApproved).toBeGreaterThan(0);
    expect(batches.records.filter((r) => r.level >= 40)).toEqual([]);
  });
});

/** A small seeded generator, so a failing history can be replayed. */
function mulberry32(seed: number): Random {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
