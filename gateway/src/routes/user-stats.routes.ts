import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RatedPhoto } from '@snapcracks/proto/stats/v1';
import type { Clients } from '../clients.js';

/** One of the member's approved photos with votes, as the dashboard's top-rated and lowest-rated cards show it. */
const ratedPhotoJson = z.object({
  id: z.number(),
  filename: z.string(),
  description: z.string().nullable(),
  averageRating: z.number(),
  voteCount: z.number(),
});

/** The member's dashboard figures (spec §3 User stats); definitions in docs/stats.md. */
export const userStatsJson = z.object({
  totalUploads: z.number(),
  approvedUploads: z.number(),
  pendingUploads: z.number(),
  rejectedUploads: z.number(),
  uploadsThisWeek: z.number(),
  averageRating: z.number(),
  recentAverageRating: z.number(),
  recentVoteCount: z.number(),
  totalVotes: z.number(),
  rankByUploads: z.number().nullable(),
  rankByAverageRating: z.number().nullable(),
  totalActiveUsers: z.number(),
  highestRatedPhoto: ratedPhotoJson.nullable(),
  lowestRatedPhoto: ratedPhotoJson.nullable(),
  /** Votes received on the approved photos per rating, 1 star first (the dashboard's distribution); they sum to totalVotes. */
  ratingDistribution: z.array(z.number().int()).length(5),
});

const toRatedPhoto = (photo: RatedPhoto | undefined) =>
  photo ? { id: photo.id, filename: photo.filename, description: photo.description ?? null, averageRating: photo.averageRating, voteCount: photo.voteCount } : null;

/** Five counts whatever the service sent: a stats service older than the field sends none (no votes counted yet). */
const toDistribution = (counts: number[]) => [1, 2, 3, 4, 5].map((_, i) => counts[i] ?? 0);

/** GET /api/user/stats: the caller's own figures and rankings, one call to the stats service's read model. */
export default async function userStatsRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.get('/api/user/stats', { schema: { response: { 200: userStatsJson } } }, async (request, reply) => {
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
