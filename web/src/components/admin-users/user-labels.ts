import { formatDate } from '@/lib/format';
import { getDisplayName } from '@/lib/user';
import type { AdminUser } from '@/lib/types';

/** The name an admin recognises a user by (SPEC §3 display-name rule), else their email, else "User {id}". */
export function userLabel(user: AdminUser): string {
  return getDisplayName(user, '') || user.email || `User ${user.id.slice(0, 8)}`;
}

/** When the account was made, or "Unknown". */
export function formatJoined(timestamp: string | null): string {
  return formatDate(timestamp) ?? 'Unknown';
}
