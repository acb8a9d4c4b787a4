import { Metadata } from '@grpc/grpc-js';
import { describe, expect, it } from 'vitest';
import { createLogger, type CallContext, type Caller, type DomainErrorKind } from '@snapcracks/kit';
import type { StatsRepository } from '../stats.repository.js';
import { StatsService } from '../stats.service.js';
import { statsHandlers } from './stats.server.js';

const logger = createLogger('test', 'silent');
const member: Caller = { userId: 'member', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const ctx = (caller: Caller | null): CallContext => ({ caller, service: 'gateway', metadata: new Metadata(), logger });
const kind = (k: DomainErrorKind) => expect.objectContaining({ kind: k });

const zero = { photos: 0, pendingPhotos: 0, approvedPhotos: 0, votesOnApproved: 0, ratedFourOrHigher: 0, distinctUploaders: 0 };
const repository: StatsRepository = {
  communityFigures: async () => ({ ...zero, photos: 2, pendingPhotos: 1, approvedPhotos: 1 }),
  countFiguresFromRows: async () => zero,
  reviewedBetween: async () => ({ approved: 1, rejected: 0 }),
  memberPhotos: async (ownerId) => ({
    total: ownerId === 'member' ? 2 : 0,
    approved: 1,
    pending: 1,
    rejected: 0,
    uploadedBetween: 1,
    votes: 2,
    ratingSum: 7,
    recentVotes: 2,
    recentRatingSum: 7,
    stars: [0, 0, 1, 1, 0],
    highest: { id: 3, filename: '3.webp', description: null, voteCount: 2, ratingSum: 7 },
    lowest: null,
  }),
  memberStanding: async () => ({ approvedPhotos: 1, votes: 2, ratingSum: 7, activeMembers: 4, withMoreApproved: 1, withBetterAverage: 0 }),
};
const handlers = statsHandlers(new StatsService(repository));

describe('the gRPC edge', () => {
  it('answers the gallery’s figures to anyone, signed out included', async () => {
    await expect(handlers.getGalleryStats({}, ctx(null))).resolves.toEqual({ photoCount: 1, totalVotes: 0, ratedFourOrHigher: 0, distinctUploaders: 0 });
    await expect(handlers.getGalleryStats({}, ctx(member))).resolves.toMatchObject({ photoCount: 1 });
  });

  it('answers the admin’s figures to admins only', async () => {
    await expect(handlers.getAdminStats({}, ctx(null))).rejects.toEqual(kind('unauthenticated'));
    await expect(handlers.getAdminStats({}, ctx(member))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.getAdminStats({}, ctx({ ...admin, hasAcceptedTerms: false }))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.getAdminStats({}, ctx(admin))).resolves.toEqual({ pendingReviews: 1, approvedToday: 1, rejectedToday: 0, totalPhotos: 2 });
  });

  it('answers a member’s own stats, leaving out ranks and photos they do not have', async () => {
    await expect(handlers.getUserStats({}, ctx(null))).rejects.toEqual(kind('unauthenticated'));
    await expect(handlers.getUserStats({}, ctx({ ...member, hasAcceptedTerms: false }))).rejects.toEqual(kind('permission_denied'));
    expect(await handlers.getUserStats({}, ctx(member))).toEqual({
      totalUploads: 2,
      approvedUploads: 1,
      pendingUploads: 1,
      rejectedUploads: 0,
      uploadsThisWeek: 1,
      averageRating: 3.5,
      recentAverageRating: 3.5,
      recentVoteCount: 2,
      totalVotes: 2,
      rankByUploads: 2,
      rankByAverageRating: undefined,
      totalActiveUsers: 4,
      highestRatedPhoto: { id: 3, filename: '3.webp', description: undefined, averageRating: 3.5, voteCount: 2 },
      lowestRatedPhoto: undefined,
      ratingDistribution: [0, 0, 1, 1, 0],
    });
  });
});
