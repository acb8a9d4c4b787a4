import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';

export const currentUserQueryKey = ['auth', 'user'] as const;

/**
 * The signed-in user. Any failure (401 signed out, 403 disabled, network) means signed out: no retry, and a 401 here
 * is the answer for a visitor, not a session that ended (SPEC §4).
 */
export const currentUserQuery = queryOptions({
  queryKey: currentUserQueryKey,
  queryFn: api.auth.currentUser,
  retry: false,
  meta: { redirectOnUnauthorized: false },
});

export function useCurrentUserQuery() {
  return useQuery({
    ...currentUserQuery,
    // Without this, every component that starts watching the session would ask again after a 401.
    retryOnMount: false,
  });
}

/**
 * Accepts the terms, then refetches the user so the full set of routes opens up before `onAccepted` runs.
 * The callbacks are given to useMutation (not to mutate) on purpose: the route tree changes once the user
 * is refetched, and mutate()'s own callbacks are skipped if the calling component has unmounted by then.
 */
export function useAcceptTermsMutation({ onAccepted, errorToast }: { onAccepted: () => void; errorToast: ErrorToast }) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.auth.acceptTerms,
    onSuccess: async () => {
      await queryClient.refetchQueries({ queryKey: currentUserQueryKey });
      onAccepted();
    },
    meta: { errorToast },
  });
}
