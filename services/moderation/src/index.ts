import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { ModerationServiceService } from '@snapcracks/proto/moderation/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaModerationActionRepository } from './moderation-action.repository.js';
import { ModerationService } from './moderation.service.js';
import { moderationHandlers } from './grpc/moderation.server.js';
import { PHOTO_DECISION_EVENTS, photoDecisionsConsumer } from './consumers/photo-decisions.consumer.js';

export const moderationService = defineService<PrismaClient>({
  name: 'moderation',
  dependsOn: ['photo', 'storage'],
  database: { schema: 'moderation', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, logger, connect, consume }) {
    const photo = connect('photo', PhotoServiceClient);
    const service = new ModerationService(new PrismaModerationActionRepository(prisma), photo.call, logger);
    server.add(ModerationServiceService, moderationHandlers(service));
    consume('decisions', PHOTO_DECISION_EVENTS, photoDecisionsConsumer((tx) => new PrismaModerationActionRepository(tx), logger));
  },
});

export { ModerationService } from './moderation.service.js';
