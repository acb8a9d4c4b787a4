import type { DecodedEvent } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import type { VotablePhotoStore } from '../vote.repository.js';

/** The photo events that say which photos may be voted on, and whose they are. */
export const VOTABLE_PHOTO_EVENTS = ['photo.photo.uploaded', 'photo.photo.status_changed', 'photo.photo.deleted'] as const;
export type VotablePhotoEvent = DecodedEvent<(typeof VOTABLE_PHOTO_EVENTS)[number]>;

/**
 * Keeps the newest state of each photo (PhotoState.version orders them, whatever order events arrive in). A deleted
 * photo becomes a tombstone and its votes and totals go; no event is written for that: the photo's own
 * photo.photo.deleted already tells every other reader.
 */
export async function applyVotablePhotoEvent(event: VotablePhotoEvent, store: VotablePhotoStore): Promise<void> {
  const state = event.payload.photo;
  if (!state?.photoId || !state.userId) return;
  const deleted = event.type === 'photo.photo.deleted';
  const saved = await store.saveIfNewer({
    photoId: state.photoId,
    ownerId: state.userId,
    approved: !deleted && state.status === PhotoStatus.PHOTO_STATUS_APPROVED,
    deleted,
    version: state.version,
  });
  if (saved && deleted) await store.forgetVotes(state.photoId);
}
