import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { SupportServiceService, type SupportServiceServer } from '@snapcracks/proto/support/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const supportService = defineService<PrismaClient>({
  name: 'support',
  database: { schema: 'support', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(SupportServiceService, unimplemented<SupportServiceServer>(SupportServiceService));
  },
});
