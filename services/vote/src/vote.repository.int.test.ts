import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, openDatabase, type Database, type Outbox } from '@snapcracks/kit';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaVoteRepository } from './vote.repository.js';
import { describeVoteRepositoryContract } from './testing/vote.repository.contract.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let repository: PrismaVoteRepository;
let outbox: Outbox;

beforeAll(async () => {
  database = await createTestDatabase('vote_repo');
  await applyMigrations({ databaseUrl: database.url, schema: 'vote', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'vote', logger });
  outbox = createOutbox({ prisma: db.prisma, schema: 'vote', bus: createMemoryEventBus({ logger }), logger });
  repository = new PrismaVoteRepository(db.prisma, outbox, db.pool);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE vote.photo_votes, vote.photo_ratings, vote.votable_photos, vote.outbox RESTART IDENTITY');
});

describeVoteRepositoryContract('PrismaVoteRepository', {
  repository: () => repository,
  votablePhotos: () => PrismaVoteRepository.votablePhotos(db.prisma),
  voters: () => PrismaVoteRepository.voters(db.prisma, outbox),
  eventTypes: async () => (await outboxEvents(db.prisma, 'vote')).map((e) => e.type),
});
