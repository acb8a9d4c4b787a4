import type { FastifyInstance } from 'fastify';
import type { Platform } from '@snapcracks/kit';
import { checkPeers } from '../clients.js';
import type { PrismaClient } from '../generated/prisma/client.js';

/**
 * /healthz: the process is alive. /readyz: it can take traffic — not draining and its database reachable.
 * Peer services are reported but do not gate readiness: one service being down must not take the whole
 * site out of rotation (its own pages answer 503 meanwhile).
 */
export default async function healthRoutes(app: FastifyInstance, options: { platform: Platform; prisma: PrismaClient; isDraining: () => boolean }) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const [database, services] = await Promise.all([
      options.prisma.$queryRaw`SELECT 1`.then(
        () => 'ok',
        () => 'unreachable',
      ),
      checkPeers(options.platform),
    ]);
    const ready = !options.isDraining() && database === 'ok';
    return reply.code(ready ? 200 : 503).send({ status: ready ? 'ready' : 'not ready', database, services, draining: options.isDraining() });
  });
}
