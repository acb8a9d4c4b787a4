import { makeEvent, type Envelope } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, PhotoUpdated, PhotoUploaded, UserDeleted, VoteCast, type PhotoState } from '@snapcracks/proto/events/v1';

/** Builders of the events the stats consumers read, as their producers write them. */

export interface StateOf {
  photoId: number;
  ownerId: string;
  status: PhotoStatus;
  version: number;
  createdAt?: Date;
  approvedAt?: Date;
  description?: string;
}

export const photoState = (s: StateOf): PhotoState => ({
  photoId: s.photoId,
  userId: s.ownerId,
  filename: `${s.photoId}.webp`,
  status: s.status,
  createdAt: s.createdAt ?? new Date(Date.UTC(2030, 0, 1)),
  approvedAt: s.approvedAt,
  version: s.version,
  description: s.description,
});

export const uploaded = (s: Omit<StateOf, 'status' | 'version'> & { version?: number }): Envelope =>
  makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: photoState({ ...s, status: PhotoStatus.PHOTO_STATUS_PENDING, version: s.version ?? 1 }) }, { source: 'photo' });

export const reviewed = (s: StateOf, changedAt: Date): Envelope =>
  makeEvent(
    'photo.photo.status_changed',
    PhotoStatusChanged,
    {
      photo: photoState({ ...s, approvedAt: s.status === PhotoStatus.PHOTO_STATUS_APPROVED ? (s.approvedAt ?? changedAt) : undefined }),
      previousStatus: PhotoStatus.PHOTO_STATUS_PENDING,
      changedAt,
      actionId: `action-${s.photoId}`,
    },
    { source: 'photo' },
  );

export const edited = (s: StateOf): Envelope => makeEvent('photo.photo.updated', PhotoUpdated, { photo: photoState(s) }, { source: 'photo' });

export const deleted = (s: StateOf): Envelope =>
  makeEvent('photo.photo.deleted', PhotoDeleted, { photo: photoState(s), deletedAt: new Date() }, { source: 'photo' });

export const cast = (
  photoId: number,
  totals: { voteCount: number; ratingSum: number; version: number },
  vote: { userId: string; rating: number; previousRating?: number | undefined } = { userId: 'voter', rating: 5 },
): Envelope =>
  makeEvent('vote.vote.cast', VoteCast, { photoId, ...vote, ...totals }, { source: 'vote' });

export const userDeleted = (userId: string): Envelope => makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' });
