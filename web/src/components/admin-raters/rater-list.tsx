import { RATERS } from '@snapcracks/http-contract';
import { useId, useRef, useState } from 'react';
import { AlertTriangle, RotateCw, Scale } from 'lucide-react';
import { useMediaQuery, WIDE_LAYOUT_QUERY } from '@/components/admin-users/use-media-query';
import { ListPagination } from '@/components/admin/list-pagination';
import { useRecheckAdminOnRefusal } from '@/hooks/use-recheck-admin-on-refusal';
import { Button } from '@/components/ui/button';
import { Card, CardContent } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, isUnauthorizedError } from '@/lib/api';
import { formatCountOf, formatDateTime } from '@/lib/format';
import type { Rater, RaterSort } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useRatersQuery } from '@/queries/raters';
import { DEFAULT_SORT, isRaterSort, SORT_LABELS } from './rater-labels';
import { RaterVotesDialog } from './rater-votes-dialog';
import { RaterCards, RatersTable } from './raters-table';

export const SCORE_EXPLANATION =
  'The score (0–100) weighs disagreement with other voters, votes in quick bursts, long runs of one rating and ratings with no spread, scaled down for members with few votes.';

const SKELETON_COUNT = 5;

/**
 * Honest votes: every member who rated a photo with the figures that may show dishonest voting, highest first by the
 * chosen figure (the score by default). A table from tablet width up, sorted by its headers; cards on phones, sorted
 * by a menu. A rater's name opens their votes, to void or restore.
 */
export function RaterList() {
  const [sort, setSort] = useState<RaterSort>(DEFAULT_SORT);
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<Rater | null>(null);
  // The button that opened a rater's votes, to go back to when they close.
  const opener = useRef<HTMLElement | null>(null);
  const { data, isPending, error, refetch, isRefetching, isPlaceholderData } = useRatersQuery(sort, page);
  useRecheckAdminOnRefusal(error);
  const wide = useMediaQuery(WIDE_LAYOUT_QUERY);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const id = useId();

  const raters = data?.raters ?? [];
  // The open rater as the list last showed them (their figures change after a void or restoration).
  const shown = open && (raters.find((rater) => rater.userId === open.userId) ?? open);

  const openRater = (rater: Rater) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    setOpen(rater);
  };
  const changeSort = (next: RaterSort) => {
    setSort(next);
    setPage(1);
  };
  const changePage = (next: number) => {
    setPage(next);
    headingRef.current?.focus();
  };

  return (
    <section aria-labelledby={`${id}-heading`} className="flex flex-col gap-6">
      <div className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1">
          <h2 id={`${id}-heading`} ref={headingRef} tabIndex={-1} className="flex items-center gap-2 text-2xl font-bold tracking-tight outline-none">
            <Scale className="size-6 text-primary" aria-hidden="true" />
            Members who rated
          </h2>
          <p className="text-sm text-muted-foreground" aria-live="polite">
            {data ? formatCountOf(data.total, 'rater') : '\u00a0'}
          </p>
        </div>
        {!wide && (
          <div className="flex flex-col gap-1">
            <label htmlFor={`${id}-sort`} className="text-sm font-medium">
              Sort by
            </label>
            <select
              id={`${id}-sort`}
              value={sort}
              onChange={(event) => {
                if (isRaterSort(event.target.value)) changeSort(event.target.value);
              }}
              className="h-11 rounded-md border border-input bg-background px-3 text-sm text-foreground shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring"
            >
              {RATERS.sorts.map((option) => (
                <option key={option} value={option}>
                  {SORT_LABELS[option]}, highest first
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      <div className="flex flex-col gap-1 text-sm text-muted-foreground">
        <p>{data ? figuresAsOf(data.computedAt) : '\u00a0'}</p>
        <p>{SCORE_EXPLANATION}</p>
      </div>

      {isPending ? (
        <RatersSkeleton />
      ) : error && !data ? (
        isUnauthorizedError(error) ? (
          <RatersSkeleton />
        ) : (
          <RatersError error={error} onRetry={() => void refetch()} isRetrying={isRefetching} />
        )
      ) : raters.length === 0 ? (
        <RatersEmpty />
      ) : (
        <div className={cn('transition-opacity', isPlaceholderData && 'opacity-60')} aria-busy={isPlaceholderData || undefined}>
          {wide ? <RatersTable raters={raters} sort={sort} onSort={changeSort} onOpen={openRater} /> : <RaterCards raters={raters} onOpen={openRater} />}
        </div>
      )}

      {data && <ListPagination page={page} totalPages={data.totalPages} onPageChange={changePage} label="Rater list pages" />}

      <RaterVotesDialog
        rater={shown}
        onOpenChange={(next) => {
          if (!next) setOpen(null);
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          // The rater may have left the page (sorted elsewhere after a void): the list's heading takes focus then.
          if (opener.current?.isConnected) opener.current.focus();
          else headingRef.current?.focus();
        }}
      />
    </section>
  );
}

function figuresAsOf(computedAt: string | null): string {
  const when = formatDateTime(computedAt);
  return when ? `Figures as of ${when}. A member’s own are recomputed at once after a void or restoration.` : 'Figures are being computed.';
}

function RatersSkeleton() {
  return (
    <div role="status" aria-label="Loading raters" className="flex flex-col gap-3">
      {Array.from({ length: SKELETON_COUNT }, (_, index) => (
        <div key={index} className="flex items-center gap-4 rounded-xl border bg-card p-4">
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-1/3" />
            <Skeleton className="h-3 w-1/2" />
          </div>
          <Skeleton className="hidden h-4 w-1/3 sm:block" />
          <Skeleton className="h-6 w-12 rounded-full" />
        </div>
      ))}
    </div>
  );
}

function RatersEmpty() {
  return (
    <Card>
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <Scale className="size-10 text-muted-foreground" aria-hidden="true" />
        <p className="text-lg font-semibold">No one has rated a photo yet.</p>
      </CardContent>
    </Card>
  );
}

function RatersError({ error, onRetry, isRetrying }: { error: unknown; onRetry: () => void; isRetrying: boolean }) {
  const refused = error instanceof ApiError && error.status === 403;
  return (
    <Card role="alert">
      <CardContent className="flex flex-col items-center gap-3 py-12 text-center">
        <AlertTriangle className="size-10 text-destructive dark:text-red-400" aria-hidden="true" />
        <h3 className="text-xl font-semibold">Could not load the raters</h3>
        <p className="max-w-md text-muted-foreground">
          {refused ? "You don't have permission to access the admin panel." : 'Something went wrong while loading the raters.'}
        </p>
        {!refused && (
          <Button variant="outline" className="mt-2" onClick={onRetry} disabled={isRetrying}>
            <RotateCw className={isRetrying ? 'animate-spin' : undefined} aria-hidden="true" />
            Try Again
          </Button>
        )}
      </CardContent>
    </Card>
  );
}
