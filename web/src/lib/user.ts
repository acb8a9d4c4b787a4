/** The display-name and avatar rules of SPEC §3, shared by every screen that shows a user. */
import type { User } from './types';

interface NameFields {
  displayName?: string | null;
  firstName?: string | null;
  lastName?: string | null;
}

function clean(value: string | null | undefined): string {
  return value?.trim() ?? '';
}

/**
 * displayName if present, otherwise first and last name joined, otherwise `fallback`
 * ("Anonymous User" by default; the home hero greets with "Snapper").
 */
export function getDisplayName(user: NameFields | null | undefined, fallback = 'Anonymous User'): string {
  if (!user) return fallback;
  const displayName = clean(user.displayName);
  if (displayName) return displayName;
  const fullName = [clean(user.firstName), clean(user.lastName)].filter(Boolean).join(' ');
  return fullName || fallback;
}

/** The uploader's name on a photo card: an anonymous user is shown as `User {id}`. */
export function getUploaderName(user: NameFields | null | undefined, userId: string): string {
  const name = getDisplayName(user, '');
  return name || `User ${userId}`;
}

/** The uploaded avatar (served from /uploads), else the identity provider's picture, else none. */
export function getAvatarUrl(user: Pick<User, 'customProfileImage' | 'profileImageUrl'>): string | null {
  const custom = clean(user.customProfileImage);
  if (custom) return `/uploads/${encodeURIComponent(custom)}`;
  return clean(user.profileImageUrl) || null;
}

/** The letter of the generated avatar: from displayName, then firstName, then email, else "U". */
export function getAvatarInitial(
  user: { displayName?: string | null; firstName?: string | null; email?: string | null } | null | undefined,
): string {
  const source = [user?.displayName, user?.firstName, user?.email].map(clean).find(Boolean);
  return source ? source.charAt(0).toUpperCase() : 'U';
}
