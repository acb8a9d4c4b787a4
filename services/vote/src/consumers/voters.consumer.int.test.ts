import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeEvent, makeEvent, type Caller, type Database, type EventBus, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoStatusChanged, PhotoUploaded, UserDeleted, VoteCast, type PhotoState } from '@snapcracks/proto/events/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { PrismaClient } from '../generated/prisma/client.js';
import { voteService } from '../index.js';

const member = (userId: string): Caller => ({ userId, isAdmin: false, hasAcceptedTerms: true });

let services: TestServices;
let db: Database<PrismaClient>;
let bus: EventBus;
let gateway: ServiceClient<VoteServiceClient>;

beforeAll(async () => {
  services = await startTestServices({ services: [voteService] });
  bus = services.platform.bus;
  db = services.openDatabase(PrismaClient, 'vote');
  gateway = services.client(VoteServiceClient, { as: 'gateway', deadlineMs: 30_000 });
});
afterAll(() => services?.stop());

let nextPhotoId = 5000;
const state = (photoId: number, status: PhotoStatus, version: number): PhotoState => ({ photoId, userId: 'owner', filename: `${photoId}.webp`, status, createdAt: new Date(), version });

/** A photo the vote service has heard was uploaded and approved (the in-process bus answers once it is handled). */
async function approvedPhoto(): Promise<number> {
  const photoId = nextPhotoId++;
  await bus.publish(makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: state(photoId, PhotoStatus.PHOTO_STATUS_PENDING, 1) }, { source: 'photo' }));
  await bus.publish(
    makeEvent(
      'photo.photo.status_changed',
      PhotoStatusChanged,
      { photo: state(photoId, PhotoStatus.PHOTO_STATUS_APPROVED, 2), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedAt: new Date(), actionId: 'x' },
      { source: 'photo' },
    ),
  );
  return photoId;
}

const userDeleted = (userId: string) => makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' });
const vote = (photoId: number, userId: string, rating: number) => gateway.call.castVote({ photoId, rating }, { caller: member(userId) });

/** The photo's stored totals, and the totals its rows add up to. */
async function totalsOf(photoId: number) {
  const votes = await db.prisma.photoVote.findMany({ where: { photoId: BigInt(photoId) } });
  const stored = await db.prisma.photoRating.findUniqueOrThrow({ where: { photoId: BigInt(photoId) } });
  return {
    stored: { voteCount: stored.voteCount, ratingSum: Number(stored.ratingSum), version: Number(stored.version) },
    rows: { voteCount: votes.length, ratingSum: votes.reduce((sum, v) => sum + v.rating, 0) },
    voters: votes.map((v) => v.userId).sort(),
  };
}

/** The newest vote.vote.cast of the photo in the outbox: what every reader of the totals ends up with. */
async function newestEvent(photoId: number) {
  const events = (await outboxEvents(db.prisma, 'vote')).filter((e) => e.type === 'vote.vote.cast').map((e) => decodeEvent(e, VoteCast)).filter((e) => e.photoId === photoId);
  return events.sort((a, b) => b.version! - a.version!)[0];
}

describe('a deleted account’s votes', () => {
  it('leave every photo they were on, whose totals drop by exactly those votes, reported with a new version', async () => {
    const [one, two, three] = [await approvedPhoto(), await approvedPhoto(), await approvedPhoto()];
    await vote(one, 'leaving', 5);
    await vote(one, 'ada', 2);
    await vote(two, 'leaving', 1);
    await vote(two, 'leaving', 4); // changed: 4 is what leaves
    await vote(three, 'ada', 3);
    await bus.publish(userDeleted('leaving'));
    expect(await totalsOf(one)).toEqual({ stored: { voteCount: 1, ratingSum: 2, version: 3 }, rows: { voteCount: 1, ratingSum: 2 }, voters: ['ada'] });
    expect(await totalsOf(two)).toEqual({ stored: { voteCount: 0, ratingSum: 0, version: 3 }, rows: { voteCount: 0, ratingSum: 0 }, voters: [] });
    expect(await totalsOf(three)).toMatchObject({ stored: { voteCount: 1, ratingSum: 3, version: 1 } });
    expect(await newestEvent(one)).toEqual({ photoId: one, userId: '', rating: 0, previousRating: 5, voteCount: 1, ratingSum: 2, version: 3 });
    expect(await newestEvent(two)).toEqual({ photoId: two, userId: '', rating: 0, previousRating: 4, voteCount: 0, ratingSum: 0, version: 3 });
    expect(await gateway.call.getMyVote({ photoId: one }, { caller: member('leaving') })).toEqual({});
    // Votes go on from the new totals.
    expect(await vote(two, 'ada', 5)).toEqual({ rating: 5, averageRating: 5, voteCount: 1 });
  });

  it('changes nothing when the deletion is delivered again, or reported again', async () => {
    const photoId = await approvedPhoto();
    await vote(photoId, 'twice', 4);
    await vote(photoId, 'ada', 1);
    const deletion = userDeleted('twice');
    await bus.publish(deletion);
    const after = { totals: await totalsOf(photoId), events: (await outboxEvents(db.prisma, 'vote')).length };
    await bus.publish(deletion); // redelivered: same id
    await bus.publish(userDeleted('twice')); // another report of the same deletion
    expect({ totals: await totalsOf(photoId), events: (await outboxEvents(db.prisma, 'vote')).length }).toEqual(after);
  });

  it('keep the totals equal to the rows while 40 others vote on the same photos at once', async () => {
    const photos = [await approvedPhoto(), await approvedPhoto()];
    for (const photoId of photos) await vote(photoId, 'crowd-leaver', 5);
    const crowd = Array.from({ length: 40 }, (_, i) => vote(photos[i % 2]!, `crowd-${i}`, (i % 5) + 1));
    await Promise.all([...crowd, bus.publish(userDeleted('crowd-leaver'))]);
    for (const photoId of photos) {
      const { stored, rows, voters } = await totalsOf(photoId);
      expect(voters).not.toContain('crowd-leaver');
      expect({ voteCount: stored.voteCount, ratingSum: stored.ratingSum }).toEqual(rows);
      expect(stored.version).toBe(1 + 20 + 1); // every vote and the removal, each its own version
      expect(await newestEvent(photoId)).toMatchObject({ ...rows, version: stored.version });
    }
  });
});
