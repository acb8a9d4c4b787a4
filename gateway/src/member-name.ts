import type { User } from '@snapcracks/proto/auth/v1';

/** How admin figures name a member: their display name, else their full name, else their email; null when the account is gone. */
export function memberName(user: User | null): string | null {
  if (!user) return null;
  const fullName = [user.firstName?.trim(), user.lastName?.trim()].filter(Boolean).join(' ');
  return user.displayName?.trim() || fullName || user.email || null;
}
