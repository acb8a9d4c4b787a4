import type { ServiceModule } from '@snapcracks/kit';
import { authService } from '@snapcracks/auth';
import { photoService } from '@snapcracks/photo';
import { voteService } from '@snapcracks/vote';
import { moderationService } from '@snapcracks/moderation';
import { statsService } from '@snapcracks/stats';
import { supportService } from '@snapcracks/support';
import { storageService } from '@snapcracks/storage';

export const SERVICES: ServiceModule[] = [authService, photoService, voteService, moderationService, statsService, supportService, storageService];

/** Every service's schema and its migrations (the gateway's sessions have their own, gatewayDatabase). */
export const SERVICE_DATABASES = SERVICES.flatMap((s) => (s.database ? [s.database] : []));

// Lives in the kit so that tests start services in the same order (startTestServices).
export { startOrder } from '@snapcracks/kit';
