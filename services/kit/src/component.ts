import type { IncomingMessage, ServerResponse } from 'node:http';
import type { EventBus } from './bus/event-bus.js';
import { ConfigError } from './config.js';
import type { Logger } from './logger.js';
import type { IdentityKeyring } from './grpc/identity.js';
import type { DatabaseSettings } from './db.js';

/** The gRPC services: the one list of them (SERVICE_PEERS says who calls whom). */
export const SERVICE_NAMES = ['auth', 'photo', 'vote', 'moderation', 'stats', 'support', 'storage'] as const;
export type ServiceName = (typeof SERVICE_NAMES)[number];
/** Everything a deployment runs as its own process, each with its own identity key: the HTTP gateway and the services. */
export const COMPONENT_NAMES = ['gateway', ...SERVICE_NAMES] as const;
export type ComponentName = (typeof COMPONENT_NAMES)[number];

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
  /** The gRPC target of each peer service: `host:port`, `dns:///name:port` (every replica) or an `ipv4:` list. */
  addresses: Partial<Record<ServiceName, string>>;
  /** How long a gRPC server keeps a connection before asking the caller to reconnect (GRPC_MAX_CONNECTION_AGE_MS). */
  grpcMaxConnectionAgeMs?: number;
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
  /** Routes for the process's internal port beside /metrics (never routed from outside), e.g. the gateway's readiness detail. */
  internalRoutes?: Record<string, InternalRoute>;
  stop(): Promise<void>;
}

export type InternalRoute = (request: IncomingMessage, response: ServerResponse) => void | Promise<void>;

/**
 * A component as every mode runs it: the all-in-one process (all of them), `pnpm start:split` and a container (one
 * per process), through `startComponents`.
 */
export interface ComponentModule {
  name: ComponentName;
  /** `grpc` (the default) listens on GRPC_HOST:GRPC_PORT (50051) when run alone; `http` on HOST:PORT (8080). */
  protocol?: 'grpc' | 'http';
  /** The Postgres schema it owns and its committed migrations; absent for a service without tables. */
  database?: { schema: string; migrationsDir: string };
  start(platform: Platform, listen: { host: string; port: number }): Promise<RunningComponent>;
}

/** A gRPC service. */
export interface ServiceModule extends ComponentModule {
  name: ServiceName;
  protocol?: 'grpc';
}

export function peerAddress(platform: Platform, name: ServiceName): string {
  const address = platform.addresses[name];
  if (!address) throw new ConfigError(`Invalid configuration: ${name.toUpperCase()}_SERVICE_ADDR: required, the ${name} service's host:port`);
  return address;
}
