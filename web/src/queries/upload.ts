import { useMutation, useQueryClient } from '@tanstack/react-query';
import { uploadAllowanceQueryKey } from './upload-allowance';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { PrivacyBar } from '@/lib/types';
import type { UploadProgress } from '@/lib/upload';
import { userPhotosQueryKey } from './user-photos';
import { userStatsQueryKey } from './user-stats';

export interface UploadPhotoVariables {
  file: File;
  description?: string;
  altText?: string;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/** POST /api/photos with upload progress. A new photo shows up in My Uploads and the stats. */
export function useUploadPhotoMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { errorToast },
    mutationFn: ({ file, description, altText, onProgress, signal }: UploadPhotoVariables) =>
      api.photos.upload(file, { description, altText }, onProgress, { signal }),
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
