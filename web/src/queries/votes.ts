import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { MyVote, VoteResult } from '@/lib/types';
import { applyVoteToGalleryCache } from './gallery';

export function myVoteQueryKey(photoId: number) {
  return ['photos', photoId, 'vote'] as const;
}

/** The caller's own rating of a photo. Only asked for when signed in (`enabled`). */
export function useMyVoteQuery(photoId: number, { enabled }: { enabled: boolean }) {
  return useQuery({
    queryKey: myVoteQueryKey(photoId),
    queryFn: () => api.photos.myVote(photoId),
    enabled,
  });
}

export interface CastVoteVariables {
  photoId: number;
  rating: number;
}

/**
 * POST /api/photos/{id}/vote. On success the caller's rating and the photo's totals are written into the
 * cache at once, then the gallery and its stats are refetched. The callbacks belong to the mutation (not
 * to `mutate`) so the feedback still shows if the dialog closes before the answer arrives.
 *
 * A vote may be cast before the caller's earlier rating has loaded (the server does not need it): the load
 * is cancelled so its late answer cannot show the old rating over the new one, and asked again if the
 * vote fails.
 */
export function useCastVoteMutation({
  onSuccess,
  errorToast,
}: {
  onSuccess?: (result: VoteResult, variables: CastVoteVariables) => void;
  errorToast?: ErrorToast;
} = {}) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ photoId, rating }: CastVoteVariables) => api.photos.vote(photoId, rating),
    onMutate: ({ photoId }) => queryClient.cancelQueries({ queryKey: myVoteQueryKey(photoId) }),
    onError: (_error, { photoId }) => queryClient.invalidateQueries({ queryKey: myVoteQueryKey(photoId) }),
    onSuccess: (result, variables) => {
      queryClient.setQueryData<MyVote>(myVoteQueryKey(variables.photoId), { rating: result.rating });
      void applyVoteToGalleryCache(queryClient, variables.photoId, result);
      onSuccess?.(result, variables);
    },
    meta: { errorToast },
  });
}
