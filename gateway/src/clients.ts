import { createServiceClient, peerAddress, IdentitySigner, type Platform, type ServiceClient, type ServiceName } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { StatsServiceClient } from '@snapcracks/proto/stats/v1';
import { SupportServiceClient } from '@snapcracks/proto/support/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { HealthClient, HealthCheckResponse_ServingStatus } from '@snapcracks/proto/health/v1';
import { credentials, Metadata } from '@grpc/grpc-js';

/** One client per service; the gateway makes every backend call through these. */
export function createClients(platform: Platform) {
  const signer = new IdentitySigner(platform.identity, 'gateway');
  const connect = <C extends Parameters<typeof createServiceClient>[0]>(Client: C, name: ServiceName) =>
    createServiceClient(Client, peerAddress(platform, name), { signer }) as ServiceClient<InstanceType<C>>;
  return {
    signer,
    auth: connect(AuthServiceClient, 'auth'),
    photo: connect(PhotoServiceClient, 'photo'),
    vote: connect(VoteServiceClient, 'vote'),
    moderation: connect(ModerationServiceClient, 'moderation'),
    stats: connect(StatsServiceClient, 'stats'),
    support: connect(SupportServiceClient, 'support'),
    storage: connect(StorageServiceClient, 'storage'),
  };
}
export type Clients = ReturnType<typeof createClients>;

export function closeClients(clients: Clients): void {
  for (const client of [clients.auth, clients.photo, clients.vote, clients.moderation, clients.stats, clients.support, clients.storage]) client.close();
}

/** gRPC health of every peer, for /readyz: a service that is starting or draining reports NOT_SERVING. */
export async function checkPeers(platform: Platform): Promise<Record<string, string>> {
  const entries = await Promise.all(
    Object.entries(platform.addresses).map(async ([name, address]) => {
      const client = new HealthClient(address, credentials.createInsecure());
      try {
        const status = await new Promise<string>((resolve) =>
          client.check({ service: '' }, new Metadata(), { deadline: new Date(Date.now() + 1_000) }, (error, response) =>
            resolve(error ? 'UNREACHABLE' : HealthCheckResponse_ServingStatus[response.status] ?? 'UNKNOWN'),
          ),
        );
        return [name, status] as const;
      } finally {
        client.close();
      }
    }),
  );
  return Object.fromEntries(entries);
}
