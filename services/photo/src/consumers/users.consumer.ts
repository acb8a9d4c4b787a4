import type { DecodedEvent } from '@snapcracks/kit';
import type { PhotoOwnerStore } from './photo-owners.store.js';
import type { PhotoService } from '../photo.service.js';

/** The account events that take a user's photos away. */
export const USER_EVENTS = ['auth.user.deleted'] as const;
export type UserEvent = DecodedEvent<(typeof USER_EVENTS)[number]>;

/**
 * A deleted account's photos go: every row with its photo.photo.deleted (votes, stats, moderation and the gateway's
 * public pages follow them as for any deletion), then the blobs. A deletion is final and account ids are never reused,
 * so order does not matter, and handled again it finds nothing left to delete.
 */
export async function applyUserEvent(event: UserEvent, photos: Pick<PhotoService, 'deleteAllOf'>, owners: PhotoOwnerStore): Promise<void> {
  const { userId } = event.payload;
  if (!userId) return;
  await photos.deleteAllOf(owners, userId);
}
