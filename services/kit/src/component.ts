import type { EventBus } from './bus/event-bus.js';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';
import type { IdentityKeyring } from './grpc/identity.js';
import type { DatabaseSettings } from './db.js';

export const SERVICE_NAMES = ['auth', 'photo', 'vote', 'moderation', 'stats', 'support', 'storage'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];

/** What a process gives every component it runs: shared infrastructure, created once. */
export interface Platform {
  nodeEnv: 'development' | 'production' | 'test';
  logger: Logger;
  bus: EventBus;
  databaseUrl: string;
  /** Pool size, timeouts and the direct URL (databaseSettings(config)); each component's defaults when absent. */
  database?: DatabaseSettings;
  /** Where this process may keep files (local blobs); a persistent volume in Kubernetes. */
  dataDir: string;
  /** The Ed25519 keys this process signs its components' calls with, and everyone's public keys. */
  identity: IdentityKeyring;
  /** host:port of each peer service. */
  addresses: Partial<Record<ServiceName, string>>;
}

export interface RunningComponent {
  /** The port it listens on (useful when it was started on port 0). */
  port: number;
  /**
   * Starts its background work (the outbox relay). Separate from start so that, in one process, every
   * service has subscribed to the bus before any publishes: the in-process bus counts an event delivered
   * once the subscribers that exist have handled it.
   */
  activate?(): void;
  stop(): Promise<void>;
}

/** A gRPC service as the all-in-one process and the standalone entry point both run it. */
export interface ServiceModule {
  name: ServiceName;
  /** The Postgres schema it owns and its committed migrations; absent for a service without tables. */
  database?: { schema: string; migrationsDir: string };
  /** Peers it calls, so they can be started first. */
  dependsOn?: ServiceName[];
  start(platform: Platform, listen: { host: string; port: number }): Promise<RunningComponent>;
}

export function peerAddress(platform: Platform, name: ServiceName): string {
  const address = platform.addresses[name];
  if (!address) throw new ConfigError(`Invalid configuration: ${name.toUpperCase()}_SERVICE_ADDR: required, the ${name} service's host:port`);
  return address;
}
