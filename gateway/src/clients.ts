import { createServiceClient, peerAddress, IdentitySigner, type Platform, type ServiceClient, type ServiceName } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { StatsServiceClient } from '@snapcracks/proto/stats/v1';
import { SupportServiceClient } from '@snapcracks/proto/support/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';

/** One client per service; the gateway makes every backend call through these. */
export function createClients(platform: Platform) {
  const signer = new IdentitySigner(platform.identity, 'gateway');
  const connect = <C extends Parameters<typeof createServiceClient>[0]>(Client: C, name: ServiceName) =>
    createServiceClient(Client, peerAddress(platform, name), { signer, peer: name }) as ServiceClient<InstanceType<C>>;
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

/** The client of each peer service, by name. */
export function peerClients(clients: Clients) {
  const { auth, photo, vote, moderation, stats, support, storage } = clients;
  return { auth, photo, vote, moderation, stats, support, storage };
}

export function closeClients(clients: Clients): void {
  for (const client of Object.values(peerClients(clients))) client.close();
}
