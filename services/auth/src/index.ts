import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { AuthServiceService } from '@snapcracks/proto/auth/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaUserRepository } from './user.repository.js';
import { AuthService } from './auth.service.js';
import { authHandlers } from './grpc/auth.server.js';
import { authBackfillHandlers } from './grpc/backfill.server.js';
import { PrismaUserBackfill } from './backfill.repository.js';
import { loadAuthConfig } from './config.js';

export const authService = defineService<PrismaClient>({
  name: 'auth',
  database: { schema: 'auth', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox, logger }) {
    const service = new AuthService(new PrismaUserRepository(prisma, outbox), loadAuthConfig(), logger);
    server.add(AuthServiceService, { ...authHandlers(service), ...authBackfillHandlers(new PrismaUserBackfill(prisma)) });
  },
});

export { AuthService } from './auth.service.js';
