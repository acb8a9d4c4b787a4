/** What happens when the session ends under a signed-in user (SPEC §8 "Unauthorized error"). */
import { WEB } from '@snapcracks/http-contract';
import { currentPath, loginHref, redirectTo } from './browser';
import { toast } from './toast';

const UNAUTHORIZED_REDIRECT_DELAY_MS = WEB.unauthorizedRedirectMs;

/**
 * Tells the user their session is gone, then sends them to sign in again after a short pause to read it, coming back
 * to the page they were on. Failed calls come here through the query client (lib/query-client.ts).
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
