import type { FastifyInstance } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';

/** Members' upload allowances (how many photos may wait for review at once) and the admins' settings for them. */
export default async function uploadAllowanceRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  const serve = contractRoutes(app);

  serve(routes.uploadAllowance, async (request, reply) => {
    const caller = await request.requireMember();
    const { limit, pending, trusted, reasons } = await clients.photo.call.getUploadAllowance({}, { caller });
    reply.header('cache-control', 'private, no-store');
    return { limit, pending, trusted, reasons };
  });

  serve(routes.uploadAllowanceSettings, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { settings } = await clients.photo.call.getUploadAllowanceSettings({}, { caller });
    if (!settings) throw new Error('The photo service answered without settings');
    reply.header('cache-control', 'private, no-store');
    return { pendingLimit: settings.pendingLimit, trustedAfter: settings.trustedAfter, trustedPendingLimit: settings.trustedPendingLimit };
  });

  serve(routes.setUploadAllowanceSettings, async (request) => {
    const caller = await request.requireAdmin();
    const { settings } = await clients.photo.call.setUploadAllowanceSettings({ settings: request.body }, { caller });
    if (!settings) throw new Error('The photo service answered without settings');
    return { pendingLimit: settings.pendingLimit, trustedAfter: settings.trustedAfter, trustedPendingLimit: settings.trustedPendingLimit };
  });
}
