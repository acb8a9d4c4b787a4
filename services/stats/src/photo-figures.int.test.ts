import { describe, expect, it } from 'vitest';
import { SqlProjectionStore } from './projection.store.js';
import { unknownPhoto, type PhotoRow } from './stats.projection.js';
import type { CommunityFigures } from './stats.repository.js';
import { useStatsTestDatabase } from './testing/stats-test-database.js';

const stats = useStatsTestDatabase('stats_photo_figures', 2);

interface Figures {
  photos: number;
  pending_photos: number;
  approved_photos: number;
  votes_on_approved: number;
  rating_sum_on_approved: number;
  rated_four_or_higher: number;
}
const NOTHING: Figures = { photos: 0, pending_photos: 0, approved_photos: 0, votes_on_approved: 0, rating_sum_on_approved: 0, rated_four_or_higher: 0 };

const figuresOf = async (row: Pick<PhotoRow, 'status' | 'deleted' | 'voteCount' | 'ratingSum'>): Promise<Figures> =>
  (
    await stats.db.pool.query<Figures>(
      `SELECT "photos", "pending_photos", "approved_photos", "votes_on_approved", "rating_sum_on_approved"::int, "rated_four_or_higher"
       FROM "stats"."photo_figures"($1::text::"stats"."PhotoStatus", $2, $3, $4)`,
      [row.status, row.deleted, row.voteCount, row.ratingSum],
    )
  ).rows[0]!;

const row = (over: Partial<PhotoRow> = {}): PhotoRow => ({ ...unknownPhoto(7), deleted: false, ...over });
const approved = (over: Partial<PhotoRow> = {}) => row({ ownerId: 'ada', status: 'approved', version: 2, ...over });

/** Saves each row in turn in one transaction each, as a consumer does after merging an event. */
async function save(...rows: PhotoRow[]): Promise<void> {
  for (const next of rows) {
    await stats.db.prisma.$transaction(async (tx) => {
      const store = new SqlProjectionStore(tx);
      await store.lockPhoto(next.photoId);
      await store.savePhoto(next);
    });
  }
}
const community = (): Promise<CommunityFigures> => stats.repository.communityFigures();
const owners = async () =>
  (await stats.db.prisma.owner.findMany({ orderBy: { ownerId: 'asc' } })).map((o) => [o.ownerId, o.approvedPhotos, o.votesReceived, Number(o.ratingSumReceived)]);
const NONE: CommunityFigures = { photos: 0, pendingPhotos: 0, approvedPhotos: 0, votesOnApproved: 0, ratedFourOrHigher: 0, distinctUploaders: 0 };

describe('what a photo row counts for (photo_figures)', () => {
  it('counts nothing for a photo of unknown status or a deleted one, even with votes', async () => {
    expect(await figuresOf(row({ voteCount: 3, ratingSum: 15 }))).toEqual(NOTHING);
    expect(await figuresOf(approved({ deleted: true, voteCount: 3, ratingSum: 15 }))).toEqual(NOTHING);
  });

  it('counts votes and ratings of approved photos only, four or higher on the exact average', async () => {
    expect(await figuresOf(row({ status: 'pending' }))).toEqual({ ...NOTHING, photos: 1, pending_photos: 1 });
    expect(await figuresOf(row({ status: 'rejected', voteCount: 2, ratingSum: 10 }))).toEqual({ ...NOTHING, photos: 1 });
    expect(await figuresOf(approved())).toEqual({ ...NOTHING, photos: 1, approved_photos: 1 });
    expect(await figuresOf(approved({ voteCount: 3, ratingSum: 12 }))).toEqual({ ...NOTHING, photos: 1, approved_photos: 1, votes_on_approved: 3, rating_sum_on_approved: 12, rated_four_or_higher: 1 });
    expect(await figuresOf(approved({ voteCount: 3, ratingSum: 11 }))).toMatchObject({ votes_on_approved: 3, rating_sum_on_approved: 11, rated_four_or_higher: 0 });
  });
});

describe('a saved row moves the figures by the difference of what it counts for', () => {
  it('moves the shard’s counters and the owner’s figures on an approval, a vote and a deletion', async () => {
    const pending = row({ ownerId: 'ada', status: 'pending', version: 1, voteCount: 2, ratingSum: 10 });
    await save(pending);
    expect(await community()).toEqual({ ...NONE, photos: 1, pendingPhotos: 1 });
    const approval = { ...pending, status: 'approved' as const, version: 2 };
    await save(approval);
    expect(await community()).toEqual({ ...NONE, photos: 1, approvedPhotos: 1, votesOnApproved: 2, ratedFourOrHigher: 1, distinctUploaders: 1 });
    expect(await owners()).toEqual([['ada', 1, 2, 10]]);
    await save({ ...approval, voteCount: 3, ratingSum: 11 });
    expect(await community()).toMatchObject({ votesOnApproved: 3, ratedFourOrHigher: 0 });
    expect(await owners()).toEqual([['ada', 1, 3, 11]]);
    await save({ ...approval, voteCount: 3, ratingSum: 11, deleted: true, version: 3 });
    expect(await community()).toEqual(NONE);
    expect(await owners()).toEqual([['ada', 0, 0, 0]]);
  });

  it('moves no owner for votes on a photo that is not approved, and nothing at all for an edit', async () => {
    await save(row({ ownerId: 'ada', status: 'rejected', version: 2 }), row({ ownerId: 'ada', status: 'rejected', version: 2, voteCount: 1, ratingSum: 4 }));
    expect(await owners()).toEqual([]);
    await save(approved({ photoId: 8 }));
    const shard = async () => (await stats.db.pool.query(`SELECT xmin::text AS "written_by", * FROM "stats"."community_counters" WHERE "shard" = 8`)).rows[0];
    const before = { shard: await shard(), owners: await owners() };
    await save(approved({ photoId: 8, description: 'new', version: 3 }));
    expect({ shard: await shard(), owners: await owners() }).toEqual(before);
  });

  it('keeps apart two owners of one row', async () => {
    await save(approved({ ownerId: 'zed' }), approved({ ownerId: 'amy', version: 3 }));
    expect(await owners()).toEqual([
      ['amy', 1, 0, 0],
      ['zed', 0, 0, 0],
    ]);
    expect(await community()).toMatchObject({ approvedPhotos: 1, distinctUploaders: 1 });
  });
});
