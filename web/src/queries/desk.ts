import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { BulkApprovalResult, DecisionReversal, ReasonTemplate, ReasonTemplateInput, UserPhoto } from '@/lib/types';
import { refreshAfterUserPhotoChange } from '@/queries/user-photos';

/**
 * The review desk and what goes with it: reason templates, bulk approval, reversed decisions and the reviewer figures.
 * Every key lies under ['admin'], beside the lists and counters of queries/admin.ts.
 */
export const reasonTemplatesQueryKey = ['admin', 'reason-templates'] as const;
export const reviewFiguresQueryKey = (days: number) => ['admin', 'review-figures', { days }] as const;

/** The admins' saved reasons, oldest first (the desk numbers the first nine 1–9). */
export function useReasonTemplatesQuery({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: reasonTemplatesQueryKey, queryFn: api.admin.reasonTemplates, enabled });
}

/** Adds, changes or deletes a template; the list is asked again afterwards, whatever the answer. */
function useReasonTemplateMutation<V, R>(mutationFn: (variables: V) => Promise<R>, errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation<R, Error, V>({
    mutationFn,
    onSettled: () => queryClient.invalidateQueries({ queryKey: reasonTemplatesQueryKey }),
    meta: { errorToast },
  });
}

export function useCreateReasonTemplateMutation(errorToast: ErrorToast) {
  return useReasonTemplateMutation((input: ReasonTemplateInput) => api.admin.createReasonTemplate(input), errorToast);
}

export function useUpdateReasonTemplateMutation(errorToast: ErrorToast) {
  return useReasonTemplateMutation(({ id, ...input }: ReasonTemplateInput & Pick<ReasonTemplate, 'id'>) => api.admin.updateReasonTemplate(id, input), errorToast);
}

export function useDeleteReasonTemplateMutation(errorToast: ErrorToast) {
  return useReasonTemplateMutation((id: string) => api.admin.deleteReasonTemplate(id), errorToast);
}

/** Approves the chosen pending photos at once; the lists and counters are refreshed after, whatever the answer. */
export function useBulkApproveMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation<BulkApprovalResult, Error, number[]>({
    mutationFn: (photoIds) => api.admin.bulkApprove(photoIds),
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
    meta: { errorToast },
  });
}

/** Removes an approved photo or approves a rejected one after all; the lists and counters are refreshed. */
export function useReverseDecisionMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation<UserPhoto, Error, DecisionReversal & { id: number }>({
    mutationFn: ({ id, ...reversal }) => api.admin.reverseDecision(id, reversal),
    onSettled: () => refreshAfterUserPhotoChange(queryClient),
    meta: { errorToast },
  });
}

/** The reviewer figures of the last `days` days, asked for only while they are shown. */
export function useReviewFiguresQuery(days: number, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: reviewFiguresQueryKey(days),
    queryFn: () => api.admin.reviewFigures(days),
    enabled,
    placeholderData: keepPreviousData,
  });
}

/**
 * The desk's calls. "Review next" claims a photo, so it is a mutation, never a query a refetch could repeat; failures
 * are shown by the desk itself (an ended session still signs in again, lib/query-client.ts).
 */
export function useDeskNextMutation() {
  return useMutation({ mutationFn: api.admin.deskNext });
}

export function useRenewDeskClaimMutation() {
  return useMutation({ mutationFn: api.admin.renewDeskClaim });
}
