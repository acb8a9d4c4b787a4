import { ApiError, getServerMessage } from '@/lib/api';
import { toast } from '@/lib/toast';
import { handleUnauthorizedError } from '@/lib/unauthorized';
import { UserPhotoEditError } from '@/queries/user-photos';

/** SPEC §8 toasts for a failed edit of one's own photo; a 401 signs the user in again instead. */
export function toastEditFailure(error: unknown): void {
  const step = error instanceof UserPhotoEditError ? error.step : 'description';
  const cause = error instanceof UserPhotoEditError ? error.error : error;
  if (handleUnauthorizedError(cause)) return;
  if (step === 'privacyBars') {
    // No answer at all (offline, connection dropped): nothing from the server to show.
    if (!(cause instanceof ApiError)) {
      toast({ variant: 'destructive', title: 'Error', description: 'Failed to save privacy bars. Please try again.' });
      return;
    }
    toast({
      variant: 'destructive',
      title: 'Failed to Save Privacy Bars',
      description: getServerMessage(cause, 'Please try again.'),
    });
    return;
  }
  toast({ variant: 'destructive', title: 'Error', description: 'Failed to update photo. Please try again.' });
}

export function toastDeleteFailure(error: unknown): void {
  if (handleUnauthorizedError(error)) return;
  toast({ variant: 'destructive', title: 'Error', description: 'Failed to delete photo. Please try again.' });
}
