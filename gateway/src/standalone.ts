import { z } from 'zod';
import { exitOnConfigError, resolveIdentityKeyring, natsStreamOptions, Lifecycle, createLogger, createNatsEventBus, loadConfig, startTelemetry, addressesFromEnv } from '@snapcracks/kit';
import { loadGatewayConfig } from './config.js';
import { startGateway } from './gateway.js';

/** The gateway as its own process (microservices mode): a real identity provider, NATS, its identity keys and secrets are required. */
export async function runGatewayStandalone(): Promise<void> {
  const required = loadConfig(
    z.object({
      DATABASE_URL: z.string().url(),
      NATS_URL: z.string().min(1),
      NATS_STREAM: z.string().optional(),
      OIDC_ISSUER: z.string().url(),
      OIDC_CLIENT_SECRET: z.string().min(1),
    }),
  );
  const config = exitOnConfigError(() => loadGatewayConfig());
  const telemetry = startTelemetry('gateway');
  const logger = createLogger('gateway', config.LOG_LEVEL);
  const lifecycle = new Lifecycle(logger);
  lifecycle.onStop('telemetry', () => telemetry.shutdown());
  const bus = await createNatsEventBus({ servers: required.NATS_URL, logger, ...natsStreamOptions(required.NATS_STREAM) });
  lifecycle.onStop('bus', () => bus.close());
  const gateway = await startGateway(
    { nodeEnv: config.NODE_ENV, logger, bus, databaseUrl: required.DATABASE_URL, dataDir: process.env.DATA_DIR ?? '/data', identity: exitOnConfigError(() => resolveIdentityKeyring('gateway', config, config.NODE_ENV)), addresses: addressesFromEnv(process.env) },
    config,
    { oidc: { issuer: required.OIDC_ISSUER, clientId: config.OIDC_CLIENT_ID, clientSecret: required.OIDC_CLIENT_SECRET, allowInsecure: false } },
  );
  lifecycle.onStop('gateway', () => gateway.stop());
  lifecycle.stopOnSignals();
  logger.info({ port: gateway.port }, 'gateway listening');
}
