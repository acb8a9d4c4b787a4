import type { ServiceModule } from './component.js';

/** Services ordered so each starts after the peers it calls (the all-in-one process and startTestServices). */
export function startOrder(services: ServiceModule[]): ServiceModule[] {
  const ordered: ServiceModule[] = [];
  const visit = (service: ServiceModule, path: string[]) => {
    if (ordered.includes(service)) return;
    if (path.includes(service.name)) throw new Error(`Service dependency cycle: ${[...path, service.name].join(' → ')}`);
    for (const name of service.dependsOn ?? []) {
      const peer = services.find((s) => s.name === name);
      if (peer) visit(peer, [...path, service.name]);
    }
    ordered.push(service);
  };
  for (const service of services) visit(service, []);
  return ordered;
}
