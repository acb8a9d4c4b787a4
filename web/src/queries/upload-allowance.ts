import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { UploadAllowanceSettings } from '@/lib/types';

/** Under ['user'], so every change to the member's photos refreshes it (user-photos.ts). */
export const uploadAllowanceQueryKey = ['user', 'upload-allowance'] as const;
export const uploadAllowanceSettingsQueryKey = ['admin', 'upload-allowance'] as const;

/** How many photos the member may have waiting for review at once, how many are, and why. */
export function useUploadAllowanceQuery() {
  return useQuery({ queryKey: uploadAllowanceQueryKey, queryFn: api.user.uploadAllowance });
}

export function useUploadAllowanceSettingsQuery({ enabled }: { enabled: boolean }) {
  return useQuery({ queryKey: uploadAllowanceSettingsQueryKey, queryFn: api.admin.uploadAllowanceSettings, enabled });
}

/** Saves the admins' allowances; every member's allowance is asked again. */
export function useSetUploadAllowanceSettingsMutation(errorToast: ErrorToast, onSuccess: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: UploadAllowanceSettings) => api.admin.setUploadAllowanceSettings(settings),
    onSuccess: (settings) => {
      queryClient.setQueryData(uploadAllowanceSettingsQueryKey, settings);
      void queryClient.invalidateQueries({ queryKey: uploadAllowanceQueryKey });
      onSuccess();
    },
    meta: { errorToast },
  });
}
