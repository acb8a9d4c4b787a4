import { useEffect } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { ApiError } from '@/lib/api';
import { currentUserQueryKey } from '@/queries/auth';

/** A 403 on an admin list means this account is no longer an admin: ask for the session again, so the page says Access Denied. */
export function useRecheckAdminOnRefusal(error: unknown): void {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (error instanceof ApiError && error.status === 403) void queryClient.invalidateQueries({ queryKey: currentUserQueryKey });
  }, [error, queryClient]);
}
