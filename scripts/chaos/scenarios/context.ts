import type { BlobLister } from '../checks.js';
import type { ChaosDeployment } from '../deployment.js';
import type { FaultProxy } from '../fault-proxy.js';
import type { PrivateNats, PrivatePostgres } from '../infra.js';
import type { Community } from '../load.js';

/** What a scenario works with: the product in split mode on the harness's own servers, and its community. */
export interface ChaosContext {
  deployment: ChaosDeployment;
  community: Community;
  nats: PrivateNats;
  postgres: PrivatePostgres;
  /** The blob store the deployment writes to, through a proxy the harness can make fail or slow. */
  blobStore: { name: string; proxy: FaultProxy; list: BlobLister };
}
