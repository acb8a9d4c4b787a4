import { getDisplayName } from '@/lib/user';
import type { AdminUser } from '@/queries/admin-users';

/** The name an admin recognises a user by (SPEC §3 display-name rule), else their email, else "User {id}". */
export function userLabel(user: AdminUser): string {
  return getDisplayName(user, '') || user.email || `User ${user.id.slice(0, 8)}`;
}

/** "Jul 28, 2025" for a valid timestamp, otherwise "Unknown". */
export function formatJoined(timestamp: string | null): string {
  if (!timestamp) return 'Unknown';
  const date = new Date(timestamp);
  if (Number.isNaN(date.getTime())) return 'Unknown';
  return date.toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });
}
