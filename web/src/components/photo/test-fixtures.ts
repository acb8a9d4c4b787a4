/** Gallery data for tests (imported by tests only). */
import type { GalleryPage, GalleryPhoto } from '@/lib/types';

export function makeGalleryPhoto(overrides: Partial<GalleryPhoto> = {}): GalleryPhoto {
  const id = overrides.id ?? 7;
  return {
    id,
    userId: 'u2',
    filename: `crack-${id}.jpg`,
    description: `Crack number ${id}`,
    altText: null,
    status: 'approved',
    averageRating: 4,
    voteCount: 2,
    createdAt: '2025-07-28T10:00:00.000Z',
    approvedAt: '2025-07-28T11:00:00.000Z',
    width: 1200,
    height: 900,
    imageVersion: 1,
    thumbnailUrl: `/api/uploads/crack-${id}.jpg?size=thumb&v=1`,
    mediumUrl: `/api/uploads/crack-${id}.jpg?size=medium&v=1`,
    displayUrl: `/api/uploads/crack-${id}.jpg?size=display&v=1`,
    user: {
      id: 'u2',
      firstName: 'Ada',
      lastName: 'L',
      displayName: null,
      profileImageUrl: null,
      customProfileImage: null,
    },
    ...overrides,
  };
}

export function makeGalleryPage(photos: GalleryPhoto[], total = photos.length, limit = 9): GalleryPage {
  return { photos, total, totalPages: Math.ceil(total / limit) };
}
