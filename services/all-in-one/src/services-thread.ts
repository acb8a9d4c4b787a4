import { parentPort, workerData } from 'node:worker_threads';
import {
  IdentityKeyring,
  Lifecycle,
  applyMigrations,
  createLogger,
  startMetricsServer,
  startTelemetry,
  type Platform,
} from '@snapcracks/kit';
import { serveBus } from './bus-bridge.js';
import { openEventBus } from './event-bus.js';
import { SERVICE_DATABASES } from './modules.js';
import { startServices } from './services.js';
import type { FromServicesThread, ServicesThreadData, ToServicesThread } from './services-host.js';

/**
 * The services' thread of the all-in-one process (services-host.ts starts it): its own bus (NATS, or the in-process
 * one, served to the gateway's thread), the seven services, and their orderly stop when the host asks.
 */
const data = workerData as ServicesThreadData;
const port = parentPort!;
const post = (message: FromServicesThread) => port.postMessage(message);
const logger = createLogger(data.loggerName, data.logLevel, { pretty: data.prettyLogs });
const lifecycle = new Lifecycle(logger, data.shutdownTimeoutMs === undefined ? {} : { deadlineMs: data.shutdownTimeoutMs });
if (data.telemetry) {
  const telemetry = startTelemetry(data.loggerName);
  lifecycle.onStop('telemetry', () => telemetry.shutdown());
}

try {
  await Promise.all(SERVICE_DATABASES.map((database) => applyMigrations({ databaseUrl: data.databaseUrl, ...database, logger })));
  const identity = new IdentityKeyring(data.identity.privateKeys, data.identity.publicKeys);
  const bus = await openEventBus({ natsUrl: data.natsUrl, natsStream: data.natsStream, natsStreams: data.natsStreams, logger, identity });
  lifecycle.onStop('bus', () => bus.close());
  if (data.busPort) serveBus(bus, data.busPort);
  const platform: Platform = {
    nodeEnv: data.nodeEnv,
    logger,
    bus,
    databaseUrl: data.databaseUrl,
    dataDir: data.dataDir,
    identity,
    addresses: {},
  };
  const services = await startServices(platform, lifecycle);
  if (data.metricsPort) {
    const metrics = await startMetricsServer({ port: data.metricsPort, logger });
    lifecycle.onStop('metrics server', () => metrics.close());
  }
  port.on('message', (message: ToServicesThread) => {
    if (message.op === 'activate') services.activate();
    else if (message.op === 'stop') void lifecycle.stop().then(() => post({ op: 'stopped' }));
  });
  post({ op: 'ready', addresses: services.addresses });
} catch (error) {
  await lifecycle.stop();
  // The code too (EADDRINUSE, say), so the host's caller can tell such a failure from another, as in one thread.
  const code = (error as NodeJS.ErrnoException | null)?.code;
  post({ op: 'failed', message: error instanceof Error ? error.message : String(error), ...(typeof code === 'string' ? { code } : {}) });
}
