import { status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  GrpcServer,
  IdentitySigner,
  createLogger,
  createMemoryEventBus,
  makeEvent,
  type Caller,
  type Database,
  type EventBus,
  type ServiceClient,
  type ServiceModule,
} from '@snapcracks/kit';
import { processedEvents, startTestServices, stubHandlers, type TestServices } from '@snapcracks/kit/testing';
import { AuthServiceService, type AuthServiceServer } from '@snapcracks/proto/auth/v1';
import { CleanupKind } from '@snapcracks/proto/moderation/v1';
import { StorageServiceService, type StorageServiceServer } from '@snapcracks/proto/storage/v1';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged } from '@snapcracks/proto/events/v1';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { PhotoServiceService, ReviewList, type PhotoServiceServer } from '@snapcracks/proto/photo/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { moderationService } from './index.js';
import { FakePhotoService, ONLY_PENDING, photoMessage } from './testing/fake-photo-service.js';
import { FakeAuthService, FakeStorageService } from './testing/fake-storage-service.js';

const logger = createLogger('test', (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent');
const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member-1', isAdmin: false, hasAcceptedTerms: true };

let services: TestServices;
let db: Database<PrismaClient>;
let bus: EventBus;
let photos: FakePhotoService;
let client: ServiceClient<ModerationServiceClient>;
let auth: FakeAuthService;
let storage: FakeStorageService;

beforeAll(async () => {
  // The photo service, stubbed: the in-memory fake behind a real gRPC server that verifies the signed identity.
  photos = new FakePhotoService();
  const photoStub: ServiceModule = {
    name: 'photo',
    async start(platform, listen) {
      const server = new GrpcServer({ name: 'photo', signer: new IdentitySigner(platform.identity, 'photo'), logger: platform.logger });
      server.add<PhotoServiceServer>(PhotoServiceService, stubHandlers<PhotoServiceServer>(PhotoServiceService, {
        setPhotoStatus: (request, ctx) => photos.setPhotoStatus(request, { caller: ctx.caller }),
        deletePhoto: (request, ctx) => photos.deletePhoto(request, { caller: ctx.caller }),
        listPhotosForReview: (request, ctx) => photos.listPhotosForReview(request, { caller: ctx.caller }),
        findReferencedBlobs: (request, ctx) => photos.findReferencedBlobs(request, { caller: ctx.caller }),
      }));
      return { port: await server.start(listen.host, listen.port), stop: () => server.shutdown(1000) };
    },
  };
  // Storage and auth, stubbed the same way: the blobs table, and which avatar names accounts use. (The cleanup
  // against the real storage service, on local disk, is in services/all-in-one/test/admin.int.test.ts; storage's
  // own tests delete with a cut-off on every backend.)
  storage = new FakeStorageService();
  const storageStub: ServiceModule = {
    name: 'storage',
    async start(platform, listen) {
      const server = new GrpcServer({ name: 'storage', signer: new IdentitySigner(platform.identity, 'storage'), logger: platform.logger });
      server.add<StorageServiceServer>(StorageServiceService, stubHandlers<StorageServiceServer>(StorageServiceService, {
        listBlobs: (request) => storage.listBlobs(request, { caller: null }),
        deleteBlobs: (request) => storage.deleteBlobs(request, { caller: null }),
      }));
      return { port: await server.start(listen.host, listen.port), stop: () => server.shutdown(1000) };
    },
  };
  // The auth service: which avatar names accounts use, and the accounts behind admin claims (admin-1 is still an admin).
  auth = new FakeAuthService();
  const authStub: ServiceModule = {
    name: 'auth',
    async start(platform, listen) {
      const server = new GrpcServer({ name: 'auth', signer: new IdentitySigner(platform.identity, 'auth'), logger: platform.logger });
      server.add<AuthServiceServer>(AuthServiceService, stubHandlers<AuthServiceServer>(AuthServiceService, {
        findReferencedAvatars: (request, ctx) => {
          if (ctx.service !== 'moderation') throw new Error('only moderation asks');
          return auth.findReferencedAvatars(request, { caller: ctx.caller });
        },
        getUser: async (request, ctx) => {
          if (ctx.caller?.userId !== request.id) throw new Error('an admin reads their own account');
          const isAdmin = request.id === admin.userId;
          return { user: { id: request.id, isAdmin, isEnabled: true, hasAcceptedTerms: true, createdAt: undefined, updatedAt: undefined } };
        },
      }));
      return { port: await server.start(listen.host, listen.port), stop: () => server.shutdown(1000) };
    },
  };

  // No duplicate window, so a redelivered event reaches the consumer and its processed_events must drop it.
  bus = createMemoryEventBus({ logger, historyMs: 0 });
  services = await startTestServices({ services: [photoStub, storageStub, authStub, moderationService], bus });
  db = services.openDatabase(PrismaClient, 'moderation');
  client = services.client(ModerationServiceClient, { as: 'gateway' });
});
afterAll(async () => {
  await services?.stop();
  await bus?.close();
});
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE moderation.moderation_actions, moderation.processed_events');
  photos.calls.length = 0;
  photos.events.length = 0;
});

const entries = () => db.prisma.moderationAction.findMany({ orderBy: { createdAt: 'asc' } });
const failure = (call: Promise<unknown>) => call.then(() => expect.fail('expected the call to fail'), (e: ServiceError) => ({ code: e.code, details: e.details }));
let nextPhotoId = 100;
const pendingPhoto = (owner = 'owner-1') => photos.seed(photoMessage(nextPhotoId++, owner));

describe('the moderation service over gRPC', () => {
  it('approves through the photo service as the admin and records one entry, which the photo event does not repeat', async () => {
    const photo = pendingPhoto();
    const { photo: answered } = await client.call.reviewPhoto({ photoId: photo.id, status: PhotoStatus.PHOTO_STATUS_APPROVED }, { caller: admin });
    expect(answered).toMatchObject({ id: photo.id, status: PhotoStatus.PHOTO_STATUS_APPROVED, approvedBy: 'admin-1' });
    expect(photos.calls).toEqual([expect.objectContaining({ method: 'setPhotoStatus', caller: admin })]);
    const actionId = (photos.calls[0]!.request as { actionId: string }).actionId;
    expect(await entries()).toEqual([
      // The upload time is kept for the reviewer figures' wait from upload to decision.
      { id: actionId, actorId: 'admin-1', action: 'approve', photoId: BigInt(photo.id), reason: null, photoOwnerId: 'owner-1', photoUploadedAt: photo.createdAt, createdAt: expect.any(Date) },
    ]);

    await bus.publish(photos.events[0]!);
    expect(await entries()).toHaveLength(1);
  });

  it('refuses a blank reason and a non-admin before calling the photo service, and passes its refusals through', async () => {
    const photo = pendingPhoto();
    expect(await failure(client.call.reviewPhoto({ photoId: photo.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: '  ' }, { caller: admin }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'Please provide a reason for rejection.',
    });
    expect((await failure(client.call.deletePhoto({ photoId: photo.id }, { caller: member }))).code).toBe(status.PERMISSION_DENIED);
    expect(photos.calls).toEqual([]);

    await client.call.reviewPhoto({ photoId: photo.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: ' Blurry ' }, { caller: admin });
    expect(await failure(client.call.reviewPhoto({ photoId: photo.id, status: PhotoStatus.PHOTO_STATUS_APPROVED }, { caller: admin }))).toEqual({
      code: status.FAILED_PRECONDITION,
      details: ONLY_PENDING,
    });
    expect(await failure(client.call.deletePhoto({ photoId: 999_999 }, { caller: admin }))).toEqual({ code: status.NOT_FOUND, details: 'Photo not found' });
    expect((await entries()).map((e) => [e.action, e.reason])).toEqual([['reject', 'Blurry']]);
  });

  it('deletes, lists the log newest first and passes the photo lists through', async () => {
    const first = pendingPhoto();
    const second = pendingPhoto('owner-2');
    await client.call.reviewPhoto({ photoId: first.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'No' }, { caller: admin });
    await client.call.deletePhoto({ photoId: first.id }, { caller: admin });
    const { photos: listed, total } = await client.call.listPhotos({ list: ReviewList.REVIEW_LIST_PENDING, page: { page: 1, limit: 20 } }, { caller: admin });
    expect({ ids: listed.map((p) => p.id), total }).toEqual({ ids: [second.id], total: 1 });

    const { actions } = await client.call.listActions({ photoIds: [], limit: 0 }, { caller: admin });
    expect(actions.map((a) => [a.action, a.photoId, a.detail])).toEqual([
      ['delete', first.id, undefined],
      ['reject', first.id, 'No'],
    ]);
    expect((await client.call.listActions({ photoIds: [], limit: 1, photoId: second.id }, { caller: admin })).actions).toEqual([]);
    expect((await failure(client.call.listActions({ photoIds: [], limit: 500 }, { caller: admin }))).code).toBe(status.INVALID_ARGUMENT);
  });
});

describe('the decisions consumer', () => {
  const actionId = '5f1a2b3c-4d5e-4f60-8a7b-8c9d0e1f2a3b';
  const changedAt = new Date('2026-05-06T07:08:09.010Z');
  const statusChanged = () =>
    makeEvent(
      'photo.photo.status_changed',
      PhotoStatusChanged,
      {
        photo: { photoId: 42, userId: 'owner-9', filename: 'p.jpg', status: PhotoStatus.PHOTO_STATUS_REJECTED, version: 2 },
        previousStatus: PhotoStatus.PHOTO_STATUS_PENDING,
        changedBy: 'admin-7',
        rejectionReason: 'Not a crack',
        changedAt,
        actionId,
      },
      { source: 'photo' },
    );

  it('records a decision whose direct write never happened, once, however often it is delivered', async () => {
    const event = statusChanged();
    await bus.publish(event);
    await bus.publish(event); // redelivery: processed_events drops it
    await bus.publish(statusChanged()); // another event about the same decision: the action id keeps one entry
    expect(await entries()).toEqual([
      { id: actionId, actorId: 'admin-7', action: 'reject', photoId: 42n, reason: 'Not a crack', photoOwnerId: 'owner-9', photoUploadedAt: null, createdAt: changedAt },
    ]);
    expect((await processedEvents(db.prisma, 'moderation')).filter((row) => row.consumer === 'moderation.decisions')).toHaveLength(2);
  });

  it("ignores an owner's own deletion", async () => {
    await bus.publish(makeEvent('photo.photo.deleted', PhotoDeleted, { photo: { photoId: 43, userId: 'owner-9', filename: 'q.jpg', status: PhotoStatus.PHOTO_STATUS_APPROVED, version: 3 }, deletedBy: 'owner-9' }, { source: 'photo' }));
    expect(await entries()).toEqual([]);
    expect(await processedEvents(db.prisma, 'moderation')).toHaveLength(1);
  });
});

describe('the cleanups over gRPC', () => {
  const HOUR = 60 * 60 * 1000;
  const ago = (ms: number) => new Date(Date.now() - ms);

  it('remove only old files that nothing uses, for admins only, and are audited', async () => {
    storage.put('local:photos/used-original.jpg', ago(2 * HOUR));
    storage.put('local:photos/orphan-original.jpg', ago(2 * HOUR));
    storage.put('s3:avatars/in-use.webp', ago(2 * HOUR));
    storage.put('s3:avatars/old.webp', ago(2 * HOUR));
    storage.put('local:photos/fresh-display.webp', ago(1000));
    photos.referencedKeys.add('local:photos/used-original.jpg');
    auth.avatarsInUse.add('in-use.webp');

    for (const caller of [member, { ...admin, hasAcceptedTerms: false }]) {
      expect((await failure(client.call.cleanup({ kind: CleanupKind.CLEANUP_KIND_ORPHANED }, { caller }))).code).toBe(status.PERMISSION_DENIED);
    }
    expect((await failure(client.call.cleanup({ kind: CleanupKind.CLEANUP_KIND_ORPHANED }, { caller: null }))).code).toBe(status.UNAUTHENTICATED);
    expect(storage.keys()).toHaveLength(5);

    const answer = await client.call.cleanup({ kind: CleanupKind.CLEANUP_KIND_ORPHANED }, { caller: admin, deadlineMs: 60_000 });
    expect(answer).toEqual({ removed: 2, failed: 0, message: 'Removed 2 orphaned files (local: 1, s3: 1); checked 4 files older than an hour.' });
    expect(storage.keys()).toEqual(['local:photos/fresh-display.webp', 'local:photos/used-original.jpg', 's3:avatars/in-use.webp']);
    expect((await entries()).map((e) => [e.action, e.actorId, e.photoId, e.reason])).toEqual([['cleanup_orphaned', 'admin-1', null, answer.message]]);
  });

  it('delete rejected photos through the photo service with an audit entry each', async () => {
    const rejected = photos.seed(photoMessage(nextPhotoId++, 'owner-1', { status: PhotoStatus.PHOTO_STATUS_REJECTED }));
    const kept = pendingPhoto();
    // Earlier tests left rejected photos in the stub too.
    const rejectedIds = (await photos.listPhotosForReview({ list: ReviewList.REVIEW_LIST_REJECTED, page: { page: 1, limit: 100 } }, { caller: admin })).photos.map((p) => p.id);
    expect(rejectedIds).toContain(rejected.id);
    const answer = await client.call.cleanup({ kind: CleanupKind.CLEANUP_KIND_REJECTED }, { caller: admin, deadlineMs: 60_000 });
    expect(answer).toMatchObject({ removed: rejectedIds.length, failed: 0 });
    expect(photos.get(rejected.id)).toBeUndefined();
    expect(photos.get(kept.id)).toBeDefined();
    const logged = await entries();
    expect(logged.filter((e) => e.action === 'delete').map((e) => Number(e.photoId)).sort()).toEqual(rejectedIds.sort());
    expect(logged.filter((e) => e.action === 'cleanup_rejected').map((e) => e.reason)).toEqual([answer.message]);
  });

  it('answers the listed photos with their audit entries in one call', async () => {
    const photo = pendingPhoto();
    const other = pendingPhoto();
    await client.call.reviewPhoto({ photoId: other.id, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'Blurry' }, { caller: admin });
    const { photos: listed, actions } = await client.call.listPhotos({ list: ReviewList.REVIEW_LIST_ALL, page: { page: 1, limit: 100 } }, { caller: admin });
    expect(listed.map((p) => p.id)).toEqual(expect.arrayContaining([photo.id, other.id]));
    expect(actions.map((a) => [a.photoId, a.action, a.detail])).toEqual([[other.id, 'reject', 'Blurry']]);
  });
});
