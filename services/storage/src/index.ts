import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { StorageServiceService, type StorageServiceServer } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const storageService = defineService<PrismaClient>({
  name: 'storage',
  database: { schema: 'storage', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(StorageServiceService, unimplemented<StorageServiceServer>(StorageServiceService));
  },
});
