import type { FastifyInstance } from 'fastify';
import type { Readiness } from '../readiness.js';

/**
 * /healthz: the process is alive. /readyz: it can take traffic (Readiness). Both public and cheap, and they say only
 * that: the per-service detail is on the internal port (`/readyz/detail`), which the Ingress never routes.
 */
export default async function healthRoutes(app: FastifyInstance, options: { readiness: Readiness }) {
  app.get('/healthz', async () => ({ status: 'ok' }));

  app.get('/readyz', async (_request, reply) => {
    const ready = await options.readiness.ready();
    return reply.code(ready ? 200 : 503).header('cache-control', 'no-store').send({ status: ready ? 'ready' : 'not ready' });
  });
}
