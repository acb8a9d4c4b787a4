import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Lifecycle,
  SERVICE_NAMES,
  applyMigrations,
  baseConfigSchema,
  createLogger,
  createMemoryEventBus,
  createNatsEventBus,
  envBoolean,
  exitOnConfigError,
  loadConfig,
  optionalString,
  resolveSecret,
  runStandalone,
  startTelemetry,
  type Platform,
} from '@snapcracks/kit';
import { loadGatewayConfig, runGatewayStandalone, startGateway } from '@snapcracks/gateway';
import { startDevIdentityProvider } from '@snapcracks/dev-idp';
import { randomBytes } from 'node:crypto';
import { DATABASES, SERVICES, startOrder } from './modules.js';
import { startEmbeddedPostgres } from './embedded-postgres.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const config = loadConfig(
  baseConfigSchema.extend({
    /** all (default): everything in this process. migrate: apply every migration and exit. Or one component. */
    SERVICE: z.enum(['all', 'migrate', 'gateway', ...SERVICE_NAMES]).default('all'),
    DATABASE_URL: optionalString,
    NATS_URL: optionalString,
    DATA_DIR: z.string().default(`${repoRoot}.data`),
    OIDC_ISSUER: optionalString,
    WEB_DEV: envBoolean(false),
  }),
);

const standalone = SERVICES.find((s) => s.name === config.SERVICE);
if (standalone) await runStandalone(standalone);
else if (config.SERVICE === 'gateway') await runGatewayStandalone();
else if (config.SERVICE === 'migrate') await migrateOnly();
else await runAllInOne();

async function migrateOnly(): Promise<void> {
  const logger = createLogger('migrate', config.LOG_LEVEL);
  const databaseUrl = exitOnConfigError(() => z.string().url().parse(config.DATABASE_URL));
  for (const database of DATABASES) await applyMigrations({ databaseUrl, ...database, logger });
  logger.info('migrations applied');
}

/**
 * One process, everything in it: embedded PostgreSQL unless DATABASE_URL is set, the in-process bus unless
 * NATS_URL is set, all seven services on loopback gRPC, the development identity provider unless
 * OIDC_ISSUER is set, and the gateway serving the web app.
 */
async function runAllInOne(): Promise<void> {
  const gatewayConfig = exitOnConfigError(() => loadGatewayConfig());
  const telemetry = startTelemetry('snapcracks');
  const logger = createLogger('snapcracks', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger);
  lifecycle.stopOnSignals();
  lifecycle.onStop('telemetry', () => telemetry.shutdown());

  let databaseUrl = config.DATABASE_URL;
  if (!databaseUrl) {
    const postgres = await startEmbeddedPostgres(config.DATA_DIR, logger);
    lifecycle.onStop('embedded postgres', () => postgres.stop());
    databaseUrl = postgres.url;
  }
  await Promise.all(DATABASES.map((database) => applyMigrations({ databaseUrl, ...database, logger })));

  const bus = config.NATS_URL ? await createNatsEventBus({ servers: config.NATS_URL, logger }) : createMemoryEventBus();
  lifecycle.onStop('bus', () => bus.close());

  const platform: Platform = {
    nodeEnv: config.NODE_ENV,
    logger,
    bus,
    databaseUrl,
    identitySecret: resolveSecret('IDENTITY_SECRET', config.IDENTITY_SECRET, config.NODE_ENV),
    addresses: {},
  };
  for (const service of startOrder(SERVICES)) {
    const running = await service.start(platform, { host: '127.0.0.1', port: 0 });
    platform.addresses[service.name] = `127.0.0.1:${running.port}`;
    lifecycle.onStop(service.name, () => running.stop());
  }

  const port = gatewayConfig.PORT;
  let oidc;
  if (config.OIDC_ISSUER) {
    const clientSecret = exitOnConfigError(() => z.string().min(1, 'OIDC_CLIENT_SECRET: required with OIDC_ISSUER').parse(gatewayConfig.OIDC_CLIENT_SECRET));
    oidc = { issuer: config.OIDC_ISSUER, clientId: gatewayConfig.OIDC_CLIENT_ID, clientSecret, allowInsecure: false };
  } else {
    const clientSecret = randomBytes(24).toString('base64url');
    const origins = [`http://localhost:${port}`, `http://127.0.0.1:${port}`, ...(gatewayConfig.PUBLIC_URL ? [new URL(gatewayConfig.PUBLIC_URL).origin] : [])];
    const idp = await startDevIdentityProvider({
      port: Number(process.env.DEV_IDP_PORT ?? 0),
      clients: [
        {
          clientId: gatewayConfig.OIDC_CLIENT_ID,
          clientSecret,
          redirectUris: origins.map((o) => `${o}/api/callback`),
          postLogoutRedirectUris: origins.map((o) => `${o}/`),
        },
      ],
      logger: logger.child({ component: 'dev-idp' }),
    });
    lifecycle.onStop('development identity provider', () => idp.close());
    oidc = { issuer: idp.issuer, clientId: gatewayConfig.OIDC_CLIENT_ID, clientSecret, allowInsecure: true };
  }

  const gateway = await startGateway(platform, gatewayConfig, {
    oidc,
    ...(config.WEB_DEV ? { viteRoot: `${repoRoot}web` } : {}),
  });
  lifecycle.onStop('gateway', () => gateway.stop());

  const url = gatewayConfig.PUBLIC_URL ?? `http://localhost:${gateway.port}`;
  const signIn = config.OIDC_ISSUER
    ? `Sign in with ${config.OIDC_ISSUER}.`
    : 'Sign in with any email and name on the development sign-in page' +
      (process.env.ADMIN_EMAILS ? ` (admins: ${process.env.ADMIN_EMAILS}).` : '; set ADMIN_EMAILS=you@example.com to become an admin.');
  process.stdout.write(`\n  Snap Cracks is running at ${url}\n  ${signIn}\n  Press Ctrl-C to stop.\n\n`);
}
