import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, consumeIdempotently, createLogger, decodeEventOfType, makeEvent, openDatabase, type Database, type Envelope } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { VoteCast } from '@snapcracks/proto/events/v1';
import { PrismaClient } from '../generated/prisma/client.js';
import { PrismaPhotoRepository } from '../photo.repository.js';
import { newPhoto } from '../testing/photo.repository.contract.js';
import { RATING_EVENTS, applyRatingEvent } from './ratings.consumer.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;

beforeAll(async () => {
  database = await createTestDatabase('photo_ratings');
  await applyMigrations({ databaseUrl: database.url, schema: 'photo', migrationsDir: fileURLToPath(new URL('../../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'photo', logger });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

const cast = (photoId: number, voteCount: number, ratingSum: number, version: number) =>
  makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'voter', rating: 5, voteCount, ratingSum, version }, { source: 'vote' });

/** Handles the event as the service's `ratings` consumer does: once per event id, in a transaction. */
const deliver = (event: Envelope) =>
  consumeIdempotently({
    prisma: db.prisma,
    schema: 'photo',
    consumer: 'photo.ratings',
    event,
    handle: (tx) => applyRatingEvent(decodeEventOfType(event, RATING_EVENTS), PrismaPhotoRepository.ratings(tx)),
  });

const ratingOf = async (id: number) => db.prisma.photo.findUniqueOrThrow({ where: { id }, select: { voteCount: true, ratingSum: true, ratingVersion: true, version: true } });

describe('the photo ratings consumer on PostgreSQL', () => {
  it('sets the newest totals and ignores older versions, duplicates and redeliveries, leaving the photo’s own version alone', async () => {
    const { id } = await db.prisma.photo.create({ data: { ...newPhoto('owner'), status: 'approved' } });
    const third = cast(id, 3, 11, 3);
    await deliver(third);
    expect(await ratingOf(id)).toEqual({ voteCount: 3, ratingSum: 11, ratingVersion: 3n, version: 1n });
    await deliver(cast(id, 2, 6, 2)); // overtaken
    await deliver(cast(id, 9, 45, 3)); // another event claiming the same version
    await deliver(third); // redelivered
    expect(await ratingOf(id)).toEqual({ voteCount: 3, ratingSum: 11, ratingVersion: 3n, version: 1n });
    await deliver(cast(id, 4, 16, 4));
    expect(await ratingOf(id)).toEqual({ voteCount: 4, ratingSum: 16, ratingVersion: 4n, version: 1n });
  });

  it('changes nothing for a photo that is gone', async () => {
    await expect(PrismaPhotoRepository.ratings(db.prisma).setIfNewer({ photoId: 999_999, voteCount: 1, ratingSum: 5, version: 1 })).resolves.toBe(false);
  });
});
