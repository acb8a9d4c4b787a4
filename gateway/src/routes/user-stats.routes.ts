import type { FastifyInstance } from 'fastify';
import { RATING, routes, type RatedPhoto as RatedPhotoJson } from '@snapcracks/http-contract';
import type { RatedPhoto } from '@snapcracks/proto/stats/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';

const toRatedPhoto = (photo: RatedPhoto | undefined): RatedPhotoJson | null =>
  photo ? { id: photo.id, filename: photo.filename, description: photo.description ?? null, averageRating: photo.averageRating, voteCount: photo.voteCount } : null;

/** Five counts whatever the service sent: a stats service older than the field sends none (no votes counted yet). */
const toDistribution = (counts: number[]) => Array.from({ length: RATING.max }, (_, i) => counts[i] ?? 0);

/** GET /api/user/stats: the caller's own figures and rankings, one call to the stats service's read model. */
export default async function userStatsRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  contractRoutes(app)(routes.userStats, async (request, reply) => {
    const caller = await request.requireMember();
    const stats = await clients.stats.call.getUserStats({}, { caller });
    reply.header('cache-control', 'no-store');
    return {
      totalUploads: stats.totalUploads,
      approvedUploads: stats.approvedUploads,
      pendingUploads: stats.pendingUploads,
      rejectedUploads: stats.rejectedUploads,
      uploadsThisWeek: stats.uploadsThisWeek,
      averageRating: stats.averageRating,
      recentAverageRating: stats.recentAverageRating,
      recentVoteCount: stats.recentVoteCount,
      totalVotes: stats.totalVotes,
      rankByUploads: stats.rankByUploads ?? null,
      rankByAverageRating: stats.rankByAverageRating ?? null,
      totalActiveUsers: stats.totalActiveUsers,
      highestRatedPhoto: toRatedPhoto(stats.highestRatedPhoto),
      lowestRatedPhoto: toRatedPhoto(stats.lowestRatedPhoto),
      ratingDistribution: toDistribution(stats.ratingDistribution),
    };
  });
}
