import { z } from 'zod';
import { baseConfigSchema, databaseSettings, exitOnConfigError, exitOnConfigErrorAsync, loadConfig, natsStreamSettings, optionalString, port, resolveIdentityKeyring } from './config.js';
import { SERVICE_NAMES, type ComponentModule, type Platform, type ServiceName } from './component.js';
import { createLogger } from './logger.js';
import { Lifecycle } from './lifecycle.js';
import { startTelemetry } from './telemetry.js';
import { createNatsEventBus } from './bus/index.js';
import { startComponents } from './start-components.js';
import { DEFAULT_METRICS_PORT, startMetricsServer } from './metrics/server.js';

const standaloneSchema = baseConfigSchema.extend({
  DATABASE_URL: z.string().url(),
  NATS_URL: z.string().min(1),
  NATS_STREAM: optionalString,
  /** Where a gRPC service listens. */
  GRPC_HOST: z.string().default('0.0.0.0'),
  GRPC_PORT: port(50051),
  GRPC_MAX_CONNECTION_AGE_MS: z.coerce.number().int().positive().optional(),
  /** Where the HTTP gateway listens. */
  HOST: z.string().default('0.0.0.0'),
  PORT: port(8080),
  DATA_DIR: z.string().default('/data'),
  /** The internal port with /metrics (and the component's internal routes); 0 turns it off. */
  METRICS_PORT: port(DEFAULT_METRICS_PORT),
  ...Object.fromEntries(SERVICE_NAMES.map((name) => [`${name.toUpperCase()}_SERVICE_ADDR`, optionalString])),
});

/**
 * Peer addresses from `<NAME>_SERVICE_ADDR`, as Kubernetes services are wired: a gRPC target, e.g.
 * `dns:///snapcracks-vote-headless:50051` (every replica, balanced per call), `ipv4:10.0.0.1:50051,10.0.0.2:50051`
 * or a plain `host:port`.
 */
export function addressesFromEnv(env: Record<string, unknown>): Partial<Record<ServiceName, string>> {
  const addresses: Partial<Record<ServiceName, string>> = {};
  for (const name of SERVICE_NAMES) {
    const value = env[`${name.toUpperCase()}_SERVICE_ADDR`];
    if (typeof value === 'string' && value) addresses[name] = value;
  }
  return addresses;
}

/** Another stream gets subjects of its own too: JetStream streams may not share subjects. */
export function natsStreamOptions(stream: string | undefined): { stream?: string; subjectPrefix?: string } {
  return stream ? { stream, subjectPrefix: `${stream.toLowerCase()}.events` } : {};
}

/**
 * Runs one component as its own process (split mode, a container, a Kubernetes pod): NATS JetStream and an external
 * PostgreSQL are required, migrations are NOT applied here (a separate job runs them once), SIGTERM drains and exits.
 * Started through `startComponents`, as the all-in-one process starts all of them.
 */
export async function runComponent(module: ComponentModule): Promise<void> {
  const config = loadConfig(standaloneSchema);
  const telemetry = startTelemetry(module.name);
  const logger = createLogger(module.name, config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger, { deadlineMs: config.SHUTDOWN_TIMEOUT_MS });
  lifecycle.onStop('telemetry', () => telemetry.shutdown());
  const identity = exitOnConfigError(() => resolveIdentityKeyring(module.name, config, config.NODE_ENV));
  const bus = await createNatsEventBus({ servers: config.NATS_URL, logger, identity, streams: natsStreamSettings(config), ...natsStreamOptions(config.NATS_STREAM) });
  lifecycle.onStop('bus', () => bus.close());
  const platform: Platform = {
    nodeEnv: config.NODE_ENV,
    logger,
    bus,
    databaseUrl: config.DATABASE_URL,
    dataDir: config.DATA_DIR,
    identity,
    addresses: addressesFromEnv(config),
    database: databaseSettings(config),
    ...(config.GRPC_MAX_CONNECTION_AGE_MS ? { grpcMaxConnectionAgeMs: config.GRPC_MAX_CONNECTION_AGE_MS } : {}),
  };
  const listen = module.protocol === 'http' ? { host: config.HOST, port: config.PORT } : { host: config.GRPC_HOST, port: config.GRPC_PORT };
  const started = await exitOnConfigErrorAsync(() => startComponents(platform, [module], lifecycle, { listen: () => listen }));
  started.activate();
  lifecycle.stopOnSignals();
  const [{ component }] = started.running as [(typeof started.running)[number]];
  const metrics = config.METRICS_PORT > 0 ? await startMetricsServer({ port: config.METRICS_PORT, logger, routes: component.internalRoutes }) : undefined;
  if (metrics) lifecycle.onStop('metrics server', () => metrics.close());
  logger.info({ port: component.port }, `${module.name} listening`);
}
