import { useEffect, type RefObject } from 'react';
import type { VoteResult } from '@/lib/types';
import { useCastVoteMutation, useMyVoteQuery } from '@/queries/votes';
import { StarRating, starLabel } from './star-rating';
import { toastSignInRequired, toastVoteSubmitted, VOTE_FAILED } from './vote-feedback';

export interface PhotoVoteControlProps {
  photoId: number;
  /** The photo's current average, shown read-only on one's own photo. */
  averageRating: number;
  isSignedIn: boolean;
  isOwnPhoto: boolean;
  /** Called with the photo's new totals once a vote is recorded. */
  onVoted?: (result: VoteResult) => void;
  /** Receives the control's vote function while mounted, so the viewer's digit keys vote from anywhere in it. */
  voteRef?: RefObject<((rating: number) => void) | null>;
}

/**
 * The control keeps one width and reserves two lines of help, so the stars stay where they are when the help
 * text changes after a vote (they sat in a right-aligned block that grew with its text).
 */
const CONTROL_CLASS = 'flex w-full flex-col gap-1 sm:w-72';
const HINT_CLASS = 'min-h-8 text-xs text-muted-foreground';

/**
 * The rating control of the photo dialog: the caller's previous rating (asked for only when signed in),
 * a new vote on click, also while that rating is still loading, disabled while one is pending. One's own
 * photo shows its average, read-only: the server refuses votes on it.
 */
export function PhotoVoteControl({ photoId, averageRating, isSignedIn, isOwnPhoto, onVoted, voteRef }: PhotoVoteControlProps) {
  const myVote = useMyVoteQuery(photoId, { enabled: isSignedIn && !isOwnPhoto });
  const castVote = useCastVoteMutation({
    onSuccess: (result) => {
      toastVoteSubmitted();
      onVoted?.(result);
    },
    errorToast: VOTE_FAILED,
  });

  const canVote = !isOwnPhoto && !castVote.isPending;
  const vote = (rating: number) => {
    if (!isSignedIn) {
      toastSignInRequired();
      return;
    }
    castVote.mutate({ photoId, rating });
  };
  useEffect(() => {
    if (!voteRef) return;
    voteRef.current = canVote ? vote : null;
    return () => {
      voteRef.current = null;
    };
  });

  if (isOwnPhoto) {
    return (
      <div className={CONTROL_CLASS}>
        <span className="text-sm font-medium">Average rating</span>
        <StarRating value={Math.round(averageRating) || null} readOnly label="Average rating" />
        <p className={HINT_CLASS}>This is your photo, so you can&apos;t rate it.</p>
      </div>
    );
  }

  // While a vote is on its way, show the stars it picked.
  const rating = castVote.isPending ? castVote.variables.rating : (myVote.data?.rating ?? null);
  const hint = castVote.isPending
    ? 'Submitting your vote…'
    : rating
      ? `You rated this ${starLabel(rating)}. Pick again to change your vote.`
      : 'Pick a star to rate this photo.';

  return (
    <div className={CONTROL_CLASS}>
      <span className="text-sm font-medium">Your rating</span>
      <StarRating
        value={rating}
        onChange={vote}
        disabled={castVote.isPending}
        label="Your rating"
        size="lg"
      />
      <p className={HINT_CLASS} aria-live="polite">
        {hint}
      </p>
    </div>
  );
}
