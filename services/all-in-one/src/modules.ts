import type { ServiceModule } from '@snapcracks/kit';
import { authService } from '@snapcracks/auth';
import { photoService } from '@snapcracks/photo';
import { voteService } from '@snapcracks/vote';
import { moderationService } from '@snapcracks/moderation';
import { statsService } from '@snapcracks/stats';
import { supportService } from '@snapcracks/support';
import { storageService } from '@snapcracks/storage';
import { gatewayDatabase } from '@snapcracks/gateway';

export const SERVICES: ServiceModule[] = [authService, photoService, voteService, moderationService, statsService, supportService, storageService];

/** Every schema and its migrations: the seven services and the gateway's sessions. */
export const DATABASES = [...SERVICES.flatMap((s) => (s.database ? [s.database] : [])), gatewayDatabase];

/** Services ordered so each starts after the peers it calls. */
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
