import type { FastifyInstance } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';

/** GET /api/admin/stats, polled every 5 s by the admin panel: one call to the stats service's read model. */
export default async function adminStatsRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  contractRoutes(app)(routes.adminStats, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { pendingReviews, approvedToday, rejectedToday, totalPhotos } = await clients.stats.call.getAdminStats({}, { caller });
    reply.header('cache-control', 'private, no-store');
    return { pendingReviews, approvedToday, rejectedToday, totalPhotos };
  });
}
