import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';
import type { User } from '@/lib/types';
import { uploadWithProgress, type UploadProgress } from '@/lib/upload';
import { currentUserQueryKey } from './auth';

/** POST /api/profile/avatar answers the updated user; `facesDetected` is not shown (SPEC §7). */
export interface AvatarUploadResult {
  user: User;
  facesDetected?: number;
}

export const profileApi = {
  /** PUT /api/profile: the trimmed display name; answers the updated user. */
  updateDisplayName: (displayName: string) => apiJson<User>('PUT', '/api/profile', { displayName }),
  /** POST /api/profile/avatar: the file as multipart `avatar`, reporting upload progress. */
  uploadAvatar: (file: File, onProgress?: (progress: UploadProgress) => void) => {
    const form = new FormData();
    form.append('avatar', file, file.name);
    return uploadWithProgress<AvatarUploadResult>('/api/profile/avatar', form, { onProgress });
  },
};

/** The signed-in user everywhere (navbar, profile, settings) follows the answer at once. */
function useRememberUser() {
  const queryClient = useQueryClient();
  return (user: User) => queryClient.setQueryData(currentUserQueryKey, user);
}

export function useUpdateDisplayNameMutation() {
  const remember = useRememberUser();
  return useMutation({ mutationFn: profileApi.updateDisplayName, onSuccess: remember });
}

export function useUploadAvatarMutation(onProgress?: (progress: UploadProgress) => void) {
  const remember = useRememberUser();
  return useMutation({
    mutationFn: (file: File) => profileApi.uploadAvatar(file, onProgress),
    onSuccess: (result) => remember(result.user),
  });
}
