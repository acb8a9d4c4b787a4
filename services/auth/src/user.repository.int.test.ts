import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaUserRepository } from './user.repository.js';
import { describeUserRepositoryContract } from './testing/user.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaUserRepository;

beforeAll(async () => {
  database = await createTestDatabase('auth_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'auth', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'auth', logger });
  repository = new PrismaUserRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'auth', bus: createMemoryEventBus({ logger }), logger }));
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE auth.users, auth.outbox');
});

describeUserRepositoryContract('PrismaUserRepository', {
  repository: () => repository,
  eventTypes: async () => (await outboxEvents(db.prisma, 'auth')).map((e) => e.type),
});
