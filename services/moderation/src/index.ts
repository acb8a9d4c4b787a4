import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { ModerationServiceService, type ModerationServiceServer } from '@snapcracks/proto/moderation/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const moderationService = defineService<PrismaClient>({
  name: 'moderation',
  dependsOn: ['photo', 'storage'],
  database: { schema: 'moderation', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(ModerationServiceService, unimplemented<ModerationServiceServer>(ModerationServiceService));
  },
});
