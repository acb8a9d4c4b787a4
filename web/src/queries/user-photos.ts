import { partialMatchKey, useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { PhotoUpdateInput, PrivacyBar } from '@/lib/types';

export const userPhotosQueryKey = ['user', 'photos'] as const;

/** The signed-in user's own photos, at every status, for the dashboard's My Uploads list. */
export function useUserPhotosQuery() {
  return useQuery({ queryKey: userPhotosQueryKey, queryFn: api.user.photos });
}

/**
 * The queries whose data depends on one of the caller's photos, by the start of their keys: their own list and
 * stats and reports, the admin review lists, reported photos and counters (SPEC §4 Refresh: pending, all,
 * approved-today, rejected-today), the public gallery and the photo previews and votes.
 */
const DEPENDENT_KEY_PREFIXES: QueryKey[] = [
  ['user', 'photos'],
  ['user', 'stats'],
  ['user', 'reports'],
  ['user', 'upload-allowance'],
  ['admin', 'photos'],
  ['admin', 'stats'],
  ['admin', 'reports'],
  ['gallery'],
  ['photos'],
];

function dependsOnUserPhotos(queryKey: QueryKey): boolean {
  return DEPENDENT_KEY_PREFIXES.some((prefix) => partialMatchKey(queryKey, prefix));
}

/** Marks everything that shows the caller's photos as stale and refetches what is on screen. */
export function refreshAfterUserPhotoChange(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ predicate: (query) => dependsOnUserPhotos(query.queryKey) });
}

export interface UserPhotoEdit {
  id: number;
  /**
   * The PATCH body: the description (always, it is required) and, only when it changed, the alt text (null clears it);
   * left out when neither changed.
   */
  details?: PhotoUpdateInput;
  /** The new privacy bars; left out when unchanged. */
  bars?: PrivacyBar[];
}

/** Which part of an edit failed, so the caller can say which (SPEC §8 has one message for each); `cause` is the API client's error. */
export class UserPhotoEditError extends Error {
  constructor(
    readonly step: 'description' | 'privacyBars',
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
    this.name = 'UserPhotoEditError';
  }
}

/**
 * Saves an edit of one's own photo: the description and alt text (PATCH), then the privacy bars (POST). The lists
 * are refreshed afterwards whether or not both parts went through, as one of them may have.
 */
export function useEditUserPhotoMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: async ({ id, details, bars }: UserPhotoEdit) => {
      if (details !== undefined) {
        try {
          await api.photos.update(id, details);
        } catch (error) {
          throw new UserPhotoEditError('description', error);
        }
      }
      if (bars !== undefined) {
        try {
          await api.photos.setPrivacyBars(id, bars);
        } catch (error) {
          throw new UserPhotoEditError('privacyBars', error);
        }
      }
    },
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
  });
}

/**
 * Sends one's rejected photo back to review, then refreshes every list that could show it. `onSuccess` belongs to the
 * mutation, not to `mutate`: the refreshed card no longer offers the resubmission, so the dialog that sent it is gone.
 */
export function useResubmitPhotoMutation(errorToast: ErrorToast, onSuccess: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: ({ id, note }: { id: number; note: string }) => api.photos.resubmit(id, note),
    onSuccess,
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
  });
}

/** Deletes one's own photo permanently, then refreshes every list that could show it. */
export function useDeleteUserPhotoMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: (id: number) => api.photos.remove(id),
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
  });
}
