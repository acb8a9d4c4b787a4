import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { WEB } from '@snapcracks/http-contract';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { ReportedPhotoOrder, ReportInput, ReportResult } from '@/lib/types';
import { refreshAfterUserPhotoChange } from '@/queries/user-photos';

const MY_REPORTS_PAGE_SIZE = 10;
const REPORTED_PAGE_SIZE = 10;

export const myReportsQueryKey = (page: number) => ['user', 'reports', { page }] as const;
export const reportedPhotosQueryKey = (order: ReportedPhotoOrder, page: number) => ['admin', 'reports', order, { page }] as const;

/** The member's own reports and their outcomes (the dashboard's Your reports). */
export function useMyReportsQuery(page: number) {
  return useQuery({ queryKey: myReportsQueryKey(page), queryFn: () => api.user.reports(page, MY_REPORTS_PAGE_SIZE), placeholderData: keepPreviousData });
}

/**
 * Reports a photo; the member's list and everything showing the photo are refreshed (it may have left the gallery).
 * `onSuccess` belongs to the mutation, not to `mutate`, so it runs even when the refresh closes the viewer it came from.
 */
export function useReportPhotoMutation(errorToast: ErrorToast, onSuccess: (result: ReportResult) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ photoId, ...input }: ReportInput & { photoId: number }) => api.photos.report(photoId, input),
    onSuccess: (result) => {
      onSuccess(result);
      return refreshAfterUserPhotoChange(queryClient);
    },
    meta: { errorToast },
  });
}

/** Photos with open reports, polled like the pending list (new reports arrive while the admin works). */
export function useReportedPhotosQuery(order: ReportedPhotoOrder, page: number) {
  return useQuery({
    queryKey: reportedPhotosQueryKey(order, page),
    queryFn: () => api.admin.reportedPhotos(order, page, REPORTED_PAGE_SIZE),
    refetchInterval: WEB.adminPollMs,
    placeholderData: keepPreviousData,
  });
}

/** Dismisses or removes; the photo lists, counters and reports are refreshed. */
export function useDecideReportsMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.admin.decideReports,
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
    meta: { errorToast },
  });
}
