import type { DecodedEvent, Logger } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { ModerationActionRepository, NewModerationAction } from '../moderation-action.repository.js';

/** The photo service's events that may report a moderation decision. */
export const PHOTO_DECISION_EVENTS = ['photo.photo.status_changed', 'photo.photo.deleted'] as const;
export type PhotoDecisionEvent = DecodedEvent<(typeof PHOTO_DECISION_EVENTS)[number]>;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The audit entry an event reports, or null when it reports none. A decision made through this service carries
 * the action id it was given; a change without one (an owner deleting their own photo) is not a moderation action.
 * The entry's time is when the photo service made the change.
 */
export function decisionFromEvent(event: PhotoDecisionEvent): NewModerationAction | null {
  if (event.type === 'photo.photo.status_changed') {
    const { actionId, photo, changedBy, rejectionReason, changedAt } = event.payload;
    if (!actionId) return null;
    const action = photo?.status === PhotoStatus.PHOTO_STATUS_APPROVED ? 'approve' : photo?.status === PhotoStatus.PHOTO_STATUS_REJECTED ? 'reject' : null;
    if (!action) return null;
    return {
      id: actionId,
      actorId: changedBy ?? 'unknown',
      action,
      photoId: photo?.photoId ?? null,
      reason: action === 'reject' ? (rejectionReason ?? null) : null,
      photoOwnerId: photo?.userId || null,
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
 * Records the decisions the photo service's events report, in the transaction that marks the event handled.
 * The entry's id is the action id, so an entry the service already wrote after its photo call, or a second
 * event about the same decision, leaves one entry.
 */
export function photoDecisionsConsumer<Tx>(repositoryIn: (tx: Tx) => ModerationActionRepository, logger: Pick<Logger, 'warn'>) {
  return async (event: PhotoDecisionEvent, tx: Tx): Promise<void> => {
    const action = decisionFromEvent(event);
    if (!action) return;
    if (!UUID.test(action.id)) {
      // Redelivering cannot make it valid; the entry could not be stored under this id.
      logger.warn({ eventId: event.id, type: event.type, actionId: action.id }, 'ignored a photo event whose action id is not a UUID');
      return;
    }
    await repositoryIn(tx).record(action);
  };
}
