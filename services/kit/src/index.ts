import type { ServiceModule } from './component.js';

export * from './config.js';
export * from './logger.js';
export * from './errors.js';
export * from './telemetry.js';
export * from './lifecycle.js';
export * from './db.js';
export * from './migrations.js';
export * from './component.js';
export * from './standalone.js';
export * from './service-module.js';
export * from './grpc/unimplemented.js';
export * from './grpc/identity.js';
export * from './grpc/server.js';
export * from './grpc/client.js';
export * from './grpc/streams.js';
export * from './grpc/authorize.js';
export * from './bus/index.js';
export * from './outbox/index.js';

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
