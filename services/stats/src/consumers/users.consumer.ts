import type { DecodedEvent } from '@snapcracks/kit';
import type { ProjectionStore } from '../projection.store.js';

/** The account events stats keeps: deletions (per-user figures and rankings leave deleted accounts out). */
export const USER_EVENTS = ['auth.user.deleted'] as const;
export type UserEvent = DecodedEvent<(typeof USER_EVENTS)[number]>;

/**
 * Marks the owner deleted. The community's figures do not move: the photo service keeps a deleted account's photos
 * (shown without a name), and tells of each photo it deletes with photo.photo.deleted. A deletion is final (account
 * ids are never reused), so order does not matter.
 */
export async function applyUserEvent(event: UserEvent, store: ProjectionStore): Promise<void> {
  if (!event.payload.userId) return;
  await store.markOwnerDeleted(event.payload.userId);
}
