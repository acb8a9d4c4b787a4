import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { PhotoServiceService, type PhotoServiceServer } from '@snapcracks/proto/photo/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const photoService = defineService<PrismaClient>({
  name: 'photo',
  dependsOn: ['storage'],
  database: { schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(PhotoServiceService, unimplemented<PhotoServiceServer>(PhotoServiceService));
  },
});
