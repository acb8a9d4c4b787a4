import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger, Platform } from '@snapcracks/kit';
import type { Clients } from './clients.js';
import type { OidcRelyingParty } from './oidc.js';
import type { UserDirectory } from './user-directory.js';
import type { PrismaSessionStore } from './session-store.js';
import type { PrismaClient } from './generated/prisma/client.js';
import errors from './plugins/errors.js';
import tracing from './plugins/tracing.js';
import security from './plugins/security.js';
import session from './plugins/session.js';
import currentUser from './plugins/current-user.js';
import web, { inlineScriptHashes, type WebOptions } from './plugins/web.js';
import authRoutes from './routes/auth.routes.js';
import healthRoutes from './routes/health.routes.js';
import photoRoutes from './routes/photos.routes.js';
import voteRoutes from './routes/votes.routes.js';
import galleryRoutes from './routes/gallery.routes.js';
import type { PublicPageCache } from './public-page-cache.js';
import imageRoutes, { avatarRoutes } from './routes/images.routes.js';
import adminPhotoRoutes from './routes/admin-photos.routes.js';
import googleDriveRoutes from './routes/google-drive.routes.js';

export interface AppDependencies {
  logger: Logger;
  platform: Platform;
  prisma: PrismaClient;
  clients: Clients;
  oidc: OidcRelyingParty;
  users: UserDirectory;
  /** Public pages shared by every visitor, cleared by photo and vote events. */
  publicPages: PublicPageCache;
  sessionStore: PrismaSessionStore;
  sessionSecret: string;
  sessionTtlMs: number;
  publicUrl: string | null;
  trustProxy: boolean;
  rateLimitPerMinute: number;
  /** Absent in API-only tests. */
  web?: WebOptions;
  isDraining?: () => boolean;
}

/** Builds the gateway without listening, so tests can `inject` requests into a fresh instance. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    // pino's Logger is a FastifyBaseLogger; the cast keeps the instance type the plugins expect.
    loggerInstance: deps.logger as FastifyBaseLogger,
    trustProxy: deps.trustProxy,
    bodyLimit: 1024 * 1024,
    // Request ids from the ingress, when present, so one id follows a request through every log line.
    requestIdHeader: 'x-request-id',
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(tracing);
  await app.register(errors);
  await app.register(security, {
    allowedOrigins: deps.publicUrl ? [new URL(deps.publicUrl).origin] : [],
    scriptSources: deps.web && !deps.web.viteRoot ? inlineScriptHashes(deps.web.distDir) : [],
    rateLimitPerMinute: deps.rateLimitPerMinute,
    development: Boolean(deps.web?.viteRoot),
  });
  await app.register(healthRoutes, { platform: deps.platform, prisma: deps.prisma, isDraining: deps.isDraining ?? (() => false) });
  await app.register(session, { secret: deps.sessionSecret, store: deps.sessionStore, ttlMs: deps.sessionTtlMs });
  await app.register(currentUser, { users: deps.users });
  await app.register(authRoutes, { clients: deps.clients, oidc: deps.oidc, users: deps.users, publicUrl: deps.publicUrl });
  await app.register(photoRoutes, { clients: deps.clients });
  await app.register(voteRoutes, { clients: deps.clients });
  await app.register(galleryRoutes, { clients: deps.clients, cache: deps.publicPages });
  await app.register(imageRoutes, { clients: deps.clients });
  await app.register(avatarRoutes, { clients: deps.clients });
  await app.register(adminPhotoRoutes, { clients: deps.clients });
  await app.register(googleDriveRoutes, { clients: deps.clients, publicUrl: deps.publicUrl });
  if (deps.web) await app.register(web, deps.web);
  else app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not found' }));
  return app;
}
