import { fileURLToPath } from 'node:url';
import { openDatabase, resolveSecret, type Platform, type RunningComponent } from '@snapcracks/kit';
import { PrismaClient } from './generated/prisma/client.js';
import { buildApp } from './app.js';
import { requestLogFields } from './log-serializers.js';
import { closeClients, createClients, peerClients } from './clients.js';
import { Readiness, peerHealth } from './readiness.js';
import { openRateLimitRedis } from './rate-limit-redis.js';
import { OidcRelyingParty, type OidcSettings } from './oidc.js';
import { PrismaSessionStore } from './session-store.js';
import { GatewayEvents } from './gateway-events.js';
import { USER_EVENTS, UserDirectory } from './user-directory.js';
import { PUBLIC_PAGE_EVENTS, PublicPageCache } from './public-page-cache.js';
import { NOTIFICATION_EVENTS, NotificationHub } from './notifications/notification-hub.js';
import { FEED_EVENTS, PersonalFeed } from './feed/personal-feed.js';
import { DataExportRepository } from './data-export/data-export.repository.js';
import { DATA_EXPORT_EVENTS, DataExportRunner } from './data-export/data-export.runner.js';
import { ResumableUploadRepository } from './resumable-uploads/resumable-upload.repository.js';
import type { GatewayConfig } from './config.js';

export const gatewayDatabase = {
  schema: 'gateway',
  migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)),
};

const SWEEP_INTERVAL_MS = 15 * 60 * 1000;
/** A sign-in left at the identity provider's page keeps its row this long. */
const SIGN_IN_PENDING_MS = 15 * 60 * 1000;

/**
 * Starts the HTTP gateway: the browser's only entry point. Stops by reporting not-ready, finishing
 * in-flight requests, then closing clients and the database.
 */
export async function startGateway(
  platform: Platform,
  config: GatewayConfig,
  options: { oidc: OidcSettings; viteRoot?: string },
): Promise<RunningComponent> {
  const logger = platform.logger.child(
    { component: 'gateway' },
    { serializers: { req: requestLogFields } },
  );
  const database = openDatabase(PrismaClient, { databaseUrl: platform.databaseUrl, schema: gatewayDatabase.schema, component: 'gateway', logger, max: 10, settings: platform.database });
  const { prisma } = database;
  const clients = createClients(platform);
  // One broadcast subscription for every part below that follows events.
  const events = await GatewayEvents.start(platform.bus, [...USER_EVENTS, ...PUBLIC_PAGE_EVENTS, ...FEED_EVENTS, ...NOTIFICATION_EVENTS, ...DATA_EXPORT_EVENTS]);
  const users = new UserDirectory(clients);
  await users.listen(events);
  const publicPages = new PublicPageCache();
  await publicPages.listen(events);
  const personalFeed = new PersonalFeed({ clients, onLoadError: (error) => logger.warn({ err: error }, 'the personal feed could not load its order; pages come from the photo service meanwhile') });
  await personalFeed.listen(events);
  const notifications = new NotificationHub();
  await notifications.listen(events);
  const HOUR_MS = 3600 * 1000;
  const sessionMaxMs = config.SESSION_MAX_HOURS * HOUR_MS;
  const sessionStore = new PrismaSessionStore(prisma, database.pool, {
    idleMs: config.SESSION_IDLE_HOURS * HOUR_MS,
    maxMs: sessionMaxMs,
    pendingMs: SIGN_IN_PENDING_MS,
  });
  // Members' copies of their data, made in the background by whichever replica claims each (docs/data-export.md).
  const dataExportStore = new DataExportRepository(database.pool);
  const dataExportRunner = new DataExportRunner(dataExportStore, clients, users, logger.child({ part: 'data-export' }));
  // Uploads that survive a bad connection: kept where every replica finds them, deleted after UPLOAD_RESUMABLE_HOURS.
  const resumableUploads = new ResumableUploadRepository(database.pool);
  let draining = false;
  const redis = config.REDIS_URL ? openRateLimitRedis(config.REDIS_URL, logger) : undefined;
  const readiness = new Readiness({ isDraining: () => draining, pingDatabase: () => database.pool.query('SELECT 1'), peers: peerHealth(peerClients(clients)) });

  const app = await buildApp({
    logger,
    platform,
    prisma,
    clients,
    oidc: new OidcRelyingParty(options.oidc),
    users,
    publicPages,
    personalFeed,
    notifications,
    sessionStore,
    sessionSecret: resolveSecret('SESSION_SECRET', config.SESSION_SECRET, config.NODE_ENV),
    sessionMaxMs,
    publicUrl: config.PUBLIC_URL ?? null,
    trustProxy: config.TRUST_PROXY,
    rateLimits: config.rateLimits,
    redis,
    timeouts: { requestTimeoutMs: config.REQUEST_TIMEOUT_MS },
    web: { distDir: config.WEB_DIST, viteRoot: options.viteRoot },
    readiness,
    dataExports: { store: dataExportStore, runner: dataExportRunner },
    resumableUploads: { uploads: resumableUploads, keepHours: config.UPLOAD_RESUMABLE_HOURS },
  });
  await dataExportRunner.start(events);
  const sweep = setInterval(() => {
    sessionStore.sweepExpired().catch((error: unknown) => logger.warn({ err: error }, 'session sweep failed'));
    resumableUploads.deleteExpired().catch((error: unknown) => logger.warn({ err: error }, 'resumable upload sweep failed'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  const unobserveSessions = sessionStore.observeActiveSessions();

  await app.listen({ host: config.HOST, port: config.PORT });
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.PORT;
  return {
    port,
    // On the internal port only: which peer is down is for operators, not for the Internet.
    internalRoutes: { '/readyz/detail': readiness.detailRoute() },
    async stop() {
      draining = true;
      clearInterval(sweep);
      unobserveSessions();
      // Closing waits for every connection to end, and a keep-alive one that finishes its request after the close
      // began would idle until its timeout (72 s): each is closed as soon as it has answered what was in flight.
      const closeIdle = setInterval(() => app.server.closeIdleConnections(), 100);
      // Open notification streams never finish by themselves: they end now, and their browsers reconnect elsewhere.
      await notifications.close();
      try {
        await app.close();
      } finally {
        clearInterval(closeIdle);
      }
      // The export in progress goes back to the queue for another replica, before the clients it uses close.
      await dataExportRunner.stop();
      await users.close();
      await publicPages.close();
      await personalFeed.close();
      await events.close();
      closeClients(clients);
      redis?.disconnect();
      await database.close();
    },
  };
}
