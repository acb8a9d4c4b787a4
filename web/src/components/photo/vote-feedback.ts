import { toast } from '@/lib/toast';
import { handleUnauthorizedError } from '@/lib/unauthorized';

/** SPEC §5 and §8: the toasts of voting. */
export function toastVoteSubmitted(): void {
  toast({ title: 'Vote Submitted', description: 'Your vote has been recorded successfully.' });
}

/** A 401 signs the user in again; any other failure asks to try again. */
export function toastVoteFailed(error: unknown): void {
  if (handleUnauthorizedError(error)) return;
  toast({ variant: 'destructive', title: 'Error', description: 'Failed to submit vote. Please try again.' });
}

export function toastSignInRequired(): void {
  toast({ variant: 'destructive', title: 'Sign In Required', description: 'Please sign in to vote on photos.' });
}
