import { ERRORS } from '@snapcracks/http-contract';
import type { Server } from 'node:http';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyHttpOptions, type FastifyReply } from 'fastify';
import { serializerCompiler } from './serializer.js';
import { validatorCompiler } from './validator.js';
import type { Logger, Platform } from '@snapcracks/kit';
import type { Clients } from './clients.js';
import type { OidcRelyingParty } from './oidc.js';
import type { UserDirectory } from './user-directory.js';
import type { PrismaSessionStore } from './session-store.js';
import type { PrismaClient } from './generated/prisma/client.js';
import errors from './plugins/errors.js';
import tracing from './plugins/tracing.js';
import sharedPageHits from './plugins/shared-page-hits.js';
import { AccessLog } from './access-log.js';
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
import type { Redis } from 'ioredis';
import type { RateLimits, TrustProxy } from './config.js';
import type { Readiness } from './readiness.js';
import type { DataExports } from './routes/data-export.routes.js';
import type { ResumableUploadSettings } from './routes/resumable-uploads.routes.js';
import { BARE_SECURITY_HEADERS } from './plugins/security.js';
import imageRoutes, { avatarRoutes } from './routes/images.routes.js';
import adminPhotoRoutes from './routes/admin-photos.routes.js';
import reportRoutes from './routes/reports.routes.js';
import uploadAllowanceRoutes from './routes/upload-allowance.routes.js';
import reviewDeskRoutes from './routes/review-desk.routes.js';
import raterRoutes from './routes/raters.routes.js';
import notificationRoutes from './routes/notifications.routes.js';
import type { NotificationHub } from './notifications/notification-hub.js';
import type { PersonalFeed } from './feed/personal-feed.js';
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
  /** Need-your-vote answered from this replica's memory, kept from the bus (until loaded, pages come from the photo service). */
  personalFeed: PersonalFeed;
  /** This replica's open notification streams, fed from the bus. */
  notifications: NotificationHub;
  sessionStore: PrismaSessionStore;
  sessionSecret: string;
  /** A session's absolute maximum; the store also ends idle ones sooner. */
  sessionMaxMs: number;
  publicUrl: string | null;
  /** Which proxies' X-Forwarded-* to believe: none, a hop count, or their addresses (see config.ts). */
  trustProxy: TrustProxy;
  rateLimits: RateLimits;
  /** Shares the rate limits' counts between replicas (REDIS_URL); in memory without it. */
  redis?: Redis | undefined;
  redisKeyPrefix?: string;
  /** Absent in API-only tests. */
  web?: WebOptions;
  /** Whether to answer /readyz with ready: not draining, database reachable (readiness.ts). */
  readiness: Readiness;
  /** Members' copies of their data: the table's rows and the background runner (data-export/). */
  dataExports: DataExports;
  /** Uploads that survive a bad connection: their table and how long they are kept (resumable-uploads/). */
  resumableUploads: ResumableUploadSettings;
  timeouts?: { requestTimeoutMs?: number };
}

/** Builds the gateway without listening, so tests can `inject` requests into a fresh instance. */
export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const requestTimeout = deps.timeouts?.requestTimeoutMs ?? 130_000;
  const options: FastifyHttpOptions<Server> = {
    // pino's Logger is a FastifyBaseLogger; the cast keeps the instance type the plugins expect.
    loggerInstance: deps.logger as FastifyBaseLogger,
    // A hop count n trusts the n proxies nearest the gateway (what proxy-addr does with a number).
    trustProxy: typeof deps.trustProxy === 'number' ? trustHops(deps.trustProxy) : deps.trustProxy,
    bodyLimit: 1024 * 1024,
    // Request ids from the ingress, when present, so one id follows a request through every log line.
    requestIdHeader: 'x-request-id',
    logController: new AccessLog(),
    // A client that sends part of a request and stalls is cut off once the request has not arrived whole within
    // `requestTimeoutMs` (longer than an upload's deadline); Node checks at the interval below. No idle-socket
    // timeout: it would race the keep-alive connections that ingresses and browsers reuse.
    requestTimeout,
    // Node enforces it only with the headers' own timeout no longer than it (Fastify sets it after creation).
    http: {
      requestTimeout,
      headersTimeout: Math.min(60_000, requestTimeout),
      connectionsCheckingInterval: Math.min(30_000, Math.max(250, Math.floor(requestTimeout / 2))),
    },
    // A URL that cannot be decoded gets the product's own JSON error (with the security headers), not Fastify's.
    frameworkErrors: (error, request, reply) => {
      request.log.info({ code: error.code }, 'malformed request');
      void (reply as FastifyReply).code(400).headers(BARE_SECURITY_HEADERS).send({ message: ERRORS.badRequest });
    },
  };
  const app = Fastify(options);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.decorateRequest('sharedPage', false);
  // First: a kept public page is answered before the hooks below (plugins/shared-page-hits.ts).
  await app.register(sharedPageHits, { cache: deps.publicPages });
  await app.register(tracing);
  await app.register(errors);
  await app.register(security, {
    allowedOrigins: deps.publicUrl ? [new URL(deps.publicUrl).origin] : [],
    scriptSources: deps.web && !deps.web.viteRoot ? inlineScriptHashes(deps.web.distDir) : [],
    identityProviderOrigin: deps.oidc.issuerOrigin,
    rateLimits: deps.rateLimits,
    redis: deps.redis,
    ...(deps.redisKeyPrefix ? { redisKeyPrefix: deps.redisKeyPrefix } : {}),
    development: Boolean(deps.web?.viteRoot),
  });
  await app.register(healthRoutes, { readiness: deps.readiness });
  await app.register(session, { secret: deps.sessionSecret, store: deps.sessionStore, maxAgeMs: deps.sessionMaxMs });
  await app.register(currentUser, { users: deps.users });
  await app.register(authRoutes, { clients: deps.clients, oidc: deps.oidc, users: deps.users, publicUrl: deps.publicUrl });
  await app.register(photoRoutes, { clients: deps.clients });
  await app.register(import('./routes/resumable-uploads.routes.js'), { clients: deps.clients, settings: deps.resumableUploads });
  await app.register(voteRoutes, { clients: deps.clients, feed: deps.personalFeed });
  await app.register(galleryRoutes, { clients: deps.clients, cache: deps.publicPages, feed: deps.personalFeed });
  await app.register(imageRoutes, { clients: deps.clients });
  await app.register(avatarRoutes, { clients: deps.clients });
  await app.register(adminPhotoRoutes, { clients: deps.clients });
  await app.register(reportRoutes, { clients: deps.clients });
  await app.register(uploadAllowanceRoutes, { clients: deps.clients });
  await app.register(reviewDeskRoutes, { clients: deps.clients, users: deps.users });
  await app.register(raterRoutes, { clients: deps.clients, users: deps.users });
  await app.register(notificationRoutes, { clients: deps.clients, hub: deps.notifications });
  await app.register(import('./routes/admin-stats.routes.js'), { clients: deps.clients });
  await app.register(import('./routes/user-stats.routes.js'), { clients: deps.clients });
  await app.register(import('./routes/admin-users.routes.js'), { clients: deps.clients, users: deps.users });
  await app.register(googleDriveRoutes, { clients: deps.clients, publicUrl: deps.publicUrl });
  await app.register(import('./routes/contact.routes.js'), { clients: deps.clients });
  await app.register(import('./routes/profile.routes.js'), { clients: deps.clients, users: deps.users });
  await app.register(import('./routes/data-export.routes.js'), { clients: deps.clients, exports: deps.dataExports });
  await app.register(import('./routes/api-docs.routes.js'));
  if (deps.web) await app.register(web, deps.web);
  else app.setNotFoundHandler((_request, reply) => reply.code(404).send({ message: 'Not found' }));
  return app;
}

function trustHops(hops: number): (address: string, hop: number) => boolean {
  return (_address, hop) => hop < hops;
}
