import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Caller, EventBus, ServiceClient } from '@snapcracks/kit';
import { startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { StatsServiceClient } from '@snapcracks/proto/stats/v1';
import { cast, deleted, reviewed, uploaded } from './testing/events.js';
import { statsService } from './index.js';

const { PHOTO_STATUS_APPROVED: APPROVED, PHOTO_STATUS_REJECTED: REJECTED } = PhotoStatus;
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member', isAdmin: false, hasAcceptedTerms: true };

let services: TestServices;
let bus: EventBus;
let gateway: ServiceClient<StatsServiceClient>;

beforeAll(async () => {
  services = await startTestServices({ services: [statsService] });
  bus = services.platform.bus;
  gateway = services.client(StatsServiceClient, { as: 'gateway' });
});
afterAll(() => services?.stop());

describe('the stats service over gRPC', () => {
  it('builds the gallery’s and the admin’s figures from the events its consumers receive', async () => {
    const now = new Date();
    const twoDaysAgo = new Date(now.getTime() - 2 * 24 * 3_600_000);
    // The in-process bus answers once every consumer has handled the event.
    for (const event of [
      uploaded({ photoId: 1, ownerId: 'ada' }),
      reviewed({ photoId: 1, ownerId: 'ada', status: APPROVED, version: 2 }, now),
      cast(1, { voteCount: 1, ratingSum: 5, version: 1 }, { userId: 'bob', rating: 5 }),
      cast(1, { voteCount: 2, ratingSum: 9, version: 2 }, { userId: 'cy', rating: 4 }),
      uploaded({ photoId: 2, ownerId: 'ada' }),
      reviewed({ photoId: 2, ownerId: 'ada', status: APPROVED, version: 2 }, twoDaysAgo),
      cast(2, { voteCount: 1, ratingSum: 2, version: 1 }, { userId: 'bob', rating: 2 }),
      uploaded({ photoId: 3, ownerId: 'bob' }),
      reviewed({ photoId: 3, ownerId: 'bob', status: REJECTED, version: 2 }, now),
      uploaded({ photoId: 4, ownerId: 'cy' }),
      uploaded({ photoId: 5, ownerId: 'cy' }),
      reviewed({ photoId: 5, ownerId: 'cy', status: APPROVED, version: 2 }, now),
      deleted({ photoId: 5, ownerId: 'cy', status: APPROVED, version: 3 }),
    ]) {
      await bus.publish(event);
    }
    expect(await gateway.call.getGalleryStats({}, { caller: null })).toEqual({ photoCount: 2, totalVotes: 3, ratedFourOrHigher: 1, distinctUploaders: 1 });
    expect(await gateway.call.getAdminStats({}, { caller: admin })).toEqual({ pendingReviews: 1, approvedToday: 1, rejectedToday: 1, totalPhotos: 4 });
    // The caller's own figures: 3 votes on ada's two approved photos (9 + 2), first of one active member.
    expect(await gateway.call.getUserStats({}, { caller: { ...member, userId: 'ada' } })).toEqual({
      totalUploads: 2,
      approvedUploads: 2,
      pendingUploads: 0,
      rejectedUploads: 0,
      uploadsThisWeek: 0,
      averageRating: 11 / 3,
      recentAverageRating: 11 / 3,
      recentVoteCount: 3,
      totalVotes: 3,
      rankByUploads: 1,
      rankByAverageRating: 1,
      totalActiveUsers: 1,
      highestRatedPhoto: { id: 1, filename: '1.webp', averageRating: 4.5, voteCount: 2 },
      lowestRatedPhoto: { id: 2, filename: '2.webp', averageRating: 2, voteCount: 1 },
      ratingDistribution: [0, 1, 0, 1, 1],
    });
    // bob has only a rejected photo: no ranks, no rated photos (left out of the message).
    expect(await gateway.call.getUserStats({}, { caller: { ...member, userId: 'bob' } })).toEqual({
      totalUploads: 1,
      approvedUploads: 0,
      pendingUploads: 0,
      rejectedUploads: 1,
      uploadsThisWeek: 0,
      averageRating: 0,
      recentAverageRating: 0,
      recentVoteCount: 0,
      totalVotes: 0,
      totalActiveUsers: 1,
      ratingDistribution: [0, 0, 0, 0, 0],
    });
  });

  it('keeps exact figures when many votes arrive at once, handled by several subscriptions of the votes consumer', async () => {
    const before = await gateway.call.getGalleryStats({}, { caller: null });
    const photos = Array.from({ length: 20 }, (_, i) => 100 + i);
    for (const photoId of photos) {
      await bus.publish(uploaded({ photoId, ownerId: `owner-${photoId % 3}` }));
      await bus.publish(reviewed({ photoId, ownerId: `owner-${photoId % 3}`, status: APPROVED, version: 2 }, new Date()));
    }
    // Ten votes on each photo, published all at once in a shuffled order; the last one leaves an average of 4.
    const votes = photos.flatMap((photoId) => Array.from({ length: 10 }, (_, v) => cast(photoId, { voteCount: v + 1, ratingSum: 4 * (v + 1) - (v === 9 ? 0 : 1), version: v + 1 })));
    votes.sort(() => Math.random() - 0.5);
    await Promise.all(votes.map((vote) => bus.publish(vote)));
    expect(await gateway.call.getGalleryStats({}, { caller: null })).toEqual({
      photoCount: before.photoCount + 20,
      totalVotes: before.totalVotes + 200,
      ratedFourOrHigher: before.ratedFourOrHigher + 20,
      distinctUploaders: before.distinctUploaders + 3,
    });
  });

  it('answers the admin’s figures to admins only, and user stats to members', async () => {
    expect(await callError(gateway.call.getAdminStats({}, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(gateway.call.getAdminStats({}, { caller: member }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(gateway.call.getUserStats({}, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(gateway.call.getUserStats({}, { caller: { ...member, hasAcceptedTerms: false } }))).toMatchObject({ code: status.PERMISSION_DENIED });
  });
});
