import type { User } from '@/lib/types';

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
