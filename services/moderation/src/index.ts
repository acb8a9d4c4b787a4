import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { ModerationServiceService } from '@snapcracks/proto/moderation/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaModerationActionRepository } from './moderation-action.repository.js';
import { ModerationService } from './moderation.service.js';
import { moderationHandlers } from './grpc/moderation.server.js';
import { CleanupService } from './cleanup.service.js';
import { PHOTO_DECISION_EVENTS, photoDecisionsConsumer } from './consumers/photo-decisions.consumer.js';

export const moderationService = defineService<PrismaClient>({
  name: 'moderation',
  // Storage and auth for the orphaned-files cleanup (which blobs exist, which avatars are in use).
  dependsOn: ['photo', 'storage', 'auth'],
  database: { schema: 'moderation', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, logger, connect, consume }) {
    const photo = connect('photo', PhotoServiceClient);
    const storage = connect('storage', StorageServiceClient);
    const auth = connect('auth', AuthServiceClient);
    const actions = new PrismaModerationActionRepository(prisma);
    const service = new ModerationService(actions, photo.call, logger);
    const cleanups = new CleanupService(actions, service, photo.call, storage.call, auth.call, logger);
    server.add(ModerationServiceService, moderationHandlers(service, cleanups));
    consume('decisions', PHOTO_DECISION_EVENTS, photoDecisionsConsumer((tx) => new PrismaModerationActionRepository(tx), logger));
  },
});

export { ModerationService } from './moderation.service.js';
