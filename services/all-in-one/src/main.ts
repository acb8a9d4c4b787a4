import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import {
  Lifecycle,
  SERVICE_NAMES,
  applyMigrations,
  baseConfigSchema,
  createLogger,
  envBoolean,
  exitOnConfigError,
  loadConfig,
  natsStreamSettings,
  optionalString,
  port,
  runComponent,
  startTelemetry,
} from '@snapcracks/kit';
import { gatewayComponent, gatewayDatabase, loadGatewayConfig, oidcSettingsFrom } from '@snapcracks/gateway';
import { startSystem } from './system.js';
import { localSecret } from './local-secrets.js';

const repoRoot = fileURLToPath(new URL('../../..', import.meta.url));

const config = loadConfig(
  baseConfigSchema.extend({
    /** all (default): everything in this process. migrate: apply every migration and exit. Or one component. */
    SERVICE: z.enum(['all', 'migrate', 'gateway', ...SERVICE_NAMES]).default('all'),
    DATABASE_URL: optionalString,
    NATS_URL: optionalString,
    /** JetStream stream for the events, when several installations share one NATS server. */
    NATS_STREAM: optionalString,
    DATA_DIR: z.string().default(`${repoRoot}.data`),
    OIDC_ISSUER: optionalString,
    DEV_IDP_PORT: port(0),
    WEB_DEV: envBoolean(false),
    /** Prometheus metrics on this port and, with the services' thread, the next one; off by default here. */
    METRICS_PORT: port(0),
    /** The services on a worker thread of their own (two cores); false keeps everything on one thread. */
    SERVICES_THREAD: envBoolean(true),
  }),
);

// The services' modules are loaded only where they run: all-in-one loads them on the services' thread.
const { SERVICES, SERVICE_DATABASES } = config.SERVICE === 'gateway' || config.SERVICE === 'all' ? { SERVICES: [], SERVICE_DATABASES: [] } : await import('./modules.js');
const standalone = config.SERVICE === 'gateway' ? gatewayComponent() : SERVICES.find((s) => s.name === config.SERVICE);
if (standalone) await runComponent(standalone);
else if (config.SERVICE === 'migrate') await migrateOnly();
else
  await runAllInOne().catch((error: unknown) => {
    // Start-up problems a person can fix get their message, not a stack trace.
    process.stderr.write(`Snap Cracks could not start: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });

async function migrateOnly(): Promise<void> {
  const logger = createLogger('migrate', config.LOG_LEVEL);
  // Straight to PostgreSQL: the migrations take session advisory locks, which a pooler in transaction mode breaks.
  const databaseUrl = exitOnConfigError(() => z.string({ error: 'DATABASE_URL: required' }).url().parse(config.DATABASE_DIRECT_URL ?? config.DATABASE_URL));
  for (const database of [...SERVICE_DATABASES, gatewayDatabase]) await applyMigrations({ databaseUrl, ...database, logger });
  logger.info('migrations applied');
}

async function runAllInOne(): Promise<void> {
  if (config.NODE_ENV !== 'production') process.env.SESSION_SECRET ||= localSecret(config.DATA_DIR, 'SESSION_SECRET');
  const gateway = exitOnConfigError(() => loadGatewayConfig());
  const telemetry = startTelemetry('snapcracks');
  const logger = createLogger('snapcracks', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, { deadlineMs: config.SHUTDOWN_TIMEOUT_MS });
  lifecycle.stopOnSignals();
  // Started by scripts/start.mjs with an IPC channel: if that launcher goes away, stop rather than linger.
  process.once('disconnect', () => void lifecycle.stop().then(() => process.exit(0)));
  lifecycle.onStop('telemetry', () => telemetry.shutdown());

  // A real identity provider when one is configured; otherwise startSystem starts the development one.
  const oidc = config.OIDC_ISSUER ? exitOnConfigError(() => oidcSettingsFrom(gateway, config.NODE_ENV)) : undefined;
  const system = await startSystem({
    logger,
    nodeEnv: config.NODE_ENV,
    gateway,
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    natsUrl: config.NATS_URL,
    natsStream: config.NATS_STREAM,
    natsStreams: natsStreamSettings(config),
    shutdownTimeoutMs: config.SHUTDOWN_TIMEOUT_MS,
    metricsPort: config.METRICS_PORT,
    oidc,
    devIdpPort: config.DEV_IDP_PORT,
    viteRoot: config.WEB_DEV ? `${repoRoot}web` : undefined,
    servicesThread: config.SERVICES_THREAD,
    telemetry: true,
  });
  lifecycle.onStop('system', () => system.stop());

  const signIn = oidc
    ? `Sign in through ${oidc.issuer}.`
    : 'Sign in with any email and name on the development sign-in page' +
      (process.env.ADMIN_EMAILS ? ` (admins: ${process.env.ADMIN_EMAILS}).` : '; set ADMIN_EMAILS=you@example.com to become an admin.');
  process.stdout.write(`\n  Snap Cracks is running at ${system.url}\n  ${signIn}\n  Press Ctrl-C to stop.\n\n`);
}
