import type { Lifecycle, Platform, RunningComponent, ServiceName } from '@snapcracks/kit';
import { SERVICES, startOrder } from './modules.js';

export interface RunningServices {
  /** Where each service listens (loopback, a free port each). */
  addresses: Partial<Record<ServiceName, string>>;
  /** Starts the outbox relays once every consumer has subscribed (see RunningComponent.activate). */
  activate(): void;
}

/**
 * The seven services on loopback gRPC, each started after the peers it calls (`platform.addresses` fills in as they
 * start) and stopped by `lifecycle` in reverse order.
 */
export async function startServices(platform: Platform, lifecycle: Lifecycle): Promise<RunningServices> {
  const started: RunningComponent[] = [];
  for (const service of startOrder(SERVICES)) {
    const running = await service.start(platform, { host: '127.0.0.1', port: 0 });
    platform.addresses[service.name] = `127.0.0.1:${running.port}`;
    lifecycle.onStop(service.name, () => running.stop());
    started.push(running);
  }
  return {
    addresses: { ...platform.addresses },
    activate: () => started.forEach((running) => running.activate?.()),
  };
}
