import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaPhotoRepository } from './photo.repository.js';
import { describePhotoRepositoryContract } from './testing/photo.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaPhotoRepository;

beforeAll(async () => {
  database = await createTestDatabase('photo_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'photo', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger });
  repository = new PrismaPhotoRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'photo', bus: createMemoryEventBus({ logger }), logger }));
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE photo.photos, photo.uploaders, photo.outbox RESTART IDENTITY');
});

describePhotoRepositoryContract('PrismaPhotoRepository', {
  repository: () => repository,
  uploaders: () => PrismaPhotoRepository.uploaders(db.prisma),
  eventTypes: async () => (await outboxEvents(db.prisma, 'photo')).map((e) => e.type),
});
