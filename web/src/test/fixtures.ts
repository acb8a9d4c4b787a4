import type { AdminPhoto, DeskItem, MemberNotification, NotificationPage, ReasonTemplate, User } from '@/lib/types';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'user-1',
    email: 'sam@example.com',
    firstName: 'Sam',
    lastName: 'Rivera',
    profileImageUrl: null,
    displayName: 'Sam the Snapper',
    customProfileImage: null,
    isAdmin: false,
    isEnabled: true,
    hasAcceptedTerms: true,
    termsAcceptedAt: '2025-07-28T10:00:00.000Z',
    createdAt: '2025-07-28T10:00:00.000Z',
    updatedAt: '2025-07-28T10:00:00.000Z',
    ...overrides,
  };
}

export const EMPTY_GALLERY = { photos: [], total: 0, totalPages: 0 };

/** A photo as the admin's lists and the review desk show it: pending, 800×600, uploaded by Alice Example. */
export function makeAdminPhoto(overrides: Partial<AdminPhoto> = {}): AdminPhoto {
  const id = overrides.id ?? 1;
  return {
    id,
    userId: `user-${id}`,
    filename: `${id}`.padStart(32, '0') + '.webp',
    originalName: `IMG_${id}.jpg`,
    mimeType: 'image/jpeg',
    size: 1234,
    storageType: 'local',
    description: `Crack ${id}`,
    altText: null,
    status: 'pending',
    underReview: false,
    resubmitUntil: null,
    resubmission: null,
    finalRejection: false,
    approvedBy: null,
    rejectionReason: null,
    privacyBars: [],
    averageRating: 0,
    voteCount: 0,
    createdAt: '2025-07-30T10:00:00.000Z',
    updatedAt: '2025-07-30T10:00:00.000Z',
    approvedAt: null,
    width: 800,
    height: 600,
    imageVersion: 1,
    thumbnailUrl: `/api/uploads/${id}.webp?size=thumb&v=1`,
    mediumUrl: `/api/uploads/${id}.webp?size=medium&v=1`,
    displayUrl: `/api/uploads/${id}.webp?size=display&v=1`,
    originalUrl: `/api/uploads/${id}.webp?size=original&v=1`,
    user: { id: `user-${id}`, firstName: 'Alice', lastName: 'Example', displayName: null, profileImageUrl: null, customProfileImage: null },
    reviewMarks: null,
    auditLog: [],
    ...overrides,
  };
}

/** A review desk item: a new upload of `photo`, claimed for two minutes. */
export function makeDeskItem(photo: AdminPhoto, overrides: Partial<DeskItem> = {}): DeskItem {
  return {
    photo,
    kind: 'new',
    waitingSince: '2025-07-30T10:00:00.000Z',
    reporters: 0,
    reports: [],
    claim: { photoId: photo.id, expiresAt: '2025-07-30T10:02:00.000Z' },
    ...overrides,
  };
}

export function makeReasonTemplate(overrides: Partial<ReasonTemplate> = {}): ReasonTemplate {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    label: 'Not a crack',
    text: 'We could not find a crack in this photo.',
    createdAt: '2025-07-30T10:00:00.000Z',
    updatedAt: '2025-07-30T10:00:00.000Z',
    ...overrides,
  };
}

/** A member's notification: unread news, five minutes old, that a photo was approved. */
export function makeNotification(overrides: Partial<MemberNotification> = {}): MemberNotification {
  const id = overrides.id ?? 1;
  return {
    id,
    kind: 'photo_approved',
    photoId: 10 + id,
    title: `Notice ${id}`,
    body: `Body of notice ${id}.`,
    read: false,
    createdAt: new Date(Date.now() - 5 * 60_000).toISOString(),
    ...overrides,
  };
}

/** One page of notifications, as GET /api/notifications answers. */
export function makeNotificationPage(notifications: MemberNotification[], more: Partial<NotificationPage> = {}): NotificationPage {
  return {
    notifications,
    total: notifications.length,
    totalPages: notifications.length > 0 ? 1 : 0,
    unread: notifications.filter((item) => !item.read).length,
    ...more,
  };
}
