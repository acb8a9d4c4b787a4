import { describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { createRecordingLogger } from '@snapcracks/kit/testing';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, type PhotoState } from '@snapcracks/proto/events/v1';
import { InMemoryModerationActionRepository } from '../testing/in-memory-moderation-action.repository.js';
import type { ReportRepository } from '../report.repository.js';
import { PHOTO_DECISION_EVENTS, decisionFromEvent, photoDecisionsConsumer, reportOutcomeOfEvent } from './photo-decisions.consumer.js';

/** The reports' one call a consumer makes, recorded. */
function recordingReports() {
  const closed: Parameters<ReportRepository['closeOpen']>[] = [];
  const reports = { closeOpen: async (...args: Parameters<ReportRepository['closeOpen']>) => (closed.push(args), 0) } as unknown as ReportRepository;
  return { reports, closed };
}

const ACTION_ID = '11111111-1111-4111-8111-111111111111';
const at = new Date('2026-02-03T04:05:06.007Z');
const uploadedAt = new Date('2026-02-01T00:00:00.000Z');
const state = (status: PhotoStatus, more: Partial<PhotoState> = {}): PhotoState => ({ photoId: 7, userId: 'owner-1', filename: 'p.jpg', status, version: 2, createdAt: uploadedAt, ...more });
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
  it('an approval, at the time the photo service made it, with when the photo was uploaded', () => {
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_APPROVED, { rejectionReason: 'stale' }))).toEqual({
      id: ACTION_ID, actorId: 'admin-1', action: 'approve', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: at, photoUploadedAt: uploadedAt,
    });
  });

  it('a rejected photo approved after all is a reinstatement, with the reason the admin gave', () => {
    const event = statusChanged(PhotoStatus.PHOTO_STATUS_APPROVED, { previousStatus: PhotoStatus.PHOTO_STATUS_REJECTED, note: 'The plate is unreadable' });
    expect(decisionFromEvent(event)).toMatchObject({ action: 'reinstate', reason: 'The plate is unreadable' });
    expect(reportOutcomeOfEvent(event)).toBeNull();
  });

  it('a rejection with its reason', () => {
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' }))).toMatchObject({ action: 'reject', reason: 'Blurry' });
  });

  it("an admin's deletion", () => {
    expect(decisionFromEvent(deleted())).toEqual({ id: ACTION_ID, actorId: 'admin-1', action: 'delete', photoId: 7, reason: null, photoOwnerId: 'owner-1', createdAt: at });
  });

  it('a hold by the reports, and a removal of an approved or held photo with its reason', () => {
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_PENDING, { previousStatus: PhotoStatus.PHOTO_STATUS_APPROVED, changedBy: 'reports' }))).toMatchObject({ action: 'hold', actorId: 'reports' });
    expect(decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { previousStatus: PhotoStatus.PHOTO_STATUS_APPROVED, rejectionReason: 'Not a crack' }))).toMatchObject({ action: 'remove', reason: 'Not a crack' });
    const held = decodeEventOfType(
      makeEvent('photo.photo.status_changed', PhotoStatusChanged, { photo: state(PhotoStatus.PHOTO_STATUS_REJECTED, { approvedAt: at }), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedBy: 'admin-1', changedAt: at, actionId: ACTION_ID, rejectionReason: 'Faces' }, { source: 'photo' }),
      PHOTO_DECISION_EVENTS,
    );
    expect(decisionFromEvent(held)).toMatchObject({ action: 'remove', reason: 'Faces' });
  });

  it("an owner's resubmission, with their note, from the photo service's own action id", () => {
    expect(
      decisionFromEvent(statusChanged(PhotoStatus.PHOTO_STATUS_PENDING, { previousStatus: PhotoStatus.PHOTO_STATUS_REJECTED, changedBy: 'owner-1', note: 'Bars added' })),
    ).toMatchObject({ action: 'resubmit', actorId: 'owner-1', reason: 'Bars added' });
    expect(reportOutcomeOfEvent(statusChanged(PhotoStatus.PHOTO_STATUS_PENDING, { previousStatus: PhotoStatus.PHOTO_STATUS_REJECTED }))).toBeNull();
  });

  it('closes reports: an approval dismisses them, a rejection or any deletion removes them, a hold leaves them open', () => {
    expect(reportOutcomeOfEvent(statusChanged(PhotoStatus.PHOTO_STATUS_APPROVED))).toEqual({ photoId: 7, status: 'dismissed', decidedBy: 'admin-1', at });
    expect(reportOutcomeOfEvent(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' }))).toEqual({ photoId: 7, status: 'removed', decidedBy: 'admin-1', at });
    expect(reportOutcomeOfEvent(deleted({ actionId: undefined, deletedBy: 'owner-1' }))).toEqual({ photoId: 7, status: 'removed', decidedBy: 'owner-1', at });
    expect(reportOutcomeOfEvent(statusChanged(PhotoStatus.PHOTO_STATUS_PENDING, { previousStatus: PhotoStatus.PHOTO_STATUS_APPROVED }))).toBeNull();
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
    const { reports, closed } = recordingReports();
    const handle = photoDecisionsConsumer(() => ({ actions: repo, reports }), createLogger('test', 'silent'));
    const event = statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' });
    await handle(event, undefined);
    await handle(event, undefined);
    // A second event about the same decision (another event id) changes nothing either.
    await handle(statusChanged(PhotoStatus.PHOTO_STATUS_REJECTED, { rejectionReason: 'Blurry' }), undefined);
    expect(repo.all()).toEqual([{ id: ACTION_ID, actorId: 'admin-1', action: 'reject', photoId: 7, reason: 'Blurry', photoOwnerId: 'owner-1', createdAt: at }]);
    expect(closed).toEqual(Array(3).fill([7, 'removed', 'admin-1', at]));
  });

  it('ignores owner deletions and, with a warning, an action id that is not a UUID', async () => {
    const repo = new InMemoryModerationActionRepository();
    const { logger, records } = createRecordingLogger('warn');
    const handle = photoDecisionsConsumer(() => ({ actions: repo, reports: recordingReports().reports }), logger);
    await handle(deleted({ actionId: undefined }), undefined);
    await handle(deleted({ actionId: 'not-a-uuid' }), undefined);
    expect(repo.all()).toEqual([]);
    expect(records).toEqual([expect.objectContaining({ actionId: 'not-a-uuid' })]);
  });

  it('lets a failed write throw, so the bus delivers the event again', async () => {
    const repo = new InMemoryModerationActionRepository();
    repo.failNextRecord(new Error('database down'));
    const handle = photoDecisionsConsumer(() => ({ actions: repo, reports: recordingReports().reports }), createLogger('test', 'silent'));
    await expect(handle(deleted(), undefined)).rejects.toThrow('database down');
    await handle(deleted(), undefined);
    expect(repo.all()).toHaveLength(1);
  });
});
