import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { uploadAllowanceQueryKey } from './upload-allowance';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { PrivacyBar } from '@/lib/types';
import type { UploadProgress } from '@/lib/upload';
import {
  discardUnfinishedUpload,
  findUnfinishedUploads,
  sendResumably,
  type ResumableUploadStatus,
  type UnfinishedUpload,
} from '@/lib/resumable-upload';

export const unfinishedUploadsQueryKey = ['unfinished-uploads'] as const;

/** Uploads this browser began and the server still keeps, to offer going on with them. */
export function useUnfinishedUploadsQuery() {
  return useQuery({ queryKey: unfinishedUploadsQueryKey, queryFn: findUnfinishedUploads, staleTime: 0 });
}

/** Discards an unfinished upload: its bytes on the server, and this browser's note of it. */
export function useDiscardUnfinishedUploadMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: (upload: UnfinishedUpload) => discardUnfinishedUpload(upload),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: unfinishedUploadsQueryKey }),
  });
}
import { userPhotosQueryKey } from './user-photos';
import { userStatsQueryKey } from './user-stats';

export interface UploadPhotoVariables {
  file: File;
  description?: string;
  altText?: string;
  onProgress?: (progress: UploadProgress) => void;
  onStatus?: (status: ResumableUploadStatus) => void;
  signal?: AbortSignal;
}

/**
 * The bytes by the resumable protocol (they survive a cut connection and a reload), then the photo made of them with
 * its text. A new photo shows up in My Uploads and the stats.
 */
export function useUploadPhotoMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: async ({ file, description, altText, onProgress, onStatus, signal }: UploadPhotoVariables) => {
      const sent = await sendResumably(file, { onProgress, onStatus, signal });
      const photo = await api.photos.finishResumableUpload(sent.id, { description, altText });
      await sent.forget();
      return photo;
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userPhotosQueryKey });
      void queryClient.invalidateQueries({ queryKey: userStatsQueryKey });
      void queryClient.invalidateQueries({ queryKey: uploadAllowanceQueryKey });
    },
    // A refusal may be the allowance, which the page shows: ask it again.
    onError: () => void queryClient.invalidateQueries({ queryKey: uploadAllowanceQueryKey }),
  });
}

/** POST /api/photos/{id}/privacy-bars, replacing the photo's bars. */
export function useSavePrivacyBarsMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: ({ photoId, bars }: { photoId: number; bars: PrivacyBar[] }) => api.photos.setPrivacyBars(photoId, bars),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: userPhotosQueryKey });
    },
  });
}
