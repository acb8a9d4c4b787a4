import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { isUnauthorizedError } from './api';
import { toast } from './toast';
import { notifyUnauthorizedAndRedirect } from './unauthorized';

/** What a failed mutation's toast says (SPEC §8); the toast is always the destructive kind. */
export interface ErrorToastContent {
  title: string;
  description: string;
}

/** A mutation's failure toast, or a function of the error giving it (undefined: no toast for that error). */
export type ErrorToast = ErrorToastContent | ((error: Error) => ErrorToastContent | undefined);

/** What queries and mutations tell the caches' error handler, as their `meta`. */
export interface ApiCallMeta extends Record<string, unknown> {
  /**
   * False where a 401 is an answer rather than the end of a session: the current-user call, whose failure
   * means signed out (SPEC §4), and screens open to signed-out visitors that report failures themselves.
   */
  redirectOnUnauthorized?: boolean;
  /** Shown when the mutation fails for any reason but an ended session. */
  errorToast?: ErrorToast;
}

declare module '@tanstack/react-query' {
  interface Register {
    queryMeta: ApiCallMeta;
    mutationMeta: ApiCallMeta;
  }
}

/** A 401 from the API client, also when a step of a larger operation wrapped it (see UserPhotoEditError). */
function endsSession(error: Error): boolean {
  return isUnauthorizedError(error) || isUnauthorizedError(error.cause);
}

/**
 * The one place failures of the server's calls are answered: a 401 means the session has ended, so the user is told
 * and sent to sign in again (SPEC §8); any other failure of a mutation shows its own toast. A failed query's screen
 * shows the failure where the data would be.
 */
function onApiError(error: Error, meta: ApiCallMeta | undefined): void {
  if (endsSession(error) && meta?.redirectOnUnauthorized !== false) {
    notifyUnauthorizedAndRedirect();
    return;
  }
  const content = typeof meta?.errorToast === 'function' ? meta.errorToast(error) : meta?.errorToast;
  if (content) toast({ variant: 'destructive', ...content });
}

/**
 * Data defaults of SPEC §9: data never goes stale, no refetch on window focus, no polling and no retries.
 * Screens that need fresher data (admin polling) opt in per query.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    queryCache: new QueryCache({ onError: (error, query) => onApiError(error, query.meta) }),
    mutationCache: new MutationCache({ onError: (error, _variables, _context, mutation) => onApiError(error, mutation.meta) }),
    defaultOptions: {
      queries: {
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        refetchInterval: false,
        retry: false,
      },
      mutations: {
        retry: false,
      },
    },
  });
}
