import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { IdentitySigner, batchItemOrigin, startTelemetry, decodeEvent, decodeEvents, makeEvent, type Caller, type Database, type EventBus, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoMilestonesReached, PhotoStatusChanged, PhotoUploaded, VoteCast, VoteMilestone, type PhotoState } from '@snapcracks/proto/events/v1';
import { VoteServiceClient, type CastVoteOutcome } from '@snapcracks/proto/vote/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { voteService } from './index.js';

const owner: Caller = { userId: 'owner-1', isAdmin: false, hasAcceptedTerms: true };
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

let nextPhotoId = 1000;
const state = (photoId: number, photoStatus: PhotoStatus, version: number, userId = owner.userId): PhotoState => ({
  photoId,
  userId,
  filename: `${photoId}.webp`,
  status: photoStatus,
  createdAt: new Date(),
  version,
});
const uploaded = (photoId: number, version = 1) => makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: state(photoId, PhotoStatus.PHOTO_STATUS_PENDING, version) }, { source: 'photo' });
const reviewed = (photoId: number, to: PhotoStatus, version = 2) =>
  makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo: state(photoId, to, version), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedAt: new Date(), actionId: 'x' }, { source: 'photo' });
const deleted = (photoId: number, version = 3) => makeEvent('photo.photo.deleted', PhotoDeleted, { photo: state(photoId, PhotoStatus.PHOTO_STATUS_APPROVED, version), deletedAt: new Date() }, { source: 'photo' });

/** A photo the vote service has heard was uploaded and approved (the in-process bus answers once it is handled). */
async function approvedPhoto(): Promise<number> {
  const photoId = nextPhotoId++;
  await bus.publish(uploaded(photoId));
  await bus.publish(reviewed(photoId, PhotoStatus.PHOTO_STATUS_APPROVED));
  return photoId;
}

async function rowsOf(photoId: number) {
  const votes = await db.prisma.photoVote.findMany({ where: { photoId: BigInt(photoId) } });
  const totals = await db.prisma.photoRating.findUnique({ where: { photoId: BigInt(photoId) } });
  return { votes, totals };
}

async function castEvents(photoId: number) {
  return (await outboxEvents(db.prisma, 'vote')).filter((e) => e.type === 'vote.vote.cast').map((e) => decodeEvent(e, VoteCast)).filter((e) => e.photoId === photoId);
}

describe('the vote service over gRPC', () => {
  it('counts 50 members voting on one photo at once exactly', async () => {
    const photoId = await approvedPhoto();
    const ratings = Array.from({ length: 50 }, (_, i) => (i % 5) + 1);
    const answers = await Promise.all(ratings.map((rating, i) => gateway.call.castVote({ photoId, rating }, { caller: member(`voter-${i}`) })));
    expect(answers.map((a) => a.rating)).toEqual(ratings);
    // Each answer holds the totals its own vote left: 1 to 50 votes, each count once.
    expect(answers.map((a) => a.voteCount).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    const { votes, totals } = await rowsOf(photoId);
    expect(votes).toHaveLength(50);
    expect(totals).toMatchObject({ voteCount: 50, ratingSum: 150n, version: 50n });
    expect(answers.find((a) => a.voteCount === 50)!.averageRating).toBe(3);
    const events = await castEvents(photoId);
    expect(events.map((e) => e.version!).sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(events.find((e) => e.version === 50)).toMatchObject({ voteCount: 50, ratingSum: 150 });
    // Each event holds the totals right after its own vote: in version order, every vote adds one and its rating.
    let sum = 0;
    for (const event of events.sort((a, b) => a.version! - b.version!)) {
      sum += event.rating;
      expect(event).toMatchObject({ voteCount: event.version, ratingSum: sum });
    }
  });

  it('leaves one vote, and totals equal to the rows, when one member sends 20 ratings at once', async () => {
    const photoId = await approvedPhoto();
    await gateway.call.castVote({ photoId, rating: 2 }, { caller: member('someone-else') });
    const ratings = Array.from({ length: 20 }, (_, i) => (i % 5) + 1);
    await Promise.all(ratings.map((rating) => gateway.call.castVote({ photoId, rating }, { caller: member('eager') })));
    const { votes, totals } = await rowsOf(photoId);
    expect(votes.filter((v) => v.userId === 'eager')).toHaveLength(1);
    expect(votes).toHaveLength(2);
    expect(totals).toMatchObject({ voteCount: 2, ratingSum: BigInt(votes.reduce((sum, v) => sum + v.rating, 0)), version: 21n });
    const mine = votes.find((v) => v.userId === 'eager')!.rating;
    expect(await gateway.call.getMyVote({ photoId }, { caller: member('eager') })).toEqual({ rating: mine });
    // The newest event carries exactly what is stored.
    const newest = (await castEvents(photoId)).sort((a, b) => b.version! - a.version!)[0];
    expect(newest).toMatchObject({ voteCount: 2, ratingSum: 2 + mine, version: 21 });
  });

  it('changes a vote, answering the new average, and tells the caller their vote', async () => {
    const photoId = await approvedPhoto();
    expect(await gateway.call.getMyVote({ photoId }, { caller: member('ada') })).toEqual({});
    expect(await gateway.call.castVote({ photoId, rating: 5 }, { caller: member('ada') })).toEqual({ rating: 5, averageRating: 5, voteCount: 1 });
    expect(await gateway.call.castVote({ photoId, rating: 4 }, { caller: member('bob') })).toEqual({ rating: 4, averageRating: 4.5, voteCount: 2 });
    expect(await gateway.call.castVote({ photoId, rating: 1 }, { caller: member('ada') })).toEqual({ rating: 1, averageRating: 2.5, voteCount: 2 });
    expect(await gateway.call.getMyVote({ photoId }, { caller: member('ada') })).toEqual({ rating: 1 });
    expect((await castEvents(photoId)).at(-1)).toMatchObject({ userId: 'ada', rating: 1, previousRating: 5, voteCount: 2, ratingSum: 5, version: 3 });
  });

  it('refuses pending, rejected and unknown photos as not found, and one’s own photo as forbidden', async () => {
    const pending = nextPhotoId++;
    await bus.publish(uploaded(pending));
    const rejected = nextPhotoId++;
    await bus.publish(uploaded(rejected));
    await bus.publish(reviewed(rejected, PhotoStatus.PHOTO_STATUS_REJECTED));
    for (const photoId of [pending, rejected, 987_654]) {
      expect(await callError(gateway.call.castVote({ photoId, rating: 5 }, { caller: member('ada') }))).toMatchObject({ code: status.NOT_FOUND, details: 'Photo not found' });
    }
    const photoId = await approvedPhoto();
    expect(await callError(gateway.call.castVote({ photoId, rating: 5 }, { caller: owner }))).toMatchObject({ code: status.PERMISSION_DENIED, details: 'You cannot vote on your own photo' });
    for (const rating of [0, 6, -3]) {
      expect(await callError(gateway.call.castVote({ photoId, rating }, { caller: member('ada') }))).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Rating must be a whole number from 1 to 5' });
    }
    expect(await callError(gateway.call.castVote({ photoId, rating: 5 }, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(gateway.call.castVote({ photoId, rating: 5 }, { caller: { ...member('ada'), hasAcceptedTerms: false } }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(gateway.call.getMyVote({ photoId }, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect((await rowsOf(photoId)).votes).toEqual([]);
  });

  it('keeps the newest photo state whatever order the photo events arrive in, and ignores redeliveries', async () => {
    const photoId = nextPhotoId++;
    const approval = reviewed(photoId, PhotoStatus.PHOTO_STATUS_APPROVED);
    await bus.publish(approval);
    await bus.publish(uploaded(photoId)); // overtaken by the approval
    await bus.publish(approval); // redelivered
    expect(await db.prisma.votablePhoto.findUnique({ where: { photoId: BigInt(photoId) } })).toMatchObject({ ownerId: owner.userId, approved: true, deleted: false, version: 2n });
    expect(await gateway.call.castVote({ photoId, rating: 3 }, { caller: member('ada') })).toMatchObject({ voteCount: 1 });
  });

  it('drops a deleted photo’s votes and totals, and a late event does not bring the photo back', async () => {
    const photoId = await approvedPhoto();
    await gateway.call.castVote({ photoId, rating: 3 }, { caller: member('ada') });
    await bus.publish(deleted(photoId));
    expect(await rowsOf(photoId)).toEqual({ votes: [], totals: null });
    await bus.publish(reviewed(photoId, PhotoStatus.PHOTO_STATUS_APPROVED)); // late
    expect(await db.prisma.votablePhoto.findUnique({ where: { photoId: BigInt(photoId) } })).toMatchObject({ approved: false, deleted: true, version: 3n });
    expect(await callError(gateway.call.castVote({ photoId, rating: 5 }, { caller: member('bob') }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await gateway.call.getMyVote({ photoId }, { caller: member('ada') })).toEqual({});
  });
});

describe('CastVotes: many members’ votes in one call', () => {
  const signedAs = (component: string) => new IdentitySigner(services.platform.identity, component);
  /** A vote as the gateway batches it; `audience` is the service its user assertion was made for (vote, unless a test says). */
  const vote = (photoId: number, rating: number, caller: Caller | null, audience = 'vote') => ({ vote: { photoId, rating }, origin: batchItemOrigin(signedAs('gateway'), caller, audience) });
  const failure = (code: number, message: string): CastVoteOutcome => ({ outcome: { $case: 'error', value: { code, message } } });

  it('answers each vote as its own CastVote would, in order, with the running totals', async () => {
    const photoId = await approvedPhoto();
    const other = await approvedPhoto();
    const { outcomes } = await gateway.call.castVotes(
      { votes: [vote(photoId, 5, member('ada')), vote(photoId, 2, member('bob')), vote(other, 4, member('ada')), vote(photoId, 3, member('ada'))] },
      { caller: null },
    );
    // Ada changes her vote on the photo within the call: her row changes once, each answer as if cast one by one.
    expect(outcomes).toEqual([
      { outcome: { $case: 'cast', value: { rating: 5, averageRating: 5, voteCount: 1 } } },
      { outcome: { $case: 'cast', value: { rating: 2, averageRating: 3.5, voteCount: 2 } } },
      { outcome: { $case: 'cast', value: { rating: 4, averageRating: 4, voteCount: 1 } } },
      { outcome: { $case: 'cast', value: { rating: 3, averageRating: 2.5, voteCount: 2 } } },
    ]);
    expect((await rowsOf(photoId)).totals).toMatchObject({ voteCount: 2, ratingSum: 5n, version: 3n });
    expect((await castEvents(photoId)).map((e) => e.version)).toEqual([1, 2, 3]);
  });

  it('writes the milestones the votes reached beside their casts: the casts in one outbox row, the milestones in another', async () => {
    const photoId = await approvedPhoto();
    // Ten fives: the first vote, then the tenth reaching 10 votes and an average of 5 at once.
    await gateway.call.castVotes({ votes: Array.from({ length: 10 }, (_, i) => vote(photoId, 5, member(`fan${i}`))) }, { caller: null });
    const rows = await db.prisma.$queryRawUnsafe<{ type: string; payload: Uint8Array }[]>(`SELECT "type", "payload" FROM "vote"."outbox" ORDER BY "created_at", "id"`);
    const mine = rows.filter((row) => decodeEvents(row.payload).some((e) => e.type === 'vote.vote.cast' ? decodeEvent(e, VoteCast).photoId === photoId : decodeEvent(e, PhotoMilestonesReached).photoId === photoId));
    expect(mine.map((row) => [row.type, decodeEvents(row.payload).length])).toEqual([
      ['vote.vote.cast', 10],
      ['vote.photo.milestones_reached', 2],
    ]);
    const { VOTE_MILESTONE_FIRST_VOTE: FIRST, VOTE_MILESTONE_VOTE_COUNT: COUNT, VOTE_MILESTONE_HIGH_RATING: HIGH } = VoteMilestone;
    expect(decodeEvents(mine[1]!.payload).map((e) => decodeEvent(e, PhotoMilestonesReached))).toEqual([
      { photoId, voterId: 'fan0', milestones: [FIRST], voteCount: 1, ratingSum: 5 },
      { photoId, voterId: 'fan9', milestones: [COUNT, HIGH], voteCount: 10, ratingSum: 50 },
    ]);
  });

  it('fails only the votes that break a rule, each with the status its own call would get', async () => {
    const photoId = await approvedPhoto();
    const forged = { vote: { photoId, rating: 5 }, origin: { identity: 'v2.e30.AAAA', traceparent: '' } };
    const { outcomes } = await gateway.call.castVotes(
      {
        votes: [
          vote(photoId, 6, member('ada')),
          vote(photoId, 5, owner),
          vote(987_654, 5, member('ada')),
          vote(photoId, 5, null),
          vote(photoId, 5, { ...member('cy'), hasAcceptedTerms: false }),
          forged,
          { vote: { photoId, rating: 5 } },
          // An assertion the gateway made for another service is not one to show the vote service.
          vote(photoId, 5, member('dee'), 'support'),
          vote(photoId, 4, member('bob')),
        ],
      },
      { caller: null },
    );
    expect(outcomes).toEqual([
      failure(status.INVALID_ARGUMENT, 'Rating must be a whole number from 1 to 5'),
      failure(status.PERMISSION_DENIED, 'You cannot vote on your own photo'),
      failure(status.NOT_FOUND, 'Photo not found'),
      failure(status.UNAUTHENTICATED, 'Authentication required'),
      failure(status.PERMISSION_DENIED, 'You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue'),
      failure(status.UNAUTHENTICATED, 'Refused'),
      failure(status.UNAUTHENTICATED, 'Authentication required'),
      failure(status.UNAUTHENTICATED, 'Refused'),
      { outcome: { $case: 'cast', value: { rating: 4, averageRating: 4, voteCount: 1 } } },
    ]);
    const { votes } = await rowsOf(photoId);
    expect(votes.map((v) => v.userId)).toEqual(['bob']);
  });

  it('is the gateway’s only, and refuses more than 500 votes in one call', async () => {
    const photoId = await approvedPhoto();
    const photoService = services.client(VoteServiceClient, { as: 'photo' });
    expect(await callError(photoService.call.castVotes({ votes: [vote(photoId, 5, member('ada'))] }, { caller: null }))).toMatchObject({
      code: status.PERMISSION_DENIED,
    });
    const many = Array.from({ length: 501 }, (_, i) => vote(photoId, 5, member(`m${i}`)));
    expect(await callError(gateway.call.castVotes({ votes: many }, { caller: null }))).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'At most 500 votes per call' });
    expect((await rowsOf(photoId)).votes).toEqual([]);
  });

  it('stamps each vote’s event with the trace of the request that cast it', async () => {
    // Context propagates across awaits only with the context manager startTelemetry registers, as every process does.
    const telemetry = startTelemetry('vote-test');
    onTestFinished(() => telemetry.shutdown());
    const photoId = await approvedPhoto();
    const traceOf = (n: number) => `00-${String(n).padStart(32, '0')}-${'1'.repeat(16)}-01`;
    await gateway.call.castVotes(
      { votes: [1, 2, 3].map((n) => ({ vote: { photoId, rating: n }, origin: { ...batchItemOrigin(signedAs('gateway'), member(`t${n}`), 'vote'), traceparent: traceOf(n) } })) },
      { caller: null },
    );
    const events = (await outboxEvents(db.prisma, 'vote')).filter((e) => e.type === 'vote.vote.cast' && decodeEvent(e, VoteCast).photoId === photoId);
    const traceIds = events.map((e) => e.traceparent.split('-')[1]).sort();
    expect(traceIds).toEqual([1, 2, 3].map((n) => String(n).padStart(32, '0')));
  });
});
