import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clients } from '../clients.js';

/** The admin panel's counters (spec §3 Admin stats); "today" is the UTC day. */
export const adminStatsJson = z.object({
  pendingReviews: z.number(),
  approvedToday: z.number(),
  rejectedToday: z.number(),
  totalPhotos: z.number(),
});

/** GET /api/admin/stats, polled every 5 s by the admin panel: one call to the stats service's read model. */
export default async function adminStatsRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const route = app.withTypeProvider<ZodTypeProvider>();

  route.get('/api/admin/stats', { schema: { response: { 200: adminStatsJson } } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { pendingReviews, approvedToday, rejectedToday, totalPhotos } = await clients.stats.call.getAdminStats({}, { caller });
    reply.header('cache-control', 'private, no-store');
    return { pendingReviews, approvedToday, rejectedToday, totalPhotos };
  });
}
