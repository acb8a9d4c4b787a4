import { Metadata, status } from '@grpc/grpc-js';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, mapError, type AdminRecord, type CallContext, type Caller, type Handlers } from '@snapcracks/kit';
import { createRecordingLogger, type LogRecord } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { ReviewList } from '@snapcracks/proto/photo/v1';
import type { ModerationServiceServer } from '@snapcracks/proto/moderation/v1';
import { ModerationService, REASON_REQUIRED } from './moderation.service.js';
import { moderationHandlers, type DeskServices } from './grpc/moderation.server.js';
import { PHOTO_DECISION_EVENTS, photoDecisionsConsumer } from './consumers/photo-decisions.consumer.js';
import { InMemoryModerationActionRepository } from './testing/in-memory-moderation-action.repository.js';
import { FakePhotoService, ONLY_PENDING, photoMessage } from './testing/fake-photo-service.js';
import { FakeAuthService, FakeStorageService } from './testing/fake-storage-service.js';
import { CleanupService } from './cleanup.service.js';
import { ReportService } from './report.service.js';
import type { ReportRepository } from './report.repository.js';

/** These tests decide no reports: every photo has none open. */
const noReports = { closeOpen: async () => 0, openReporters: async () => 0 } as unknown as ReportRepository;

/** The desk's handlers are tested against the database (services/all-in-one/test/review-desk.int.test.ts). */
const NO_DESK = {} as DeskServices;

const ACTION_ID = '11111111-1111-4111-8111-111111111111';
const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member-1', isAdmin: false, hasAcceptedTerms: true };
const silent = createLogger('test', 'silent');

let actions: InMemoryModerationActionRepository;
let photos: FakePhotoService;
let logged: LogRecord[];
let handlers: Handlers<ModerationServiceServer>;
/** The acting admins' accounts as the auth service holds them now; an admin claim needs one that is still an admin's. */
let accounts: Map<string, AdminRecord>;

beforeEach(() => {
  actions = new InMemoryModerationActionRepository();
  photos = new FakePhotoService();
  const recording = createRecordingLogger('warn');
  logged = recording.records;
  let n = 0;
  const ids = [ACTION_ID, '22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
  const service = new ModerationService(actions, photos, recording.logger, () => ids[n++]!);
  accounts = new Map([[admin.userId, { isAdmin: true, isEnabled: true, hasAcceptedTerms: true }]]);
  const adminRecord = async (caller: Caller) => accounts.get(caller.userId) ?? null;
  const reports = new ReportService(noReports, actions, photos, { holdThreshold: 3 }, recording.logger);
  handlers = moderationHandlers(service, new CleanupService(actions, service, photos, new FakeStorageService(), new FakeAuthService(), recording.logger), reports, adminRecord, NO_DESK);
});

const ctx = (caller: Caller | null): CallContext => ({ caller, service: 'gateway', metadata: new Metadata(), logger: silent });
const pending = (id = 7, owner = 'owner-1') => photos.seed(photoMessage(id, owner));
const approve = (photoId: number, caller: Caller | null = admin) => handlers.reviewPhoto({ photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED }, ctx(caller));
const reject = (photoId: number, rejectionReason: string | undefined, caller: Caller | null = admin) =>
  handlers.reviewPhoto({ photoId, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason }, ctx(caller));
/** What the gRPC server answers the caller for a handler's error. */
const answered = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  return mapError(error, silent, '/test');
};
/** Delivers the photo service's events to the consumer, as the bus would (the unit test has no transaction). */
const consumer = () => photoDecisionsConsumer(() => ({ actions, reports: noReports }), silent);
const deliver = async (events = photos.events) => {
  for (const event of events) await consumer()(decodeEventOfType(event, PHOTO_DECISION_EVENTS), undefined);
};

describe('who may moderate', () => {
  it.each([
    ['nobody signed in', null, status.UNAUTHENTICATED],
    ['a member', member, status.PERMISSION_DENIED],
    ['an admin who has not accepted the terms', { ...admin, hasAcceptedTerms: false }, status.PERMISSION_DENIED],
  ])('refuses %s before calling the photo service', async (_who, caller, code) => {
    pending();
    for (const call of [
      approve(7, caller),
      reject(7, 'Blurry', caller),
      handlers.deletePhoto({ photoId: 7 }, ctx(caller)),
      handlers.listPhotos({ list: ReviewList.REVIEW_LIST_PENDING }, ctx(caller)),
      handlers.listActions({ photoIds: [], limit: 0 }, ctx(caller)),
      handlers.cleanup({ kind: 1 }, ctx(caller)),
      handlers.cleanup({ kind: 2 }, ctx(caller)),
    ]) {
      expect((await answered(call)).code).toBe(code);
    }
    expect(photos.calls).toEqual([]);
    expect(actions.all()).toEqual([]);
  });

  it.each([
    ['demoted', { isAdmin: false, isEnabled: true, hasAcceptedTerms: true }],
    ['disabled', { isAdmin: true, isEnabled: false, hasAcceptedTerms: true }],
    ['deleted', undefined],
  ])('refuses changes by an admin claim whose account was %s since, before calling the photo service', async (_change, account) => {
    pending();
    if (account) accounts.set(admin.userId, account);
    else accounts.delete(admin.userId);
    for (const call of [approve(7), reject(7, 'Blurry'), handlers.deletePhoto({ photoId: 7 }, ctx(admin)), handlers.cleanup({ kind: 1 }, ctx(admin))]) {
      expect(await answered(call)).toMatchObject({ code: status.PERMISSION_DENIED, details: 'Administrator access required' });
    }
    expect(photos.calls).toEqual([]);
    expect(actions.all()).toEqual([]);
  });
});

describe('reviewing a photo', () => {
  it('approves as the admin, with a new action id, records one entry and answers the photo', async () => {
    pending(7, 'owner-1');
    const { photo } = await approve(7);
    expect(photo).toMatchObject({ id: 7, status: PhotoStatus.PHOTO_STATUS_APPROVED, approvedBy: 'admin-1' });
    expect(photos.calls).toEqual([
      { method: 'setPhotoStatus', request: { id: 7, status: PhotoStatus.PHOTO_STATUS_APPROVED, rejectionReason: undefined, actionId: ACTION_ID }, caller: admin },
    ]);
    expect(actions.all()).toEqual([
      { id: ACTION_ID, actorId: 'admin-1', action: 'approve', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: expect.any(Date) },
    ]);
  });

  it('ignores a reason given with an approval', async () => {
    pending();
    await handlers.reviewPhoto({ photoId: 7, status: PhotoStatus.PHOTO_STATUS_APPROVED, rejectionReason: 'whatever' }, ctx(admin));
    expect(photos.calls[0]!.request).toMatchObject({ rejectionReason: undefined });
    expect(actions.all()[0]!.reason).toBeNull();
  });

  it('rejects with the trimmed reason and records it', async () => {
    pending();
    const { photo } = await reject(7, '  Not a crack  ');
    expect(photo).toMatchObject({ status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'Not a crack' });
    expect(photos.calls[0]!.request).toEqual({ id: 7, status: PhotoStatus.PHOTO_STATUS_REJECTED, rejectionReason: 'Not a crack', actionId: ACTION_ID });
    expect(actions.all()).toEqual([expect.objectContaining({ id: ACTION_ID, action: 'reject', reason: 'Not a crack', photoId: 7 })]);
  });

  it.each([undefined, '', '   ', '\n\t '])('refuses a rejection with reason %j, with the exact message and no call', async (reason) => {
    pending();
    expect(await answered(reject(7, reason))).toEqual({ code: status.INVALID_ARGUMENT, details: REASON_REQUIRED });
    expect(REASON_REQUIRED).toBe('Please provide a reason for rejection.');
    expect(photos.calls).toEqual([]);
    expect(actions.all()).toEqual([]);
  });

  it.each([PhotoStatus.PHOTO_STATUS_UNSPECIFIED, PhotoStatus.PHOTO_STATUS_PENDING])('refuses status %s without a call', async (target) => {
    pending();
    expect(await answered(handlers.reviewPhoto({ photoId: 7, status: target }, ctx(admin)))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: 'status must be "approved" or "rejected"',
    });
    expect(photos.calls).toEqual([]);
  });

  it("passes the photo service's refusals through unchanged and records nothing", async () => {
    expect(await answered(approve(404))).toEqual({ code: status.NOT_FOUND, details: 'Photo not found' });
    pending();
    await approve(7);
    expect(await answered(reject(7, 'Too late'))).toEqual({ code: status.FAILED_PRECONDITION, details: ONLY_PENDING });
    expect(photos.calls).toHaveLength(3);
    expect(actions.all().map((a) => a.action)).toEqual(['approve']);
  });

  it('answers the decision even when the audit write fails, logging it for the event to repair', async () => {
    pending();
    actions.failNextRecord();
    const { photo } = await approve(7);
    expect(photo?.status).toBe(PhotoStatus.PHOTO_STATUS_APPROVED);
    expect(actions.all()).toEqual([]);
    expect(logged).toEqual([expect.objectContaining({ actionId: ACTION_ID, msg: expect.stringMatching(/photo event will record it/) })]);
  });
});

describe('deleting a photo', () => {
  it('deletes as the admin with an action id and records one entry', async () => {
    photos.seed(photoMessage(7, 'owner-1', { status: PhotoStatus.PHOTO_STATUS_APPROVED }));
    expect(await handlers.deletePhoto({ photoId: 7 }, ctx(admin))).toEqual({});
    expect(photos.calls).toEqual([{ method: 'deletePhoto', request: { id: 7, actionId: ACTION_ID }, caller: admin }]);
    expect(actions.all()).toEqual([
      { id: ACTION_ID, actorId: 'admin-1', action: 'delete', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: expect.any(Date) },
    ]);
  });

  it("passes NOT_FOUND through and records nothing", async () => {
    expect(await answered(handlers.deletePhoto({ photoId: 7 }, ctx(admin)))).toEqual({ code: status.NOT_FOUND, details: 'Photo not found' });
    expect(actions.all()).toEqual([]);
  });
});

describe('the photo events record what the direct write missed', () => {
  it('writes the entry from the status event when the direct write was lost', async () => {
    pending(7, 'owner-1');
    actions.failNextRecord();
    await reject(7, ' Blurry ');
    expect(actions.all()).toEqual([]);
    await deliver();
    expect(actions.all()).toEqual([
      { id: ACTION_ID, actorId: 'admin-1', action: 'reject', photoId: 7, reason: 'Blurry', photoOwnerId: 'owner-1', createdAt: expect.any(Date) },
    ]);
  });

  it('writes the entry from the deletion event when the direct write was lost', async () => {
    pending(7, 'owner-1');
    actions.failNextRecord();
    await handlers.deletePhoto({ photoId: 7 }, ctx(admin));
    await deliver();
    expect(actions.all()).toEqual([expect.objectContaining({ id: ACTION_ID, actorId: 'admin-1', action: 'delete', photoId: 7, photoOwnerId: 'owner-1' })]);
  });

  it('keeps one entry when the direct write and the event both happen, or the event comes twice', async () => {
    pending(7);
    pending(8);
    await approve(7);
    await reject(8, 'No');
    await deliver();
    await deliver();
    expect(actions.all().map((a) => [a.id, a.action]).sort()).toEqual([
      [ACTION_ID, 'approve'],
      ['22222222-2222-4222-8222-222222222222', 'reject'],
    ]);
  });

  it('keeps one entry when the event is handled before the direct write', async () => {
    pending(7);
    const slow = new InMemoryModerationActionRepository();
    // The photo service commits and publishes, the consumer records, then the direct write arrives.
    const service = new ModerationService(slow, photos, silent, () => ACTION_ID);
    const original = slow.record.bind(slow);
    const direct: boolean[] = [];
    slow.record = async (action) => {
      const viaEvent = { record: original, list: slow.list.bind(slow) };
      await photoDecisionsConsumer(() => ({ actions: viaEvent, reports: noReports }), silent)(decodeEventOfType(photos.events[0]!, PHOTO_DECISION_EVENTS), undefined);
      direct.push(await original(action));
      return direct.at(-1)!;
    };
    await service.reviewPhoto(admin, { photoId: 7, status: PhotoStatus.PHOTO_STATUS_APPROVED });
    expect(direct).toEqual([false]);
    expect(slow.all()).toEqual([expect.objectContaining({ id: ACTION_ID, action: 'approve', actorId: 'admin-1' })]);
  });
});

describe('listing', () => {
  it('lists the newest entries first, 50 by default, and one photo on request', async () => {
    for (let n = 1; n <= 55; n++) await actions.record({ id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`, actorId: 'a', action: 'approve', photoId: n % 2, reason: null, photoOwnerId: null });
    const all = (await handlers.listActions({ photoIds: [], limit: 0 }, ctx(admin))).actions;
    expect(all).toHaveLength(50);
    expect(all[0]).toEqual({ id: '00000000-0000-4000-8000-000000000055', actorId: 'a', action: 'approve', photoId: 1, detail: undefined, createdAt: expect.any(Date) });
    const some = (await handlers.listActions({ photoIds: [], limit: 3, photoId: 0 }, ctx(admin))).actions;
    expect(some.map((a) => a.id)).toEqual(['00000000-0000-4000-8000-000000000054', '00000000-0000-4000-8000-000000000052', '00000000-0000-4000-8000-000000000050']);
    expect((await handlers.listActions({ photoIds: [], limit: 200 }, ctx(admin))).actions).toHaveLength(55);
  });

  it('maps the reason to the message detail', async () => {
    pending();
    await reject(7, 'Blurry');
    expect((await handlers.listActions({ photoIds: [], limit: 1 }, ctx(admin))).actions[0]).toMatchObject({ action: 'reject', detail: 'Blurry', photoId: 7 });
  });

  it.each([-1, 201, 1000])('refuses limit %d', async (limit) => {
    expect(await answered(handlers.listActions({ photoIds: [], limit }, ctx(admin)))).toEqual({ code: status.INVALID_ARGUMENT, details: 'Limit must be between 1 and 200' });
  });

  it("passes the admin's photo lists through to the photo service as the admin, with the listed photos' audit entries", async () => {
    pending(7);
    pending(9);
    photos.seed(photoMessage(8, 'o', { status: PhotoStatus.PHOTO_STATUS_APPROVED }));
    await actions.record({ id: '00000000-0000-4000-8000-000000000001', actorId: 'a', action: 'approve', photoId: 8, reason: null, photoOwnerId: 'o' });
    await actions.record({ id: '00000000-0000-4000-8000-000000000002', actorId: 'a', action: 'reject', photoId: 9, reason: 'Old decision', photoOwnerId: 'o' });
    const page = { page: 1, limit: 10 };
    const answer = await handlers.listPhotos({ list: ReviewList.REVIEW_LIST_PENDING, page }, ctx(admin));
    expect(answer).toEqual({
      photos: [expect.objectContaining({ id: 7 }), expect.objectContaining({ id: 9 })],
      total: 2,
      totalPages: 1,
      actions: [expect.objectContaining({ photoId: 9, action: 'reject', detail: 'Old decision' })],
    });
    expect(photos.calls).toEqual([{ method: 'listPhotosForReview', request: { list: ReviewList.REVIEW_LIST_PENDING, page }, caller: admin }]);
  });

  it('lists the entries about several photos at once, at most 100 ids', async () => {
    for (const [n, photoId] of [[1, 1], [2, 2], [3, 3]] as const) {
      await actions.record({ id: `00000000-0000-4000-8000-00000000000${n}`, actorId: 'a', action: 'approve', photoId, reason: null, photoOwnerId: null });
    }
    expect((await handlers.listActions({ photoIds: [1, 3], limit: 0 }, ctx(admin))).actions.map((a) => a.photoId).sort()).toEqual([1, 3]);
    expect((await answered(handlers.listActions({ photoIds: Array.from({ length: 101 }, (_, i) => i), limit: 0 }, ctx(admin)))).code).toBe(status.INVALID_ARGUMENT);
  });
});

describe('cleanups', () => {
  it('refuses an unknown kind', async () => {
    expect(await answered(handlers.cleanup({ kind: 0 }, ctx(admin)))).toEqual({ code: status.INVALID_ARGUMENT, details: 'Unknown cleanup' });
    expect(actions.all()).toEqual([]);
  });
});
