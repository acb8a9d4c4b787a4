import { describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, type PhotoState } from '@snapcracks/proto/events/v1';
import { InMemoryModerationActionRepository } from '../testing/in-memory-moderation-action.repository.js';
import { PHOTO_DECISION_EVENTS, decisionFromEvent, photoDecisionsConsumer } from './photo-decisions.consumer.js';

const ACTION_ID = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-02-03T04:05:06.007Z');
const state = (status: PhotoStatus): PhotoState => ({ photoId: 7, userId: 'owner-1', filename: 'p.jpg', status, version: 2 });
const statusChanged = (status: PhotoStatus, more: Partial<PhotoStatusChanged> = {}) =>
  decodeEventOfType(
    makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo: state(status), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedBy: 'admin-1', changedAt: at, actionId: ACTION_ID, ...more }, { source: 'photo' }),
    PHOTO_DECISION_EVENTS,
  );
const deleted = (more: Partial<PhotoDeleted> = {}) =>
  decodeEventOfType(
    makeEvent('photo.photo.deleted', PhotoDeleted, { photo: state(PhotoStatus.PHOTO_STATUS_APPROVED), deletedBy: 'admin-1', actionId: ACTION_ID, deletedAt: at, ...more }, { source: 'photo' }),
    PHOTO_DECISION_EVENTS,
  );

describe('which photo events are moderation actions', () => {
  it('an approval, at the time the photo service made it', () => {
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_APPROVED, { rejectionReason: 'stale' }))).toEqual({
      id: ACTION_ID, actorId: 'admin-1', action: 'approve', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: at,
    });
  });

  it('a rejection with its reason', () => {
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' }))).toMatchObject({ action: 'reject', reason: 'Blurry' });
  });

  it("an admin's deletion", () => {
    expect(decisionFromEvent(deleted())).toEqual({ id: ACTION_ID, actorId: 'admin-1', action: 'delete', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: at });
  });

  it("not an owner's own deletion, nor a status change without an action id", () => {
    expect(decisionFromEvent(deleted({ actionId: undefined, deletedBy: 'owner-1' }))).toBeNull();
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_APPROVED, { actionId: '' }))).toBeNull();
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_PENDING))).toBeNull();
  });
});

describe('the decisions consumer', () => {
  it('records each decision once, however often it is delivered', async () => {
    const repo = new InMemoryModerationActionRepository();
    const handle = photoDecisionsConsumer(() => repo, createLogger('test', 'silent'));
    const event = statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' });
    await handle(event, undefined);
    await handle(event, undefined);
    // A second event about the same decision (another event id) changes nothing either.
    await handle(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' }), undefined);
    expect(repo.all()).toEqual([{ id: ACTION_ID, actorId: 'admin-1', action: 'reject', photoId: 7, reason: 'Blurry', photoOwnerId: 'owner-1', createdAt: at }]);
  });

  it('ignores owner deletions and, with a warning, an action id that is not a UUID', async () => {
    const repo = new InMemoryModerationActionRepository();
    const { logger, records } = createRecordingLogger('warn');
    const handle = photoDecisionsConsumer(() => repo, logger);
    await handle(deleted({ actionId: undefined }), undefined);
    await handle(deleted({ actionId: 'not-a-uuid' }), undefined);
    expect(repo.all()).toEqual([]);
    expect(records).toEqual([expect.objectContaining({ actionId: 'not-a-uuid' })]);
  });

  it('lets a failed write throw, so the bus delivers the event again', async () => {
    const repo = new InMemoryModerationActionRepository();
    repo.failNextRecord(new Error('database down'));
    const handle = photoDecisionsConsumer(() => repo, createLogger('test', 'silent'));
    await expect(handle(deleted(), undefined)).rejects.toThrow('database down');
    await handle(deleted(), undefined);
    expect(repo.all()).toHaveLength(1);
  });
});
