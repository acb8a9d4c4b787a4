import { getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { handleUnauthorizedError } from '@/lib/unauthorized';

/** SPEC §8 "Failed to update user account", with the server's reason (e.g. no locking oneself out) when it gave one. */
export function toastUpdateFailure(error: unknown): void {
  if (handleUnauthorizedError(error)) return;
  toast({ variant: 'destructive', title: 'Failed to update user account', description: getServerMessage(error, 'Please try again.') });
}

/** SPEC §8 "Failed to delete user account", with the server's reason (e.g. admin accounts cannot be deleted). */
export function toastDeleteFailure(error: unknown): void {
  if (handleUnauthorizedError(error)) return;
  toast({ variant: 'destructive', title: 'Failed to delete user account', description: getServerMessage(error, 'Please try again.') });
}

export function toastSuccess(description: string): void {
  toast({ title: 'Success', description });
}
