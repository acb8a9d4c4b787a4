import { Star } from 'lucide-react';
import { cn } from '@/lib/utils';
import { formatRating, formatVoteCount } from '@/lib/format';

/**
 * A photo's average and vote count ("★ 4.2 (12 votes)"), or "No ratings yet" while nobody has voted: an unrated
 * photo is not a 0.0 one.
 */
export function RatingSummary({
  averageRating,
  voteCount,
  size = 'sm',
  className,
}: {
  averageRating: number;
  voteCount: number;
  size?: 'sm' | 'lg';
  className?: string;
}) {
  const rated = Number.isFinite(voteCount) && voteCount > 0;
  return (
    <span className={cn('flex items-center gap-1.5', className)}>
      <Star
        className={cn(size === 'lg' ? 'size-5' : 'size-4', rated ? 'fill-amber-400 text-amber-500 dark:text-amber-400' : 'text-muted-foreground')}
        aria-hidden="true"
      />
      {rated ? (
        <>
          <span className={cn('font-semibold text-foreground', size === 'lg' && 'text-lg')}>{formatRating(averageRating)}</span>
          <span className="sr-only">average rating,</span>
          <span>({formatVoteCount(voteCount)})</span>
        </>
      ) : (
        <span>No ratings yet</span>
      )}
    </span>
  );
}
