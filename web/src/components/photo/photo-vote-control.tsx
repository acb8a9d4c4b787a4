import { useUnauthorizedRedirect } from '@/hooks/use-unauthorized-redirect';
import type { VoteResult } from '@/lib/types';
import { useCastVoteMutation, useMyVoteQuery } from '@/queries/votes';
import { StarRating, starLabel } from './star-rating';
import { toastSignInRequired, toastVoteFailed, toastVoteSubmitted } from './vote-feedback';

export interface PhotoVoteControlProps {
  photoId: number;
  /** The photo's current average, shown read-only on one's own photo. */
  averageRating: number;
  isSignedIn: boolean;
  isOwnPhoto: boolean;
  /** Called with the photo's new totals once a vote is recorded. */
  onVoted?: (result: VoteResult) => void;
}

/**
 * The rating control of the photo dialog: the caller's previous rating (asked for only when signed in),
 * a new vote on click, disabled while one is pending. One's own photo shows its average, read-only: the
 * server refuses votes on it.
 */
export function PhotoVoteControl({ photoId, averageRating, isSignedIn, isOwnPhoto, onVoted }: PhotoVoteControlProps) {
  const myVote = useMyVoteQuery(photoId, { enabled: isSignedIn && !isOwnPhoto });
  useUnauthorizedRedirect(myVote.error);
  const castVote = useCastVoteMutation({
    onSuccess: (result) => {
      toastVoteSubmitted();
      onVoted?.(result);
    },
    onError: toastVoteFailed,
  });

  if (isOwnPhoto) {
    return (
      <div className="flex flex-col gap-1">
        <span className="text-sm font-medium">Average rating</span>
        <StarRating value={Math.round(averageRating) || null} readOnly label="Average rating" />
        <p className="text-xs text-muted-foreground">This is your photo, so you can&apos;t rate it.</p>
      </div>
    );
  }

  const vote = (rating: number) => {
    if (!isSignedIn) {
      toastSignInRequired();
      return;
    }
    castVote.mutate({ photoId, rating });
  };

  // While a vote is on its way, show the stars it picked.
  const rating = castVote.isPending ? castVote.variables.rating : (myVote.data?.rating ?? null);
  const hint = castVote.isPending
    ? 'Submitting your vote…'
    : rating
      ? `You rated this ${starLabel(rating)}. Pick again to change your vote.`
      : 'Pick a star to rate this photo.';

  return (
    <div className="flex flex-col gap-1">
      <span className="text-sm font-medium">Your rating</span>
      <StarRating
        value={rating}
        onChange={vote}
        disabled={castVote.isPending || myVote.isLoading}
        label="Your rating"
        size="lg"
      />
      <p className="text-xs text-muted-foreground" aria-live="polite">
        {hint}
      </p>
    </div>
  );
}
