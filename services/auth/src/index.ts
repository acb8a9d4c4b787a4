import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { AuthServiceService } from '@snapcracks/proto/auth/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaUserRepository } from './user.repository.js';
import { AuthService } from './auth.service.js';
import { AvatarService } from './avatar.service.js';
import { GrpcAvatarStorage } from './storage.client.js';
import { authHandlers } from './grpc/auth.server.js';
import { authBackfillHandlers } from './grpc/backfill.server.js';
import { PrismaUserBackfill } from './backfill.repository.js';
import { loadAuthConfig } from './config.js';

export const authService = defineService<PrismaClient>({
  name: 'auth',
  database: { schema: 'auth', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox, logger, connect }) {
    const service = new AuthService(new PrismaUserRepository(prisma, outbox), loadAuthConfig(), logger);
    // Storage: the avatar upload, which auth relays to it.
    const avatars = new AvatarService(service, new GrpcAvatarStorage(connect('storage', StorageServiceClient)), logger);
    server.add(AuthServiceService, { ...authHandlers(service, avatars), ...authBackfillHandlers(new PrismaUserBackfill(prisma)) });
  },
});

export { AuthService } from './auth.service.js';
