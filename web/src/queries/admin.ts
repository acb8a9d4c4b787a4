import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import type { PhotoStatus, PhotoUploader, UserPhoto } from '@/lib/types';
import { refreshAfterUserPhotoChange } from '@/queries/user-photos';

/** The admin's photo lists (SPEC §7 Admin), named as the gateway names them. */
export const ADMIN_PHOTO_LISTS = ['pending', 'approved-today', 'rejected-today', 'all'] as const;
export type AdminPhotoList = (typeof ADMIN_PHOTO_LISTS)[number];

/** SPEC §9: the admin stats and the pending list are polled every 5 s. */
export const ADMIN_POLL_MS = 5000;
export const ADMIN_PAGE_SIZE = 12;

/** One entry of the moderation audit log about a photo. */
export interface AdminAuditEntry {
  id: string;
  /** approve | reject | delete */
  action: string;
  actorId: string;
  reason: string | null;
  createdAt: string | null;
}

/** What the server noticed about a pending repeat upload; nothing is decided from it. */
export interface ReviewMarks {
  /** An earlier rejected photo whose picture looks the same (perceptual hash within 6 bits). */
  similarRejected: {
    photoId: number;
    rejectionReason: string;
    /** Differing bits of 64: 0 is the same picture. */
    distance: number;
    sameUploader: boolean;
    rejectedAt: string | null;
  } | null;
  /** The uploader's own earlier photo with exactly the same file. */
  duplicateOf: { photoId: number; status: PhotoStatus } | null;
}

/** A photo as the admin's review list shows it. */
export interface AdminPhoto extends UserPhoto {
  userId: string;
  mimeType: string;
  approvedBy: string | null;
  user: PhotoUploader | null;
  reviewMarks: ReviewMarks | null;
  auditLog: AdminAuditEntry[];
}

export interface AdminPhotoPage {
  photos: AdminPhoto[];
  total: number;
  totalPages: number;
}

/** SPEC §3 Admin stats; "today" is the UTC day. */
export interface AdminStats {
  pendingReviews: number;
  approvedToday: number;
  rejectedToday: number;
  totalPhotos: number;
}

export type CleanupKind = 'orphaned' | 'rejected';

export interface CleanupResult {
  message: string;
  removed: number;
  failed: number;
}

export type ReviewDecision = { id: number; status: 'approved' } | { id: number; status: 'rejected'; rejectionReason: string };

export const adminStatsQueryKey = ['/api/admin/stats'] as const;
/** Starts with the list's URL, so the dashboard's edits refresh it too (SPEC §4 Refresh, see user-photos.ts). */
export const adminPhotosQueryKey = (list: AdminPhotoList, page: number) => [`/api/admin/photos/${list}`, { page }] as const;

/**
 * PATCH /api/admin/photos/{id}/status with `keepalive`, so a decision sent as the page is hidden or unloaded still
 * reaches the server (the review list holds decisions for their Undo window, see components/admin/review-decisions.ts).
 */
function sendReview({ id, ...decision }: ReviewDecision): Promise<UserPhoto> {
  return apiJson<UserPhoto>('PATCH', `/api/admin/photos/${id}/status`, decision, { keepalive: true });
}

export const adminApi = {
  stats: () => apiJson<AdminStats>('GET', '/api/admin/stats'),
  photos: (list: AdminPhotoList, page: number, limit = ADMIN_PAGE_SIZE) =>
    apiJson<AdminPhotoPage>('GET', `/api/admin/photos/${list}?page=${page}&limit=${limit}`),
  review: sendReview,
  remove: (id: number) => apiJson<void>('DELETE', `/api/admin/photos/${id}`),
  cleanup: (kind: CleanupKind) => apiJson<CleanupResult>('POST', `/api/admin/cleanup/${kind}`),
};

/** The four counters, polled every 5 s. */
export function useAdminStatsQuery() {
  return useQuery({ queryKey: adminStatsQueryKey, queryFn: adminApi.stats, refetchInterval: ADMIN_POLL_MS });
}

/**
 * One page of an admin list. Only the list on screen is asked for: the pending list is polled every 5 s, the
 * others are fetched when their filter is chosen (and refreshed after every change made here).
 */
export function useAdminPhotosQuery(list: AdminPhotoList, page: number) {
  return useQuery({
    queryKey: adminPhotosQueryKey(list, page),
    queryFn: () => adminApi.photos(list, page),
    refetchInterval: list === 'pending' ? ADMIN_POLL_MS : false,
  });
}

/** Deletes a photo at any status, then refreshes the same. */
export function useAdminDeletePhotoMutation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: adminApi.remove, onSettled: () => refreshAfterUserPhotoChange(queryClient) });
}

/** Runs a file cleanup; the rejected one deletes photos, so the lists and counters are refreshed after either. */
export function useCleanupMutation() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: adminApi.cleanup, onSettled: () => refreshAfterUserPhotoChange(queryClient) });
}
