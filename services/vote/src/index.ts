import { fileURLToPath } from 'node:url';
import { defineService, unimplemented } from '@snapcracks/kit';
import { VoteServiceService, type VoteServiceServer } from '@snapcracks/proto/vote/v1';
import { PrismaClient } from './generated/prisma/client.js';

export const voteService = defineService<PrismaClient>({
  name: 'vote',
  database: { schema: 'vote', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server }) {
    server.add(VoteServiceService, unimplemented<VoteServiceServer>(VoteServiceService));
  },
});
