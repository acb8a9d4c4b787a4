import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaModerationActionRepository } from './moderation-action.repository.js';
import { describeModerationActionRepositoryContract } from './testing/moderation-action.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaModerationActionRepository;

beforeAll(async () => {
  database = await createTestDatabase('moderation_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'moderation', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'moderation', logger });
  repository = new PrismaModerationActionRepository(db.prisma);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE moderation.moderation_actions');
});

describeModerationActionRepositoryContract('PrismaModerationActionRepository', {
  repository: () => repository,
});
