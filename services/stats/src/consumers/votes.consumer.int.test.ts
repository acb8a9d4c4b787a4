import { describe, expect, it } from 'vitest';
import { createBatchConsumer, decodeEventOfType, inTransaction, poolSqlClient, type Envelope } from '@snapcracks/kit';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { SqlProjectionStore } from '../projection.store.js';
import { shardOf } from '../stats.projection.js';
import { deliver } from '../testing/deliver.js';
import { cast, reviewed, uploaded } from '../testing/events.js';
import { randomHistories, shuffledDeliveries, truthOf, type Random, seededRandom } from '../testing/histories.js';
import { VOTE_EVENTS, applyVoteEvents, voteEventsStatementOf } from './votes.consumer.js';
import { useStatsTestDatabase } from '../testing/stats-test-database.js';

const batches = createRecordingLogger('warn');
const stats = useStatsTestDatabase('stats_vote_batches', 8);

/** The votes consumer as the service runs it (consumeBatchesInOneStatement): on the pool, a batch of events in one statement that records them. */
const votesConsumer = (maxBatch: number) =>
  createBatchConsumer({
    pool: stats.db.pool,
    schema: 'stats',
    consumer: 'stats.votes',
    maxBatch,
    logger: batches.logger,
    statementOf: (events) => voteEventsStatementOf(events.map((event) => decodeEventOfType(event, VOTE_EVENTS))),
    deduplicate: true,
  });

describe('the stats votes consumer in batches on PostgreSQL', () => {
  // The photo and user events one by one through Prisma, the vote events in batches through two replicas' consumers,
  // all at once and shuffled, some twice: the counters must equal both a count over the rows and the truth, and no
  // batch may deadlock another (a batch that fails is handled again event by event, with a warning).
  it.each([1, 2, 3])('keeps exact figures for random histories, the votes in concurrent batches (seed %i)', async (seed) => {
    const random: Random = seededRandom(seed);
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

/** Approved photos, each of its owner. */
async function approvedPhotos(owners: Record<number, string>): Promise<void> {
  for (const [id, ownerId] of Object.entries(owners)) {
    const photoId = Number(id);
    await deliver(stats.db.prisma, uploaded({ photoId, ownerId }));
    await deliver(stats.db.prisma, reviewed({ photoId, ownerId, status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 2 }, new Date(Date.UTC(2030, 0, 2))));
  }
}

const applyInOneTransaction = (events: Envelope[]) =>
  inTransaction(stats.db.pool, (tx) => applyVoteEvents(events.map((event) => decodeEventOfType(event, VOTE_EVENTS)), new SqlProjectionStore(tx)));

const photoRow = async (photoId: number) => {
  const p = await stats.db.prisma.photo.findUniqueOrThrow({ where: { photoId: BigInt(photoId) } });
  return { voteCount: p.voteCount, ratingSum: Number(p.ratingSum), ratingVersion: Number(p.ratingVersion), stars: [p.stars1, p.stars2, p.stars3, p.stars4, p.stars5] };
};

describe('a batch of vote events on PostgreSQL', () => {
  // The batch's one statement takes every lock it needs itself. Two batches (or a batch and a photo event) cannot wait
  // on each other in a circle only if it takes them in the order every transaction keeps: all its photos in id order,
  // then their owners in id order, then their shards in order. A transaction holds one row; the batch waits on it, and
  // the rows it holds by then (a probe with NOWAIT fails on them) must be exactly those before it in that order.
  it('takes its rows in the one lock order, photos, owners, shards, each sorted, whatever order its events come in', async () => {
    // Owners and shards sort in another order than their photos: photo 10 is c's in shard 10, 20 b's in 4, 30 a's in 14.
    await approvedPhotos({ 10: 'c', 20: 'b', 30: 'a' });
    const rows = {
      photo10: `"photos" WHERE "photo_id" = 10`,
      photo20: `"photos" WHERE "photo_id" = 20`,
      photo30: `"photos" WHERE "photo_id" = 30`,
      ownerA: `"owners" WHERE "owner_id" = 'a'`,
      ownerB: `"owners" WHERE "owner_id" = 'b'`,
      ownerC: `"owners" WHERE "owner_id" = 'c'`,
      shard4: `"community_counters" WHERE "shard" = ${shardOf(20)}`,
      shard10: `"community_counters" WHERE "shard" = ${shardOf(10)}`,
      shard14: `"community_counters" WHERE "shard" = ${shardOf(30)}`,
    };
    const order = Object.keys(rows) as (keyof typeof rows)[];
    let version = 0;
    const lockedWhileWaitingOn = async (held: keyof typeof rows) => {
      version++;
      const events = [30, 10, 20].map((photoId) => cast(photoId, { voteCount: version, ratingSum: 4 * version, version }, { userId: `v${version}`, rating: 4 }));
      const holder = await stats.db.pool.connect();
      const batch = await stats.db.pool.connect();
      try {
        await holder.query('BEGIN');
        expect((await holder.query(`SELECT 1 FROM "stats".${rows[held]} FOR UPDATE`)).rowCount).toBe(1);
        await batch.query('BEGIN');
        const pid = (await batch.query<{ pid: number }>('SELECT pg_backend_pid() AS "pid"')).rows[0]!.pid;
        const applied = applyVoteEvents(
          events.map((event) => decodeEventOfType(event, VOTE_EVENTS)),
          new SqlProjectionStore(poolSqlClient(batch)),
        ).then(() => batch.query('COMMIT'));
        const waiting = async () => (await stats.db.pool.query('SELECT 1 FROM pg_locks WHERE "pid" = $1 AND NOT "granted"', [pid])).rowCount! > 0;
        for (let tries = 0; !(await waiting()); tries++) {
          if (tries > 200) throw new Error(`the batch never waited on ${held}`);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
        const locked: string[] = [];
        for (const row of order.filter((r) => r !== held)) {
          const probe = await stats.db.pool.connect();
          try {
            await probe.query('BEGIN');
            await probe.query(`SELECT 1 FROM "stats".${rows[row]} FOR UPDATE NOWAIT`).then(
              () => undefined,
              (error: { code?: string }) => {
                if (error.code !== '55P03') throw error;
                locked.push(row);
              },
            );
          } finally {
            await probe.query('ROLLBACK');
            probe.release();
          }
        }
        await holder.query('COMMIT');
        await applied;
        return locked;
      } finally {
        holder.release();
        batch.release();
      }
    };

    expect(await lockedWhileWaitingOn('photo20')).toEqual(['photo10']);
    expect(await lockedWhileWaitingOn('ownerB')).toEqual(['photo10', 'photo20', 'photo30', 'ownerA']);
    expect(await lockedWhileWaitingOn('shard10')).toEqual(['photo10', 'photo20', 'photo30', 'ownerA', 'ownerB', 'ownerC', 'shard4']);
    expect(await stats.repository.communityFigures()).toEqual(await stats.repository.countFiguresFromRows());
    expect(await photoRow(20)).toMatchObject({ voteCount: 3, ratingVersion: 3, stars: [0, 0, 0, 3, 0] });
  });

  // A rebuild read photos 1 to 3 at totals version 5 (their stars_baseline); events at or below it are in their star
  // counts already. The batch gives each photo its newest totals and the star moves of its events above the baseline
  // only, in one update of its row, as the same events one per transaction do on photos 11 to 13.
  it('moves only the stars of events above the baseline and sets only the newest totals, as one event at a time does', async () => {
    await approvedPhotos({ 1: 'ada', 2: 'ada', 3: 'bob', 11: 'ada', 12: 'ada', 13: 'bob' });
    await stats.db.prisma.$executeRawUnsafe(
      `UPDATE "stats"."photos" SET "vote_count" = 5, "rating_sum" = 20, "rating_version" = 5, "stars_4" = 5, "stars_baseline" = 5`,
    );
    await stats.db.prisma.$executeRawUnsafe(
      `UPDATE "stats"."owners" o SET "votes_received" = 5 * n, "rating_sum_received" = 20 * n
       FROM (SELECT "owner_id", count(*)::int AS n FROM "stats"."photos" GROUP BY "owner_id") p WHERE p."owner_id" = o."owner_id"`,
    );
    await stats.db.prisma.$executeRawUnsafe(
      `UPDATE "stats"."community_counters" c SET "votes_on_approved" = 5 * n, "rated_four_or_higher" = n
       FROM (SELECT "photo_id" % 16 AS "shard", count(*)::int AS n FROM "stats"."photos" GROUP BY 1) p WHERE p."shard" = c."shard"`,
    );
    expect(await stats.repository.communityFigures()).toEqual(await stats.repository.countFiguresFromRows());
    const eventsOn = (photoId: number) => {
      const on = (version: number, voteCount: number, ratingSum: number, rating: number, previousRating?: number) =>
        cast(photoId, { voteCount, ratingSum, version }, { userId: `v${version}`, rating, previousRating });
      if (photoId % 10 === 1) return [on(7, 7, 27, 3), on(4, 4, 16, 4), on(6, 6, 24, 4), on(5, 5, 20, 4), on(7, 7, 99, 5, 5)]; // 7 twice: the first's totals win
      if (photoId % 10 === 2) return [on(3, 3, 12, 4), on(5, 5, 20, 4), on(4, 4, 16, 4)]; // all within the baseline: nothing moves
      return [on(6, 5, 18, 2, 4)]; // a changed vote; then late ones, whose totals are overtaken but whose stars move
    };
    const late = (photoId: number) => [cast(photoId, { voteCount: 6, ratingSum: 19, version: 8 }, { userId: 'w', rating: 1 })];

    const versionZero = cast(4, { voteCount: 1, ratingSum: 5, version: 0 }); // newer than no totals: changes nothing
    await applyInOneTransaction([...eventsOn(1), ...eventsOn(2), ...late(3), versionZero]);
    await applyInOneTransaction(eventsOn(3));
    for (const event of [...eventsOn(11), ...eventsOn(12), ...late(13), ...eventsOn(13)]) await applyInOneTransaction([event]);

    expect(await photoRow(1)).toEqual({ voteCount: 7, ratingSum: 27, ratingVersion: 7, stars: [0, 0, 1, 6, 0] });
    expect(await photoRow(2)).toEqual({ voteCount: 5, ratingSum: 20, ratingVersion: 5, stars: [0, 0, 0, 5, 0] });
    expect(await photoRow(3)).toEqual({ voteCount: 6, ratingSum: 19, ratingVersion: 8, stars: [1, 1, 0, 4, 0] });
    for (const photoId of [1, 2, 3]) expect(await photoRow(photoId + 10)).toEqual(await photoRow(photoId));
    expect(await stats.db.prisma.photo.findUnique({ where: { photoId: 4n } })).toBeNull();
    expect(await stats.repository.communityFigures()).toEqual(await stats.repository.countFiguresFromRows());
    const owners = await stats.db.prisma.owner.findMany({ orderBy: { ownerId: 'asc' } });
    expect(owners.map((o) => [o.ownerId, o.votesReceived, Number(o.ratingSumReceived)])).toEqual([
      ['ada', 2 * (7 + 5), 2 * (27 + 20)],
      ['bob', 2 * 6, 2 * 19],
    ]);
  });
});
