import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  Lifecycle,
  applyMigrations,
  IdentityKeyring,
  LOOPBACK,
  startComponents,
  startMetricsServer,
  type ComponentModule,
  type Logger,
  type Platform,
  type StreamSettings,
} from '@snapcracks/kit';
import { gatewayComponent, gatewayDatabase, type GatewayConfig, type OidcSettings } from '@snapcracks/gateway';
import { openEventBus } from './event-bus.js';
import { startServicesThread } from './services-host.js';

export interface SystemOptions {
  logger: Logger;
  nodeEnv: Platform['nodeEnv'];
  gateway: GatewayConfig;
  /** External PostgreSQL; otherwise an embedded one under dataDir. */
  databaseUrl?: string | undefined;
  dataDir: string;
  /** NATS JetStream; otherwise the in-process bus. */
  natsUrl?: string | undefined;
  /** Stream name on NATS, so parallel test runs never share events. */
  natsStream?: string | undefined;
  /** The NATS streams' replicas, storage and retention (natsStreamSettings); the defaults otherwise. */
  natsStreams?: StreamSettings | undefined;
  /** One deadline for the whole stop (SHUTDOWN_TIMEOUT_MS); the default otherwise. */
  shutdownTimeoutMs?: number | undefined;
  /**
   * Prometheus metrics (METRICS_PORT): this thread's (the gateway's) on this port, the services' thread's on the next
   * one, since each thread has its own meters; off when absent.
   */
  metricsPort?: number | undefined;
  /** The components' identity keys; fresh ones per start by default (every component lives in this process). */
  identity?: IdentityKeyring | undefined;
  /** A real identity provider; otherwise the development one on loopback. */
  oidc?: OidcSettings | undefined;
  devIdpPort?: number;
  /** Serve web/ through Vite with hot reload. */
  viteRoot?: string | undefined;
  /** The services on a worker thread of their own (the default: two cores), or on this one with the gateway. */
  servicesThread?: boolean;
  /** Tracing was started for the process: start it on the services' thread too. */
  telemetry?: boolean;
}

/** How much sooner a stop nested in another must end, so the outer one still has time for its own last steps. */
const NESTED_STOP_MARGIN_MS = 2_000;

export interface RunningSystem {
  url: string;
  platform: Platform;
  stop(): Promise<void>;
}

/**
 * Everything in one process: embedded PostgreSQL unless a database URL is given, the in-process bus unless
 * NATS is given, all seven services on loopback gRPC (real calls, real identity signing) on a thread of their own
 * unless told otherwise, the development identity provider unless a real issuer is given, and the gateway serving
 * the web app.
 */
export async function startSystem(options: SystemOptions): Promise<RunningSystem> {
  const { logger, gateway: gatewayConfig } = options;
  // Nested in the process's own stop, so a little inside its deadline; the services' thread is inside this one in turn.
  const deadlineMs = options.shutdownTimeoutMs === undefined ? undefined : Math.max(1_000, options.shutdownTimeoutMs - NESTED_STOP_MARGIN_MS);
  const lifecycle = new Lifecycle(logger, deadlineMs === undefined ? {} : { deadlineMs });
  try {
    let databaseUrl = options.databaseUrl;
    if (!databaseUrl) {
      // Loaded only when used, so a deployment with a real database never loads the embedded server.
      const { startEmbeddedPostgres } = await import('./embedded-postgres.js');
      const postgres = await startEmbeddedPostgres(options.dataDir, logger);
      lifecycle.onStop('embedded postgres', () => postgres.stop());
      databaseUrl = postgres.url;
    }
    const migrate = (databases: { schema: string; migrationsDir: string }[]) =>
      Promise.all(databases.map((database) => applyMigrations({ databaseUrl, ...database, logger })));

    const identity = options.identity ?? IdentityKeyring.generate();
    const openBus = () => openEventBus({ natsUrl: options.natsUrl, natsStream: options.natsStream, natsStreams: options.natsStreams, logger, identity });
    const gatewayListen = { host: gatewayConfig.HOST, port: gatewayConfig.PORT };
    const gateway = (oidc: OidcSettings) => gatewayComponent({ config: gatewayConfig, oidc, viteRoot: options.viteRoot });
    let platform: Platform;
    let started: Awaited<ReturnType<typeof startComponents>>;
    if (options.servicesThread ?? true) {
      // The thread migrates the services' schemas before it starts them; this thread needs only the gateway's.
      const [thread] = await Promise.all([
        startServicesThread(
          {
            nodeEnv: options.nodeEnv,
            databaseUrl,
            dataDir: options.dataDir,
            natsUrl: options.natsUrl,
            natsStream: options.natsStream,
            natsStreams: options.natsStreams,
            identity,
            logger,
            telemetry: options.telemetry ?? false,
            ...(options.metricsPort ? { metricsPort: options.metricsPort + 1 } : {}),
            ...(deadlineMs === undefined ? {} : { shutdownTimeoutMs: Math.max(1_000, deadlineMs - NESTED_STOP_MARGIN_MS) }),
          },
          lifecycle,
        ),
        migrate([gatewayDatabase]),
      ]);
      // Without a bus of the thread's to reach, there is NATS: this thread connects on its own.
      const bus = thread.bus ?? (await openBus());
      lifecycle.onStop('bus', () => bus.close());
      platform = { nodeEnv: options.nodeEnv, logger, bus, databaseUrl, dataDir: options.dataDir, identity, addresses: thread.addresses };
      const oidc = options.oidc ?? (await startDevelopmentIssuer(options, lifecycle));
      started = await startComponents(platform, [gateway(oidc)], lifecycle, { listen: () => gatewayListen });
      // Every consumer, the gateway's included, has subscribed: events may flow now.
      thread.activate();
    } else {
      const { SERVICES, SERVICE_DATABASES } = await import('./modules.js');
      await migrate([...SERVICE_DATABASES, gatewayDatabase]);
      const bus = await openBus();
      lifecycle.onStop('bus', () => bus.close());
      platform = { nodeEnv: options.nodeEnv, logger, bus, databaseUrl, dataDir: options.dataDir, identity, addresses: {} };
      const oidc = options.oidc ?? (await startDevelopmentIssuer(options, lifecycle));
      const components: ComponentModule[] = [...SERVICES, gateway(oidc)];
      started = await startComponents(platform, components, lifecycle, {
        listen: (module) => (module.protocol === 'http' ? gatewayListen : LOOPBACK),
        started: (module, component) => {
          if (module.name !== 'gateway') platform.addresses[module.name] = `${LOOPBACK.host}:${component.port}`;
        },
      });
    }
    started.activate();
    const gatewayRunning = started.running.find(({ module }) => module.name === 'gateway')!.component;
    if (options.metricsPort) {
      const metrics = await startMetricsServer({ port: options.metricsPort, host: gatewayConfig.HOST, logger, routes: gatewayRunning.internalRoutes });
      lifecycle.onStop('metrics server', () => metrics.close());
    }
    const port = gatewayRunning.port;
    return { url: gatewayConfig.PUBLIC_URL ?? `http://localhost:${port}`, platform, stop: () => lifecycle.stop() };
  } catch (error) {
    await lifecycle.stop();
    throw error;
  }
}

/**
 * The development identity provider, with this gateway as its only client (a fresh secret per start).
 * Accounts are keyed on `issuer|subject` and the issuer holds the port, so the port is remembered in the data
 * directory (`dev-idp.port`) and taken again at the next start when it is free; DEV_IDP_PORT, when set, wins.
 * When the issuer changes all the same, the auth service finds each account again by its verified email.
 */
async function startDevelopmentIssuer(options: SystemOptions, lifecycle: Lifecycle): Promise<OidcSettings> {
  const { gateway } = options;
  const logger = options.logger.child({ component: 'dev-idp' });
  const { startDevIdentityProvider } = await import('@snapcracks/dev-idp');
  const clientSecret = randomBytes(24).toString('base64url');
  const origins = [`http://localhost:${gateway.PORT}`, `http://127.0.0.1:${gateway.PORT}`];
  if (gateway.PUBLIC_URL) origins.push(new URL(gateway.PUBLIC_URL).origin);
  const start = (port: number) =>
    startDevIdentityProvider({
      port,
      clients: [
        {
          clientId: gateway.OIDC_CLIENT_ID,
          clientSecret,
          redirectUris: origins.map((o) => `${o}/api/callback`),
          postLogoutRedirectUris: origins.map((o) => `${o}/`),
        },
      ],
      logger,
    });

  const portFile = join(options.dataDir, 'dev-idp.port');
  let remembered: number | undefined;
  try {
    const port = Number(readFileSync(portFile, 'utf8').trim());
    if (Number.isInteger(port) && port > 0 && port < 65536) remembered = port;
  } catch {
    // First start on this data directory: any free port will do, and is remembered below.
  }
  const idp = options.devIdpPort
    ? await start(options.devIdpPort)
    : remembered === undefined
      ? await start(0)
      : await start(remembered).catch((error: unknown) => {
          if ((error as NodeJS.ErrnoException | null)?.code !== 'EADDRINUSE') throw error;
          logger.warn(
            { port: remembered },
            'the development identity provider cannot take its previous port, so its issuer changes; accounts are found again by their verified email',
          );
          return start(0);
        });
  lifecycle.onStop('development identity provider', () => idp.close());

  const port = new URL(idp.issuer).port;
  if (String(remembered) !== port) {
    try {
      mkdirSync(options.dataDir, { recursive: true });
      writeFileSync(portFile, `${port}\n`);
    } catch (error) {
      logger.warn({ err: error, file: portFile }, 'cannot remember the development identity provider port; its issuer will change at the next start');
    }
  }
  return { issuer: idp.issuer, clientId: gateway.OIDC_CLIENT_ID, clientSecret, allowInsecure: true };
}
