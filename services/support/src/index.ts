import { fileURLToPath } from 'node:url';
import { defineService } from '@snapcracks/kit';
import { SupportServiceService } from '@snapcracks/proto/support/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaContactFormRepository } from './contact-form.repository.js';
import { SupportService } from './support.service.js';
import { supportHandlers } from './grpc/support.server.js';

export const supportService = defineService<PrismaClient>({
  name: 'support',
  database: { schema: 'support', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)), PrismaClient },
  async setup({ server, prisma, outbox }) {
    server.add(SupportServiceService, supportHandlers(new SupportService(new PrismaContactFormRepository(prisma, outbox))));
  },
});

export { SupportService } from './support.service.js';
