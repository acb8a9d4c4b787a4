import { WEB } from '@snapcracks/http-contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { usePollingFallback } from '@/hooks/use-live-connection';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { AdminPhotoList } from '@/lib/types';
import { refreshAfterUserPhotoChange } from '@/queries/user-photos';

/** SPEC §9: the admin stats and the pending list are polled every 5 s (while the live connection is down). */
export const ADMIN_POLL_MS = WEB.adminPollMs;
const ADMIN_PAGE_SIZE = 12;

export const adminStatsQueryKey = ['admin', 'stats'] as const;
/** Under ['admin', 'photos'], so the dashboard's edits refresh every list (SPEC §4 Refresh, see user-photos.ts). */
export const adminPhotosQueryKey = (list: AdminPhotoList, page: number) => ['admin', 'photos', list, { page }] as const;

/** The four counters, polled every 5 s while the live connection is down (its `admin` events refresh them otherwise). */
export function useAdminStatsQuery() {
  const refetchInterval = usePollingFallback(ADMIN_POLL_MS);
  return useQuery({ queryKey: adminStatsQueryKey, queryFn: api.admin.stats, refetchInterval });
}

/**
 * One page of an admin list. Only the list on screen is asked for: the pending list is polled every 5 s while the
 * live connection is down, the others are fetched when their filter is chosen (and refreshed after every change made
 * here, and on the stream's `admin` events).
 */
export function useAdminPhotosQuery(list: AdminPhotoList, page: number) {
  const pendingInterval = usePollingFallback(ADMIN_POLL_MS);
  return useQuery({
    queryKey: adminPhotosQueryKey(list, page),
    queryFn: () => api.admin.photos(list, page, ADMIN_PAGE_SIZE),
    refetchInterval: list === 'pending' ? pendingInterval : false,
  });
}

/** Deletes a photo at any status, then refreshes the same. */
export function useAdminDeletePhotoMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.admin.removePhoto,
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
    meta: { errorToast },
  });
}

/** Runs a file cleanup; the rejected one deletes photos, so the lists and counters are refreshed after either. */
export function useCleanupMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.admin.cleanup,
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
    meta: { errorToast },
  });
}
