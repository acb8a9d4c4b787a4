import type { ComponentModule, Platform, RunningComponent } from './component.js';
import type { Lifecycle } from './lifecycle.js';
import { startOrder } from './start-order.js';

/** Where components of one process listen for each other: loopback, a free port each. */
export const LOOPBACK = { host: '127.0.0.1', port: 0 } as const;

export interface StartedComponents {
  running: { module: ComponentModule; component: RunningComponent }[];
  /** Starts the outbox relays once every consumer of the process has subscribed (see RunningComponent.activate). */
  activate(): void;
}

/**
 * Starts components the same way in every mode: each after the peers it calls, stopped by `lifecycle` in reverse
 * order. `listen` says where each listens; `started` hears of each as it comes up (the all-in-one process records
 * its loopback address there, so that the components started after it can call it).
 */
export async function startComponents(
  platform: Platform,
  modules: ComponentModule[],
  lifecycle: Lifecycle,
  options: {
    listen: (module: ComponentModule) => { host: string; port: number };
    started?: (module: ComponentModule, component: RunningComponent) => void;
  },
): Promise<StartedComponents> {
  const running: StartedComponents['running'] = [];
  for (const module of startOrder(modules)) {
    const component = await module.start(platform, options.listen(module));
    lifecycle.onStop(module.name, () => component.stop());
    options.started?.(module, component);
    running.push({ module, component });
  }
  return { running, activate: () => running.forEach(({ component }) => component.activate?.()) };
}
