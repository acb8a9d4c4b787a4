import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { User } from '@/lib/types';
import type { UploadProgress } from '@/lib/upload';
import { currentUserQueryKey } from './auth';

/** The signed-in user everywhere (navbar, profile, settings) follows the answer at once. */
function useRememberUser() {
  const queryClient = useQueryClient();
  return (user: User) => queryClient.setQueryData(currentUserQueryKey, user);
}

export function useUpdateDisplayNameMutation(errorToast: ErrorToast) {
  const remember = useRememberUser();
  return useMutation({ mutationFn: api.profile.updateDisplayName, onSuccess: remember, meta: { errorToast } });
}

export function useUploadAvatarMutation({
  onProgress,
  errorToast,
}: {
  onProgress?: (progress: UploadProgress) => void;
  errorToast: ErrorToast;
}) {
  const remember = useRememberUser();
  return useMutation({
    mutationFn: (file: File) => api.profile.uploadAvatar(file, onProgress),
    onSuccess: (result) => remember(result.user),
    meta: { errorToast },
  });
}
