import type { FastifyInstance } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import { contractRoutes } from '../contract-route.js';
import type { Readiness } from '../readiness.js';

/**
 * /healthz: the process is alive. /readyz: it can take traffic (Readiness). Both public and cheap, and they say only
 * that: the per-service detail is on the internal port (`/readyz/detail`), which the Ingress never routes.
 */
export default async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }) {
  const serve = contractRoutes(app);
  serve(routes.health, async () => ({ status: 'ok' as const }));

  serve(routes.readiness, async (_request, reply) => {
    const ready = await options.readiness.ready();
    return reply.code(ready ? 200 : 503).header('cache-control', 'no-store').send({ status: ready ? 'ready' : 'not ready' });
  });
}
