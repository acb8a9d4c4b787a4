import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { StatsServiceService, type StatsServiceServer } from '@snapcracks/proto/stats/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const statsService = defineService<PrismaClient>({
  name: 'stats',
  database: { schema: 'stats', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(StatsServiceService, unimplemented<StatsServiceServer>(StatsServiceService));
  },
});
