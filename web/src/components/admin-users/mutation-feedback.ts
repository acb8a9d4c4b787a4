import { getServerMessage } from '@/lib/api';
import type { ErrorToastContent } from '@/lib/query-client';
import { toast } from '@/lib/toast';

/** SPEC §8 "Failed to update user account", with the server's reason (e.g. no locking oneself out) when it gave one. */
export function updateFailureToast(error: Error): ErrorToastContent {
  return { title: 'Failed to update user account', description: getServerMessage(error, 'Please try again.') };
}

/** SPEC §8 "Failed to delete user account", with the server's reason (e.g. admin accounts cannot be deleted). */
export function deleteFailureToast(error: Error): ErrorToastContent {
  return { title: 'Failed to delete user account', description: getServerMessage(error, 'Please try again.') };
}

export function toastSuccess(description: string): void {
  toast({ title: 'Success', description });
}
