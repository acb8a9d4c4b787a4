import type { DecodedEvent } from '@snapcracks/kit';
import type { UploaderStore } from './uploaders.store.js';

/** The auth events that keep the uploaders projection (names shown next to photos). */
export const UPLOADER_EVENTS = ['auth.user.updated', 'auth.user.deleted'] as const;
export type UploaderEvent = DecodedEvent<(typeof UPLOADER_EVENTS)[number]>;

/**
 * Sets an uploader's names from a user event, unless the stored ones are newer (events may arrive late or out of
 * order; the user's updated_at orders them), and forgets the user when the account is deleted.
 */
export async function applyUploaderEvent(event: UploaderEvent, store: UploaderStore): Promise<void> {
  if (event.type === 'auth.user.deleted') {
    await store.delete(event.payload.userId);
    return;
  }
  const { user, updatedAt } = event.payload;
  if (!user?.id) return;
  await store.saveIfNewer({
    id: user.id,
    firstName: user.firstName ?? null,
    lastName: user.lastName ?? null,
    displayName: user.displayName ?? null,
    profileImageUrl: user.profileImageUrl ?? null,
    customProfileImage: user.customProfileImage ?? null,
    // Events written before auth carried updated_at are ordered by when they happened.
    updatedAt: updatedAt ?? event.occurredAt ?? new Date(0),
  });
}
