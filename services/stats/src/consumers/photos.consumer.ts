import type { DecodedEvent } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { PhotoState } from '@snapcracks/proto/events/v1';
import type { ProjectionStore } from '../projection.store.js';
import { applyPhotoChange, type PhotoChange, type PhotoStateFacts, type PhotoStatus as Status } from '../stats.projection.js';

/** The photo events that keep each photo's state in the projection. */
export const PHOTO_EVENTS = ['photo.photo.uploaded', 'photo.photo.status_changed', 'photo.photo.updated', 'photo.photo.deleted'] as const;
export type PhotoEvent = DecodedEvent<(typeof PHOTO_EVENTS)[number]>;

const STATUSES: Partial<Record<PhotoStatus, Status>> = {
  [PhotoStatus.PHOTO_STATUS_PENDING]: 'pending',
  [PhotoStatus.PHOTO_STATUS_APPROVED]: 'approved',
  [PhotoStatus.PHOTO_STATUS_REJECTED]: 'rejected',
};

/**
 * Merges the photo's state into its row (newest version wins; a deletion leaves a tombstone), which moves the
 * community's figures by the row's change, in the consumer's transaction. An event older than the stored state, or
 * about a deleted photo, changes nothing.
 */
export async function applyPhotoEvent(event: PhotoEvent, store: ProjectionStore): Promise<void> {
  const change = photoChangeOf(event);
  if (!change) return;
  const photoId = event.payload.photo!.photoId;
  const before = await store.lockPhoto(photoId);
  const after = applyPhotoChange(before, change);
  if (after) await store.savePhoto(after);
}

function photoChangeOf(event: PhotoEvent): PhotoChange | null {
  const state = factsOf(event.payload.photo);
  if (!state) return null;
  switch (event.type) {
    case 'photo.photo.deleted':
      return { kind: 'deleted', state };
    case 'photo.photo.status_changed': {
      const { changedAt } = event.payload;
      return changedAt ? { kind: 'reviewed', state, reviewedAt: changedAt } : { kind: 'state', state };
    }
    default:
      return { kind: 'state', state };
  }
}

/** The state an event carries, or null when it cannot be placed (no photo, owner, status or version). */
export function factsOf(photo: PhotoState | undefined): PhotoStateFacts | null {
  const status = photo && STATUSES[photo.status];
  if (!photo?.photoId || !photo.userId || !status || !(photo.version > 0)) return null;
  return {
    ownerId: photo.userId,
    status,
    filename: photo.filename,
    description: photo.description ?? null,
    createdAt: photo.createdAt ?? null,
    approvedAt: photo.approvedAt ?? null,
    version: photo.version,
  };
}
