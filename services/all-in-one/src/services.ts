import { LOOPBACK, startComponents, type Lifecycle, type Platform, type ServiceName } from '@snapcracks/kit';
import { SERVICES } from './modules.js';

export interface RunningServices {
  /** Where each service listens. */
  addresses: Partial<Record<ServiceName, string>>;
  /** Starts the outbox relays once every consumer has subscribed (see RunningComponent.activate). */
  activate(): void;
}

/**
 * The seven services on loopback gRPC, each started after the peers it calls (`platform.addresses` fills in as they
 * start) and stopped by `lifecycle` in reverse order.
 */
export async function startServices(platform: Platform, lifecycle: Lifecycle): Promise<RunningServices> {
  const started = await startComponents(platform, SERVICES, lifecycle, {
    listen: () => LOOPBACK,
    started: (module, component) => {
      platform.addresses[module.name as ServiceName] = `${LOOPBACK.host}:${component.port}`;
    },
  });
  return { addresses: { ...platform.addresses }, activate: started.activate };
}
