import { readFile, readdir } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, decodeEvent, makeEvent, type Caller, type Database, type EventBus, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { createStorageService } from '@snapcracks/storage';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { Envelope, PhotoDeleted, PhotoStatusChanged, PhotoUpdated, PhotoUploaded, UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import { ImageVariant, PhotoServiceClient, type Photo as PhotoMessage, type UploadPhotoResponse } from '@snapcracks/proto/photo/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { photoService } from './index.js';

const owner: Caller = { userId: 'owner-1', isAdmin: false, hasAcceptedTerms: true };
const other: Caller = { userId: 'other-1', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const fixtures = fileURLToPath(new URL('../../storage/test/fixtures/', import.meta.url));
const REFUSED = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';

interface RawImage {
  data: Buffer;
  info: { width: number; height: number; channels: number };
}
type Sharp = (input: Buffer) => { removeAlpha(): { raw(): { toBuffer(options: { resolveWithObject: true }): Promise<RawImage> } } };

let services: TestServices;
let db: Database<PrismaClient>;
let dataDir: string;
let bus: EventBus;
let gateway: ServiceClient<PhotoServiceClient>;
let moderation: ServiceClient<PhotoServiceClient>;
let blobs: ServiceClient<StorageServiceClient>;
let sharp: Sharp;

beforeAll(async () => {
  services = await startTestServices({ services: [createStorageService({ env: {} }), photoService] });
  dataDir = services.dataDir;
  bus = services.platform.bus;
  db = services.openDatabase(PrismaClient, 'photo');
  gateway = services.client(PhotoServiceClient, { as: 'gateway', deadlineMs: 30_000 });
  moderation = services.client(PhotoServiceClient, { as: 'moderation', deadlineMs: 30_000 });
  blobs = services.client(StorageServiceClient, { as: 'gateway', of: 'storage', deadlineMs: 30_000 });
  // sharp is storage's dependency, not ours: load it from there.
  const fromStorage = createRequire(fileURLToPath(new URL('../../storage/package.json', import.meta.url)));
  sharp = ((await import(pathToFileURL(fromStorage.resolve('sharp')).href)) as { default: Sharp }).default;
});
afterAll(() => services?.stop());

async function upload(caller: Caller, bytes: Buffer, originalName = 'rotated-gps.jpg', description?: string, lateDescription?: string): Promise<UploadPhotoResponse> {
  const stream = gateway.clientStream('uploadPhoto', { caller, deadlineMs: 60_000 });
  try {
    await stream.send({ part: { $case: 'metadata', value: { originalName, mimeType: 'image/jpeg', description } } });
    for (const chunk of chunksOf(bytes, 1024)) await stream.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
    if (lateDescription !== undefined) await stream.send({ part: { $case: 'description', value: lateDescription } });
  } catch {
    // Refused before we finished; finish() reports it.
  }
  return stream.finish();
}

async function getBlob(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const message of blobs.serverStream('getBlob', { key }, { caller: null })) if (message.part?.$case === 'chunk') chunks.push(message.part.value);
  return Buffer.concat(chunks);
}

/** The pixel at (fx, fy), fractions of the width and height. */
async function pixelAt(image: Buffer, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const x = Math.floor(fx * info.width);
  const y = Math.floor(fy * info.height);
  const i = (y * info.width + x) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

async function blobFiles(): Promise<string[]> {
  try {
    return (await readdir(join(dataDir, 'uploads'), { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => e.name);
  } catch {
    return [];
  }
}

function outbox(): Promise<Envelope[]> {
  return outboxEvents(db.prisma, 'photo');
}

const keysOf = (row: { originalKey: string | null; displayKey: string | null; mediumKey: string | null; thumbnailKey: string | null }) => [
  row.originalKey!,
  row.displayKey!,
  row.mediumKey!,
  row.thumbnailKey!,
];

describe('the photo service over gRPC with the real storage service', () => {
  let uploaded: PhotoMessage;

  it('streams an upload through to storage and stores the row pending, with its event', async () => {
    const jpeg = await readFile(join(fixtures, 'rotated-gps.jpg'));
    const { photo: answer } = await upload(owner, jpeg, '../secret/rotated-gps.jpg', '  Across the wall ');
    uploaded = answer!;
    expect(uploaded).toMatchObject({
      userId: owner.userId,
      originalName: 'rotated-gps.jpg',
      mimeType: 'image/jpeg',
      size: jpeg.byteLength,
      description: 'Across the wall',
      status: PhotoStatus.PHOTO_STATUS_PENDING,
      // Stored turned a quarter with EXIF orientation 6; storage turns it upright (240 × 160).
      width: 240,
      height: 160,
      imageVersion: 1,
      privacyBars: [],
    });
    expect(uploaded.filename).toMatch(/^[0-9a-f]{32}\.webp$/);
    const row = (await db.prisma.photo.findUnique({ where: { id: uploaded.id } }))!;
    expect(row).toMatchObject({ storageType: 'local', originalType: 'image/jpeg', version: 1n });
    expect(row.contentSha256).toMatch(/^[0-9a-f]{64}$/);
    expect((await getBlob(row.originalKey!)).byteLength).toBe(row.originalSize);
    const events = await outbox();
    expect(events.map((e) => e.type)).toEqual(['photo.photo.uploaded']);
    expect(decodeEvent(events[0]!, PhotoUploaded).photo).toMatchObject({ photoId: uploaded.id, userId: owner.userId, filename: uploaded.filename, version: 1 });
  });

  it('hides a pending photo from other members and signed-out visitors, but not from its owner', async () => {
    for (const caller of [other, null]) {
      for (const variant of [ImageVariant.IMAGE_VARIANT_DISPLAY, ImageVariant.IMAGE_VARIANT_MEDIUM, ImageVariant.IMAGE_VARIANT_THUMBNAIL, ImageVariant.IMAGE_VARIANT_ORIGINAL]) {
        expect(await callError(gateway.call.resolveImage({ filename: uploaded.filename, variant }, { caller }))).toMatchObject({ code: status.NOT_FOUND, details: 'Photo not found' });
      }
      expect(await callError(gateway.call.getPhoto({ id: uploaded.id }, { caller }))).toMatchObject({ code: status.NOT_FOUND });
    }
    expect(await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, { caller: owner })).toMatchObject({ contentType: 'image/webp', public: false, imageVersion: 1 });
    expect(await callError(moderation.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, { caller: owner }))).toMatchObject({ code: status.PERMISSION_DENIED });
  });

  it('burns privacy bars into the display, medium and thumbnail images, not into the original', async () => {
    const before = (await db.prisma.photo.findUnique({ where: { id: uploaded.id } }))!;
    // The upright image is red in its top-left quarter; the bar covers most of it.
    const bars = [{ x: 5, y: 5, width: 40, height: 40 }];
    const answer = await gateway.call.setPrivacyBars({ id: uploaded.id, bars }, { caller: owner });
    expect(answer.bars).toEqual(bars);
    expect(answer.photo).toMatchObject({ imageVersion: 2, privacyBars: bars });
    const row = (await db.prisma.photo.findUnique({ where: { id: uploaded.id } }))!;
    expect(row).toMatchObject({ imageVersion: 2, version: 2n, privacyBars: JSON.stringify(bars), originalKey: before.originalKey });

    const resolved = await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, { caller: owner });
    expect(resolved).toMatchObject({ blobKey: row.displayKey, etag: row.displayEtag, imageVersion: 2 });
    expect(await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_MEDIUM }, { caller: owner })).toMatchObject({
      blobKey: row.mediumKey,
      etag: row.mediumEtag,
      imageVersion: 2,
      fallback: false,
    });
    for (const key of [row.displayKey!, row.mediumKey!, row.thumbnailKey!]) {
      const [r, g, b] = await pixelAt(await getBlob(key), 0.25, 0.25);
      expect(Math.max(r!, g!, b!)).toBeLessThan(24);
    }
    const [r, g, b] = await pixelAt(await getBlob(row.originalKey!), 0.25, 0.25);
    expect(r).toBeGreaterThan(200);
    expect(Math.max(g!, b!)).toBeLessThan(60);
    // The replaced derivatives are gone.
    expect(await callError(getBlob(before.displayKey!))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(getBlob(before.thumbnailKey!))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(getBlob(before.mediumKey!))).toMatchObject({ code: status.NOT_FOUND });
    expect(await gateway.call.getPrivacyBars({ id: uploaded.id }, { caller: owner })).toEqual({ bars });
  });

  it('refuses bad bars with a message, changing nothing', async () => {
    const before = await db.prisma.photo.findUnique({ where: { id: uploaded.id } });
    const error = await callError(gateway.call.setPrivacyBars({ id: uploaded.id, bars: [{ x: 60, y: 0, width: 50, height: 10 }] }, { caller: owner }));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Each privacy bar needs x, y, width and height between 0 and 100, and must lie inside the photo' });
    expect(await db.prisma.photo.findUnique({ where: { id: uploaded.id } })).toEqual(before);
  });

  it("changes nothing when someone else edits or deletes the photo", async () => {
    const before = await db.prisma.photo.findUnique({ where: { id: uploaded.id } });
    const eventsBefore = (await outbox()).length;
    expect(await callError(gateway.call.updatePhoto({ id: uploaded.id, description: 'Mine now' }, { caller: other }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(gateway.call.deletePhoto({ id: uploaded.id }, { caller: other }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(gateway.call.setPrivacyBars({ id: uploaded.id, bars: [] }, { caller: other }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(gateway.call.deletePhoto({ id: uploaded.id }, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });

    await moderation.call.setPhotoStatus({ id: uploaded.id, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId: 'action-1' }, { caller: admin });
    const approved = await db.prisma.photo.findUnique({ where: { id: uploaded.id } });
    expect(approved).toMatchObject({ status: 'approved', approvedBy: admin.userId, version: 3n });
    expect(await callError(gateway.call.updatePhoto({ id: uploaded.id, description: 'Mine now' }, { caller: other }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(gateway.call.deletePhoto({ id: uploaded.id }, { caller: other }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await db.prisma.photo.findUnique({ where: { id: uploaded.id } })).toEqual(approved);
    expect((await outbox()).length).toBe(eventsBefore + 1);
    expect(before?.description).toBe('Across the wall');
    for (const key of keysOf(approved!)) expect((await getBlob(key)).byteLength).toBeGreaterThan(0);
  });

  it('serves an approved photo’s redacted images to everyone, and its original to the owner only', async () => {
    const display = await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_UNSPECIFIED }, { caller: null });
    expect(display).toMatchObject({ contentType: 'image/webp', public: true, imageVersion: 2 });
    for (const caller of [null, other]) {
      const medium = await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_MEDIUM }, { caller });
      expect(medium).toMatchObject({ contentType: 'image/webp', public: true, imageVersion: 2, fallback: false });
      expect(medium.blobKey).toMatch(/-medium\.webp$/);
    }
    expect(await callError(gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_ORIGINAL }, { caller: other }))).toMatchObject({ code: status.NOT_FOUND });
    expect(await gateway.call.resolveImage({ filename: uploaded.filename, variant: ImageVariant.IMAGE_VARIANT_ORIGINAL }, { caller: owner })).toMatchObject({ contentType: 'image/jpeg', public: false });
    expect(await callError(moderation.call.setPhotoStatus({ id: uploaded.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'No', actionId: 'a2' }, { caller: admin }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: 'Only pending photos can be approved or rejected',
    });
  });

  it('deletes the row with its event, then its blobs', async () => {
    const row = (await db.prisma.photo.findUnique({ where: { id: uploaded.id } }))!;
    const { photo: deleted } = await moderation.call.deletePhoto({ id: uploaded.id, actionId: 'action-3' }, { caller: admin });
    expect(deleted?.id).toBe(uploaded.id);
    expect(await db.prisma.photo.findUnique({ where: { id: uploaded.id } })).toBeNull();
    for (const key of keysOf(row)) expect(await callError(getBlob(key))).toMatchObject({ code: status.NOT_FOUND });
    const events = await outbox();
    expect(events.map((e) => e.type)).toEqual(['photo.photo.uploaded', 'photo.photo.updated', 'photo.photo.status_changed', 'photo.photo.deleted']);
    expect(decodeEvent(events[1]!, PhotoUpdated)).toMatchObject({ changedBy: owner.userId, photo: { version: 2 } });
    expect(decodeEvent(events[2]!, PhotoStatusChanged)).toMatchObject({ actionId: 'action-1', changedBy: admin.userId, previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, photo: { status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 3 } });
    expect(decodeEvent(events[3]!, PhotoDeleted)).toMatchObject({ actionId: 'action-3', deletedBy: admin.userId, photo: { photoId: uploaded.id, version: 4 } });
    expect(await blobFiles()).toEqual([]);
  });

  it('leaves no row and no blob when storage refuses the upload', async () => {
    const rows = await db.prisma.photo.count();
    const events = (await outbox()).length;
    const html = await readFile(join(fixtures, 'html.jpg'));
    expect(await callError(upload(owner, html, 'evil.jpg'))).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    expect(await callError(upload(owner, Buffer.alloc(10 * 1024 * 1024 + 1, 0xff)))).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    expect(await db.prisma.photo.count()).toBe(rows);
    expect((await outbox()).length).toBe(events);
    expect(await blobFiles()).toEqual([]);
  });

  it('refuses uploads from signed-out callers and a description over 500 characters, storing nothing', async () => {
    const jpeg = await readFile(join(fixtures, 'rotated-gps.jpg'));
    expect(await callError(upload(null as unknown as Caller, jpeg))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(upload(owner, jpeg, 'a.jpg', 'x'.repeat(501)))).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Description must be 500 characters or less' });
    expect(await blobFiles()).toEqual([]);
  });

  it('takes a description sent after the file in the same call, and for a refused one stores and announces nothing', async () => {
    const jpeg = await readFile(join(fixtures, 'rotated-gps.jpg'));
    const files = await blobFiles();
    const { photo } = await upload(owner, jpeg, 'late.jpg', undefined, '  Described last ');
    expect(photo).toMatchObject({ originalName: 'late.jpg', description: 'Described last' });
    const events = await outbox();
    expect(decodeEvent(events.at(-1)!, PhotoUploaded).photo).toMatchObject({ photoId: photo!.id, description: 'Described last' });

    const stored = await blobFiles();
    expect(stored.length).toBe(files.length + 4);
    for (const [late, details] of [
      ['x'.repeat(501), 'Description must be 500 characters or less'],
      ['A crack\u0000', 'description must not contain control characters'],
    ] as const) {
      expect(await callError(upload(owner, jpeg, 'late.jpg', undefined, late))).toMatchObject({ code: status.INVALID_ARGUMENT, details });
    }
    expect(await callError(upload(owner, jpeg, 'late.jpg', 'First', 'Again'))).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Only one description is allowed' });
    expect((await blobFiles()).sort()).toEqual(stored.sort());
    expect((await outbox()).length).toBe(events.length);

    // Nothing may follow the description.
    const stream = gateway.clientStream('uploadPhoto', { caller: owner, deadlineMs: 60_000 });
    try {
      await stream.send({ part: { $case: 'metadata', value: { originalName: 'late.jpg', mimeType: 'image/jpeg' } } });
      await stream.send({ part: { $case: 'chunk', value: jpeg } });
      await stream.send({ part: { $case: 'description', value: 'Last' } });
      await stream.send({ part: { $case: 'chunk', value: jpeg } });
    } catch {
      // Refused before we finished; finish() reports it.
    }
    expect(await callError(stream.finish())).toMatchObject({ code: status.INVALID_ARGUMENT, details: 'Nothing may follow the last part' });
    expect((await blobFiles()).sort()).toEqual(stored.sort());
  });

  it("puts the uploader's names, fed by auth's events in any order, on photo messages", async () => {
    const jpeg = await readFile(join(fixtures, 'rotated-gps.jpg'));
    const { photo: mine } = await upload(other, jpeg);
    const names = (firstName: string, seconds: number) =>
      makeEvent(
        'auth.user.updated',
        UserUpdated,
        { user: { id: other.userId, firstName, lastName: 'Lovelace', displayName: 'Ada L.' }, isAdmin: false, isEnabled: true, hasAcceptedTerms: true, updatedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, seconds)) },
        { source: 'auth' },
      );
    const newer = names('Ada', 20);
    await bus.publish(newer);
    await bus.publish(names('Stale', 10));
    await bus.publish(newer); // redelivered
    const { photos } = await gateway.call.listMyPhotos({}, { caller: other });
    expect(photos.map((p) => p.id)).toEqual([mine!.id]);
    expect(photos[0]!.user).toEqual({ id: other.userId, firstName: 'Ada', lastName: 'Lovelace', displayName: 'Ada L.' });
    // A deleted account's names go, and its photos with them (consumers/users.consumer.int.test.ts).
    await bus.publish(makeEvent('auth.user.deleted', UserDeleted, { userId: other.userId }, { source: 'auth' }));
    expect(await db.prisma.uploader.findUnique({ where: { id: other.userId } })).toBeNull();
    expect(await callError(gateway.call.getPhoto({ id: mine!.id }, { caller: admin }))).toMatchObject({ code: status.NOT_FOUND });
  });
});
