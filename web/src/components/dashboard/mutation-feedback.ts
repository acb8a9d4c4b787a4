import { ApiError, getServerMessage } from '@/lib/api';
import type { ErrorToastContent } from '@/lib/query-client';
import { UserPhotoEditError } from '@/queries/user-photos';

/** SPEC §8's toast for a failed edit of one's own photo, by the step that failed. */
export function editFailureToast(error: Error): ErrorToastContent {
  if (!(error instanceof UserPhotoEditError) || error.step === 'description') {
    return { title: 'Error', description: 'Failed to update photo. Please try again.' };
  }
  // No answer at all (offline, connection dropped): nothing from the server to show.
  if (!(error.cause instanceof ApiError)) return { title: 'Error', description: 'Failed to save privacy bars. Please try again.' };
  return { title: 'Failed to Save Privacy Bars', description: getServerMessage(error.cause, 'Please try again.') };
}

export const DELETE_FAILED: ErrorToastContent = { title: 'Error', description: 'Failed to delete photo. Please try again.' };
