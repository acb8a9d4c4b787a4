import { PAGES } from '@snapcracks/http-contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { RaterSort, VoteVoidResult } from '@/lib/types';
import { galleryStatsQueryKey } from '@/queries/gallery';

/** Raters per page and votes per page (the server's defaults). */
export const RATERS_PAGE_SIZE = PAGES.limits.raters.default;
export const RATER_VOTES_PAGE_SIZE = PAGES.limits.raterVotes.default;

/**
 * The Raters page (honest votes). Every key lies under ['admin', 'raters'], so one invalidation refreshes the list
 * and every rater's votes.
 */
export const ratersQueryKey = ['admin', 'raters'] as const;
export const raterListQueryKey = (sort: RaterSort, page: number) => [...ratersQueryKey, 'list', { sort, page, limit: RATERS_PAGE_SIZE }] as const;
export const raterVotesQueryKey = (userId: string, page: number) =>
  [...ratersQueryKey, 'votes', userId, { page, limit: RATER_VOTES_PAGE_SIZE }] as const;

/** One page of raters, highest first by `sort`. The page on screen stays while the next one loads. */
export function useRatersQuery(sort: RaterSort, page: number) {
  return useQuery({
    queryKey: raterListQueryKey(sort, page),
    queryFn: () => api.admin.raters(sort, page, RATERS_PAGE_SIZE),
    placeholderData: keepPreviousData,
  });
}

/** One page of a rater's votes and the admins' actions on them; another rater's page is never shown meanwhile. */
export function useRaterVotesQuery(userId: string, page: number) {
  return useQuery({
    queryKey: raterVotesQueryKey(userId, page),
    queryFn: () => api.admin.raterVotes(userId, page, RATER_VOTES_PAGE_SIZE),
    placeholderData: (previous, previousQuery) => (previousQuery?.queryKey[3] === userId ? previous : undefined),
  });
}

/** What an admin does to a rater's votes: set them aside, or let them count again. */
export type VoteChangeKind = 'void' | 'restore';

export interface VoteChangeVariables {
  kind: VoteChangeKind;
  /** The photos whose votes change; left out, all of the rater's votes. */
  photoIds?: number[];
  reason: string;
}

/**
 * Voids or restores a rater's votes. Failures are shown by the dialog that asked (a 400's message beside the reason);
 * an ended session still signs in again (lib/query-client.ts). On success the raters list and the rater's votes are
 * refetched, and so are the gallery's totals, which a voided vote no longer counts in.
 */
export function useVoteChangeMutation(userId: string) {
  const queryClient = useQueryClient();
  return useMutation<VoteVoidResult, Error, VoteChangeVariables>({
    mutationFn: ({ kind, photoIds, reason }) => {
      const input = photoIds ? { photoIds, reason } : { reason };
      return kind === 'void' ? api.admin.voidVotes(userId, input) : api.admin.restoreVotes(userId, input);
    },
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ratersQueryKey }),
        queryClient.invalidateQueries({ queryKey: ['gallery'] }),
        queryClient.invalidateQueries({ queryKey: galleryStatsQueryKey }),
      ]),
  });
}
