/** What happens when the session ends under a signed-in user (SPEC §8 "Unauthorized error"). */
import { isUnauthorizedError } from './api';
import { currentPath, loginHref, redirectTo } from './browser';
import { toast } from './toast';

export const UNAUTHORIZED_REDIRECT_DELAY_MS = 500;

/**
 * Tells the user their session is gone, then sends them to sign in again after a short pause to read it, coming back
 * to the page they were on.
 */
export function notifyUnauthorizedAndRedirect(): void {
  const href = loginHref(currentPath());
  toast({
    variant: 'destructive',
    title: 'Unauthorized',
    description: 'You are logged out. Logging in again...',
  });
  setTimeout(() => redirectTo(href), UNAUTHORIZED_REDIRECT_DELAY_MS);
}

/** Handles `error` if it is a 401 from the API client; returns whether it did. */
export function handleUnauthorizedError(error: unknown): boolean {
  if (!isUnauthorizedError(error)) return false;
  notifyUnauthorizedAndRedirect();
  return true;
}
