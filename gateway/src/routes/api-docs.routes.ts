import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { routes } from '@snapcracks/http-contract';
import { openApiDocument } from '@snapcracks/http-contract/openapi';
import { contractRoutes } from '../contract-route.js';

/** The document changes only with a release; a browser may keep it a few minutes. */
const DOCUMENT_CACHE = 'public, max-age=300';

/**
 * GET /api/openapi.json, the OpenAPI document generated from the contract's route definitions (the same ones every
 * route here is registered from), and GET /api/docs, Swagger UI reading the same document (at /api/docs/json). Swagger
 * UI loads only its own scripts from this origin, so it runs under the product's Content Security Policy unchanged.
 */
export default async function apiDocsRoutes(app: FastifyInstance) {
  const document = openApiDocument();
  const body = JSON.stringify(document);
  // @fastify/swagger types only OpenAPI 3.0 documents; Swagger UI reads 3.1 all the same.
  await app.register(swagger, { mode: 'static', specification: { document: document as never } });
  await app.register(swaggerUi, {
    routePrefix: routes.apiDocs.path,
    // The page without Swagger UI's top bar (a box to load another document): it shows this API only.
    uiConfig: { layout: 'BaseLayout', deepLinking: true, docExpansion: 'list', defaultModelsExpandDepth: 0 },
    theme: { title: 'Snap Cracks API' },
  });

  contractRoutes(app)(routes.openApi, async (_request, reply) => reply.header('cache-control', DOCUMENT_CACHE).type('application/json; charset=utf-8').send(body));
}
