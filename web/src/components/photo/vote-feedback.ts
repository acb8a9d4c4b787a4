import type { ErrorToastContent } from '@/lib/query-client';
import { toast } from '@/lib/toast';

/** SPEC §5 and §8: the toasts of voting. */
export function toastVoteSubmitted(): void {
  toast({ title: 'Vote Submitted', description: 'Your vote has been recorded successfully.' });
}

export const VOTE_FAILED: ErrorToastContent = { title: 'Error', description: 'Failed to submit vote. Please try again.' };

export function toastSignInRequired(): void {
  toast({ variant: 'destructive', title: 'Sign In Required', description: 'Please sign in to vote on photos.' });
}
