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

// Lives in the kit so that tests start services in the same order (startTestServices).
export { startOrder } from '@snapcracks/kit';
