import { useEffect } from 'react';
import { handleUnauthorizedError } from '@/lib/unauthorized';

/** Sends the user to sign in again when a query of a signed-in screen fails with 401. */
export function useUnauthorizedRedirect(error: unknown): void {
  useEffect(() => {
    if (error) handleUnauthorizedError(error);
  }, [error]);
}
