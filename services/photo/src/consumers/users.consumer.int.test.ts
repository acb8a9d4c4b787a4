import { readFile } from 'node:fs/promises';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { chunksOf, decodeEvent, makeEvent, type Caller, type Database, type EventBus, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices } from '@snapcracks/kit/testing';
import { createStorageService } from '@snapcracks/storage';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, UserDeleted, VoteCast } from '@snapcracks/proto/events/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from '../generated/prisma/client.js';
import { photoService } from '../index.js';

const leaver: Caller = { userId: 'leaver', isAdmin: false, hasAcceptedTerms: true };
const stays: Caller = { userId: 'stays', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const jpeg = () => readFile(new URL('../../../storage/test/fixtures/rotated-gps.jpg', import.meta.url));

let services: TestServices;
let db: Database<PrismaClient>;
let bus: EventBus;
let gateway: ServiceClient<PhotoServiceClient>;
let moderation: ServiceClient<PhotoServiceClient>;
let blobs: ServiceClient<StorageServiceClient>;

beforeAll(async () => {
  services = await startTestServices({ services: [createStorageService({ env: {} }), photoService] });
  bus = services.platform.bus;
  db = services.openDatabase(PrismaClient, 'photo');
  gateway = services.client(PhotoServiceClient, { as: 'gateway', deadlineMs: 30_000 });
  moderation = services.client(PhotoServiceClient, { as: 'moderation', deadlineMs: 30_000 });
  blobs = services.client(StorageServiceClient, { as: 'gateway', of: 'storage', deadlineMs: 30_000 });
});
afterAll(() => services?.stop());

async function upload(caller: Caller): Promise<number> {
  const stream = gateway.clientStream('uploadPhoto', { caller, deadlineMs: 60_000 });
  await stream.send({ part: { $case: 'metadata', value: { originalName: 'crack.jpg', mimeType: 'image/jpeg' } } });
  for (const chunk of chunksOf(await jpeg(), 4096)) await stream.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
  return (await stream.finish()).photo!.id;
}

/** Whether storage still has the blob. */
async function stored(key: string): Promise<boolean> {
  try {
    for await (const message of blobs.serverStream('getBlob', { key }, { caller: null })) void message;
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === status.NOT_FOUND) return false;
    throw error;
  }
}

const userDeleted = (userId: string) => makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' });
const deletions = async () => (await outboxEvents(db.prisma, 'photo')).filter((e) => e.type === 'photo.photo.deleted').map((e) => decodeEvent(e, PhotoDeleted));

describe('a deleted account’s photos', () => {
  it('go with a photo.photo.deleted each, their raters and their blobs; everyone else’s stay', async () => {
    const approved = await upload(leaver);
    const pending = await upload(leaver);
    const kept = await upload(stays);
    await moderation.call.setPhotoStatus({ id: approved, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId: 'approve-1' }, { caller: admin });
    // Someone rated it (the ratings consumer records raters and totals).
    await bus.publish(makeEvent('vote.vote.cast', VoteCast, { photoId: approved, userId: stays.userId, rating: 4, voteCount: 1, ratingSum: 4, version: 1 }, { source: 'vote' }));
    const rows = await db.prisma.photo.findMany({ where: { userId: leaver.userId }, orderBy: { id: 'asc' } });
    const keys = rows.flatMap((row) => [row.originalKey!, row.displayKey!, row.thumbnailKey!]);
    for (const key of keys) expect(await stored(key)).toBe(true);
    expect(await db.prisma.photoRater.count({ where: { photoId: approved } })).toBe(1);
    expect((await gateway.call.getPhoto({ id: approved }, { caller: stays })).photo).toMatchObject({ voteCount: 1, averageRating: 4 });

    await bus.publish(userDeleted(leaver.userId));

    expect(await db.prisma.photo.count({ where: { userId: leaver.userId } })).toBe(0);
    expect(await db.prisma.photoRater.count({ where: { photoId: approved } })).toBe(0);
    expect(await db.prisma.rating.count({ where: { photoId: { in: [approved, pending] } } })).toBe(0);
    expect(await deletions()).toEqual([
      { photo: expect.objectContaining({ photoId: approved, userId: leaver.userId, status: PhotoStatus.PHOTO_STATUS_APPROVED, version: Number(rows[0]!.version) + 1 }), deletedAt: expect.any(Date) },
      { photo: expect.objectContaining({ photoId: pending, userId: leaver.userId, status: PhotoStatus.PHOTO_STATUS_PENDING, version: Number(rows[1]!.version) + 1 }), deletedAt: expect.any(Date) },
    ]);
    await vi.waitFor(async () => {
      for (const key of keys) expect(await stored(key)).toBe(false);
    });
    expect(await errorCode(gateway.call.getPhoto({ id: approved }, { caller: null }))).toBe(status.NOT_FOUND);
    expect((await gateway.call.getPhoto({ id: kept }, { caller: stays })).photo?.userId).toBe(stays.userId);
  });

  it('are deleted once: a redelivery, or another report of the deletion, changes nothing', async () => {
    const twice: Caller = { userId: 'twice', isAdmin: false, hasAcceptedTerms: true };
    const photoId = await upload(twice);
    const event = userDeleted(twice.userId);
    await bus.publish(event);
    const after = (await outboxEvents(db.prisma, 'photo')).length;
    await bus.publish(event); // redelivered: same id
    await bus.publish(userDeleted(twice.userId)); // reported again
    expect((await outboxEvents(db.prisma, 'photo')).length).toBe(after);
    expect((await deletions()).filter((d) => d.photo?.photoId === photoId)).toHaveLength(1);
  });
});

async function errorCode(promise: Promise<unknown>): Promise<number | undefined> {
  try {
    await promise;
    return undefined;
  } catch (error) {
    return (error as { code?: number }).code;
  }
}
