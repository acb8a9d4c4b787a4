import type { IncomingMessage, ServerResponse } from 'node:http';
import { credentials, Metadata, type Client } from '@grpc/grpc-js';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@snapcracks/proto/health/v1';

/** A probe storm costs one database query per this long. */
const READY_TTL_MS = 1_000;
const PEER_CHECK_DEADLINE_MS = 1_000;

/**
 * Whether the gateway can take traffic: not draining, and its database reachable. The database's answer is kept for
 * about a second and shared by the probes that arrive meanwhile, so probes from every kubelet and load balancer cost
 * one query a second at most; draining is looked at on every call, so a stopping gateway leaves rotation at once.
 * Peer services do not gate it: one service being down must not take the whole site out of rotation (its own pages
 * answer 503 meanwhile).
 */
export class Readiness {
  private cached: { at: number; ok: boolean } | undefined;
  private pending: Promise<boolean> | undefined;
  /** Database queries made, for the tests of the cache. */
  queries = 0;

  constructor(
    private readonly options: {
      isDraining: () => boolean;
      /** Resolves when the database answers. */
      pingDatabase: () => Promise<unknown>;
      /** Health over the gateway's own channel to each peer (peerHealth). */
      peers?: PeerHealth;
      ttlMs?: number;
      now?: () => number;
    },
  ) {}

  async ready(): Promise<boolean> {
    if (this.options.isDraining()) return false;
    return this.database();
  }

  /** The per-service detail, for the internal port: the database, each peer's gRPC health, whether draining. */
  async detail(): Promise<{ status: 'ready' | 'not ready'; database: 'ok' | 'unreachable'; services: Record<string, string>; draining: boolean }> {
    const [database, services] = await Promise.all([this.database(), this.options.peers?.check() ?? Promise.resolve({})]);
    const draining = this.options.isDraining();
    return { status: database && !draining ? 'ready' : 'not ready', database: database ? 'ok' : 'unreachable', services, draining };
  }

  /** The internal port's `/readyz/detail` handler (a plain Node handler, as the metrics server takes routes). */
  detailRoute(): (request: IncomingMessage, response: ServerResponse) => Promise<void> {
    return async (_request, response) => {
      const detail = await this.detail();
      response.writeHead(detail.status === 'ready' ? 200 : 503, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
      response.end(JSON.stringify(detail));
    };
  }

  private database(): Promise<boolean> {
    const now = (this.options.now ?? Date.now)();
    if (this.cached && now - this.cached.at < (this.options.ttlMs ?? READY_TTL_MS)) return Promise.resolve(this.cached.ok);
    this.pending ??= (async () => {
      this.queries++;
      const ok = await this.options.pingDatabase().then(
        () => true,
        () => false,
      );
      this.cached = { at: (this.options.now ?? Date.now)(), ok };
      this.pending = undefined;
      return ok;
    })();
    return this.pending;
  }
}

export interface PeerHealth {
  /** Each peer's gRPC health status name (SERVING, NOT_SERVING, …), or UNREACHABLE. */
  check(): Promise<Record<string, string>>;
}

/**
 * The standard gRPC health service of each peer, asked over the channel the gateway already holds to it (the same
 * connections, balanced over the same replicas): a check opens no connection of its own. The health clients are never
 * closed themselves, since closing one would close the shared channel; they go with the gateway's clients.
 */
export function peerHealth(peers: Record<string, { channel(): ReturnType<Client['getChannel']> }>): PeerHealth {
  const health = Object.entries(peers).map(
    ([name, client]) => [name, new HealthClient('unused', credentials.createInsecure(), { channelOverride: client.channel() })] as const,
  );
  return {
    async check() {
      const entries = await Promise.all(
        health.map(
          ([name, client]) =>
            new Promise<readonly [string, string]>((resolve) =>
              client.check({ service: '' }, new Metadata(), { deadline: new Date(Date.now() + PEER_CHECK_DEADLINE_MS) }, (error, response) =>
                resolve([name, error ? 'UNREACHABLE' : (HealthCheckResponse_ServingStatus[response.status] ?? 'UNKNOWN')]),
              ),
            ),
        ),
      );
      return Object.fromEntries(entries);
    },
  };
}
