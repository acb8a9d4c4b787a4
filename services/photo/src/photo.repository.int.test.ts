import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, makeEvent, openDatabase, type Database } from '@snapcracks/kit';
import { PhotoUploaded } from '@snapcracks/proto/events/v1';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { PrismaPhotoRepository, type Photo } from './photo.repository.js';
import { SqlRatingStore } from './consumers/ratings.store.js';
import { PrismaUploaderStore } from './consumers/uploaders.store.js';
import { photoState } from './photo.service.js';
import { describePhotoRepositoryContract, newPhoto } from './testing/photo.repository.contract.js';

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
  await db.prisma.$executeRawUnsafe('TRUNCATE photo.photos, photo.ratings, photo.uploaders, photo.outbox RESTART IDENTITY');
});

describePhotoRepositoryContract('PrismaPhotoRepository', {
  repository: () => repository,
  uploaders: () => new PrismaUploaderStore(db.prisma),
  eventTypes: async () => (await outboxEvents(db.prisma, 'photo')).map((e) => e.type),
});

describe('PrismaPhotoRepository and the ratings rows', () => {
  it('reads every photo’s rating totals from its ratings row, whichever way the photo is read', async () => {
    const made = (photo: Photo) => makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: photoState(photo) }, { source: 'test' });
    const photo = await repository.create(newPhoto('owner'), made);
    expect(await db.prisma.rating.findUnique({ where: { photoId: photo.id } })).toMatchObject({ voteCount: 0, ratingSum: 0, approvedAt: null });
    await new SqlRatingStore(db.prisma).apply({ totals: [{ photoId: photo.id, voteCount: 3, ratingSum: 13, version: 3 }], raters: [] });
    const rated = { id: photo.id, voteCount: 3, ratingSum: 13 };
    expect(await repository.findById(photo.id)).toMatchObject(rated);
    expect(await repository.listByUser('owner')).toMatchObject([rated]);
    expect((await repository.listForReview({ order: 'newest', offset: 0, limit: 10 })).photos).toMatchObject([rated]);
    const approvedAt = new Date('2026-11-20T10:00:00Z');
    expect(await repository.update(photo.id, { status: 'approved', approvedAt, reviewedAt: approvedAt }, made)).toMatchObject({ ...rated, status: 'approved' });
    expect(await db.prisma.rating.findUnique({ where: { photoId: photo.id } })).toMatchObject({ voteCount: 3, ratingSum: 13, approvedAt });
    expect(await repository.delete(photo.id, made)).toMatchObject(rated);
    expect(await db.prisma.rating.count()).toBe(0);
  });
});
