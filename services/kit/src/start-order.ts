import { SERVICE_PEERS } from './call-graph.js';
import type { ComponentModule } from './component.js';

/** Components ordered so each starts after the peers it calls in SERVICE_PEERS (startComponents and startTestServices). */
export function startOrder<M extends ComponentModule>(services: M[]): M[] {
  const ordered: M[] = [];
  const visit = (service: M, path: string[]) => {
    if (ordered.includes(service)) return;
    if (path.includes(service.name)) throw new Error(`Service dependency cycle: ${[...path, service.name].join(' → ')}`);
    for (const name of (SERVICE_PEERS as Record<string, readonly string[]>)[service.name] ?? []) {
      const peer = services.find((s) => s.name === name);
      if (peer) visit(peer, [...path, service.name]);
    }
    ordered.push(service);
  };
  for (const service of services) visit(service, []);
  return ordered;
}
