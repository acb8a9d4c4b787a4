import { WEB } from '@snapcracks/http-contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { DataExport } from '@/lib/types';

/** Under ['user'], the member's own data. */
export const dataExportQueryKey = ['user', 'data-export'] as const;

/** While a copy is made its progress is asked for this often; never otherwise. */
export const DATA_EXPORT_POLL_MS = WEB.dataExportPollMs;

export function isInProgress(dataExport: DataExport | null | undefined): boolean {
  return dataExport?.status === 'queued' || dataExport?.status === 'running';
}

/** The member's latest copy of their data, polled while it is being made. */
export function useDataExportQuery() {
  return useQuery({
    queryKey: dataExportQueryKey,
    queryFn: api.user.dataExport,
    refetchInterval: (query) => (isInProgress(query.state.data) ? DATA_EXPORT_POLL_MS : false),
  });
}

/** Asks for a new copy; the answer (queued) is shown at once and polled from there. */
export function useRequestDataExportMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.user.requestDataExport,
    onSuccess: (queued) => queryClient.setQueryData(dataExportQueryKey, queued),
    // A 409 means one is being made already: show it.
    onError: () => void queryClient.invalidateQueries({ queryKey: dataExportQueryKey }),
    meta: { errorToast },
  });
}

export function useDiscardDataExportMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.user.discardDataExport,
    onSettled: () => void queryClient.invalidateQueries({ queryKey: dataExportQueryKey }),
    meta: { errorToast },
  });
}
