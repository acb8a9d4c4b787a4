import type { KeyObject } from 'node:crypto';
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';
import { prettyLogs, type EventBus, type IdentityKeyring, type Lifecycle, type Logger, type Platform, type ServiceName, type StreamSettings } from '@snapcracks/kit';
import { busOverPort } from './bus-bridge.js';

/** What the services' thread is started with (workerData). */
export interface ServicesThreadData {
  nodeEnv: Platform['nodeEnv'];
  databaseUrl: string;
  dataDir: string;
  natsUrl?: string | undefined;
  natsStream?: string | undefined;
  natsStreams?: StreamSettings | undefined;
  shutdownTimeoutMs?: number | undefined;
  metricsPort?: number | undefined;
  /** The bus's end on the services' thread, when the bus is the in-process one. */
  busPort?: MessagePort;
  identity: { privateKeys: ReadonlyMap<string, KeyObject>; publicKeys: ReadonlyMap<string, KeyObject> };
  loggerName: string;
  logLevel: string;
  prettyLogs: boolean;
  telemetry: boolean;
}

export type ToServicesThread = { op: 'activate' } | { op: 'stop' };
export type FromServicesThread = { op: 'ready'; addresses: Partial<Record<ServiceName, string>> } | { op: 'failed'; message: string; code?: string } | { op: 'stopped' };

export interface ServicesThreadOptions {
  nodeEnv: Platform['nodeEnv'];
  databaseUrl: string;
  dataDir: string;
  natsUrl?: string | undefined;
  natsStream?: string | undefined;
  natsStreams?: StreamSettings | undefined;
  /** The thread's own stop deadline (inside the process's). */
  shutdownTimeoutMs?: number | undefined;
  /** The thread's own metrics port (its meters are its own). */
  metricsPort?: number | undefined;
  identity: IdentityKeyring;
  logger: Logger;
  /** Start tracing on the thread too (the process started it). */
  telemetry: boolean;
}

export interface ServicesThread {
  addresses: Partial<Record<ServiceName, string>>;
  /** The gateway's way to the in-process bus on the services' thread; undefined with NATS (each thread connects). */
  bus: EventBus | undefined;
  activate(): void;
}

/**
 * Runs the seven services on a worker thread of their own, so that the all-in-one process uses two cores: the gateway's
 * requests on this thread, the services' calls, transactions and event consumers on the other. Resolves once every
 * service listens; `lifecycle` stops the thread (its services in order) when the process stops. Should the thread
 * fail later, the process cannot serve anyone: it says so and exits.
 */
export async function startServicesThread(options: ServicesThreadOptions, lifecycle: Lifecycle): Promise<ServicesThread> {
  const { logger } = options;
  const channel = options.natsUrl ? undefined : new MessageChannel();
  const data: ServicesThreadData = {
    nodeEnv: options.nodeEnv,
    databaseUrl: options.databaseUrl,
    dataDir: options.dataDir,
    natsUrl: options.natsUrl,
    natsStream: options.natsStream,
    natsStreams: options.natsStreams,
    shutdownTimeoutMs: options.shutdownTimeoutMs,
    metricsPort: options.metricsPort,
    ...(channel ? { busPort: channel.port2 } : {}),
    identity: options.identity.keyMaps(),
    loggerName: (logger.bindings().name as string | undefined) ?? 'snapcracks',
    logLevel: logger.level,
    prettyLogs: prettyLogs(),
    telemetry: options.telemetry,
  };
  const worker = new Worker(new URL('./services-thread.boot.mjs', import.meta.url), {
    workerData: data,
    transferList: channel ? [channel.port2] : [],
    name: 'services',
  });
  const post = (message: ToServicesThread) => worker.postMessage(message);

  let stopping = false;
  const stopped = new Promise<void>((resolve) => {
    worker.on('message', (message: FromServicesThread) => {
      if (message.op === 'stopped') resolve();
    });
    worker.once('exit', () => resolve());
  });
  const ready = new Promise<Partial<Record<ServiceName, string>>>((resolve, reject) => {
    worker.on('message', (message: FromServicesThread) => {
      if (message.op === 'ready') resolve(message.addresses);
      else if (message.op === 'failed') reject(Object.assign(new Error(message.message), message.code ? { code: message.code } : {}));
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`The services' thread exited with ${code} while starting`)));
  });
  const addresses = await ready.catch(async (error: unknown) => {
    await worker.terminate();
    throw error;
  });

  worker.on('error', (error) => {
    logger.fatal({ err: error }, "the services' thread failed; stopping");
    process.exit(1);
  });
  worker.on('exit', (code) => {
    if (stopping) return;
    logger.fatal({ code }, "the services' thread exited; stopping");
    process.exit(1);
  });
  const bus = channel ? busOverPort(channel.port1) : undefined;
  lifecycle.onStop('services', async () => {
    stopping = true;
    post({ op: 'stop' });
    await stopped;
    await worker.terminate();
  });
  return { addresses, bus, activate: () => post({ op: 'activate' }) };
}
