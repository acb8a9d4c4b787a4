import type { DecodedEvent, Logger } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { ActionKind, ModerationActionRepository, NewModerationAction } from '../moderation-action.repository.js';
import type { ReportRepository, ReportStatus } from '../report.repository.js';
import { isUuid } from '../uuid.js';

/** The photo service's events that may report a moderation decision. */
export const PHOTO_DECISION_EVENTS = ['photo.photo.status_changed', 'photo.photo.deleted'] as const;
export type PhotoDecisionEvent = DecodedEvent<(typeof PHOTO_DECISION_EVENTS)[number]>;

/** Who closed the reports of a photo deleted before any decision on them. */
export const DELETED_BEFORE_DECISION = 'deleted';

/** What a status change was: a photo leaving the gallery (approved, or approved before and held) is a removal. */
function statusAction(event: DecodedEvent<'photo.photo.status_changed'>): ActionKind | null {
  const { photo, previousStatus } = event.payload;
  if (photo?.status === PhotoStatus.PHOTO_STATUS_APPROVED) return previousStatus === PhotoStatus.PHOTO_STATUS_REJECTED ? 'reinstate' : 'approve';
  if (photo?.status === PhotoStatus.PHOTO_STATUS_PENDING) {
    return previousStatus === PhotoStatus.PHOTO_STATUS_APPROVED ? 'hold' : previousStatus === PhotoStatus.PHOTO_STATUS_REJECTED ? 'resubmit' : null;
  }
  if (photo?.status !== PhotoStatus.PHOTO_STATUS_REJECTED) return null;
  return previousStatus === PhotoStatus.PHOTO_STATUS_APPROVED || photo.approvedAt ? 'remove' : 'reject';
}

/**
 * The audit entry an event reports, or null when it reports none. A decision made through this service carries
 * the action id it was given; a change without one (an owner deleting their own photo) is not a moderation action.
 * The entry's time is when the photo service made the change.
 */
export function decisionFromEvent(event: PhotoDecisionEvent): NewModerationAction | null {
  if (event.type === 'photo.photo.status_changed') {
    const { actionId, photo, changedBy, rejectionReason, changedAt, note } = event.payload;
    if (!actionId) return null;
    const action = statusAction(event);
    if (!action) return null;
    return {
      id: actionId,
      actorId: changedBy ?? 'unknown',
      action,
      photoId: photo?.photoId ?? null,
      reason: action === 'reject' || action === 'remove' ? (rejectionReason ?? null) : action === 'resubmit' || action === 'reinstate' ? (note ?? null) : null,
      photoOwnerId: photo?.userId || null,
      photoUploadedAt: photo?.createdAt ?? null,
      createdAt: changedAt ?? event.occurredAt ?? new Date(),
    };
  }
  const { actionId, photo, deletedBy, deletedAt } = event.payload;
  if (!actionId) return null;
  return {
    id: actionId,
    actorId: deletedBy ?? 'unknown',
    action: 'delete',
    photoId: photo?.photoId ?? null,
    reason: null,
    photoOwnerId: photo?.userId || null,
    createdAt: deletedAt ?? event.occurredAt ?? new Date(),
  };
}

/**
 * How an event closes the photo's open reports: an approval dismisses them, a rejection or a deletion (by anyone,
 * the owner included) removes them; a hold leaves them open for the admin.
 */
export function reportOutcomeOfEvent(event: PhotoDecisionEvent): { photoId: number; status: Exclude<ReportStatus, 'open'>; decidedBy: string; at: Date } | null {
  const photoId = event.payload.photo?.photoId;
  if (!photoId) return null;
  if (event.type === 'photo.photo.deleted') {
    return { photoId, status: 'removed', decidedBy: event.payload.deletedBy ?? DELETED_BEFORE_DECISION, at: event.payload.deletedAt ?? event.occurredAt ?? new Date() };
  }
  const action = statusAction(event);
  if (action !== 'approve' && action !== 'reject' && action !== 'remove') return null;
  return { photoId, status: action === 'approve' ? 'dismissed' : 'removed', decidedBy: event.payload.changedBy ?? 'unknown', at: event.payload.changedAt ?? event.occurredAt ?? new Date() };
}

/**
 * Records the decisions the photo service's events report, and closes the reports they decide, in the transaction that
 * marks the event handled. The entry's id is the action id, so an entry the service already wrote after its photo
 * call, or a second event about the same decision, leaves one entry; reports already closed stay as they were.
 */
export function photoDecisionsConsumer<Tx>(
  repositoriesIn: (tx: Tx) => { actions: ModerationActionRepository; reports: ReportRepository },
  logger: Pick<Logger, 'warn'>,
) {
  return async (event: PhotoDecisionEvent, tx: Tx): Promise<void> => {
    const { actions, reports } = repositoriesIn(tx);
    const outcome = reportOutcomeOfEvent(event);
    if (outcome) await reports.closeOpen(outcome.photoId, outcome.status, outcome.decidedBy, outcome.at);
    const action = decisionFromEvent(event);
    if (!action) return;
    if (!isUuid(action.id)) {
      // Redelivering cannot make it valid; the entry could not be stored under this id.
      logger.warn({ eventId: event.id, type: event.type, actionId: action.id }, 'ignored a photo event whose action id is not a UUID');
      return;
    }
    await actions.record(action);
  };
}
