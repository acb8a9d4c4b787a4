import { RATERS } from '@snapcracks/http-contract';
import { useId, useRef, useState, type ComponentProps } from 'react';
import { AlertTriangle, Ban, CheckCircle2, History, PauseCircle, RotateCw, Star, Undo2 } from 'lucide-react';
import { ListPagination } from '@/components/admin/list-pagination';
import { Button } from '@/components/ui/button';
import { Checkbox } from '@/components/ui/checkbox';
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from '@/components/ui/dialog';
import { Skeleton } from '@/components/ui/skeleton';
import { ApiError, getServerMessage, isUnauthorizedError } from '@/lib/api';
import { formatCountOf, formatDateTime, formatRating } from '@/lib/format';
import { toast } from '@/lib/toast';
import type { Rater, RaterAction, RaterVote } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useRaterVotesQuery, useVoteChangeMutation } from '@/queries/raters';
import { actionSummary, changedMessage, NO_NAME, raterName, uncountedNotes, voteStatus } from './rater-labels';
import { VoteChangeDialog, type VoteChangeRequest } from './vote-change-dialog';

/**
 * A rater's votes, newest first, each with the other voters' mean on the photo and whether it counts; the admin can
 * void or restore chosen votes or all of them, with a reason. Below, what admins did to these votes. A dialog over the
 * list: focus moves into it, Escape closes it, and focus goes back to the button that opened it.
 */
export function RaterVotesDialog({
  rater,
  onOpenChange,
  onCloseAutoFocus,
}: {
  rater: Rater | null;
  onOpenChange: (open: boolean) => void;
  /** Where focus goes on closing: the dialog is opened without a trigger of its own. */
  onCloseAutoFocus?: ComponentProps<typeof DialogContent>['onCloseAutoFocus'];
}) {
  // The last rater stays while the dialog closes, so its contents do not vanish during the closing animation.
  const [shown, setShown] = useState(rater);
  if (rater && rater !== shown) setShown(rater);
  const name = shown ? raterName(shown) : '';
  const notes = shown ? uncountedNotes(shown) : [];
  return (
    <Dialog open={rater !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-3xl gap-6 p-4 sm:p-6" onCloseAutoFocus={onCloseAutoFocus}>
        <DialogHeader className="pr-8 text-left">
          <DialogTitle className="leading-tight wrap-anywhere">Votes of {name}</DialogTitle>
          <DialogDescription className="wrap-anywhere">
            {shown && [shown.email, formatCountOf(shown.votes, 'vote'), ...notes].filter(Boolean).join(' · ')}
          </DialogDescription>
        </DialogHeader>
        {shown && <RaterVotes key={shown.userId} rater={shown} />}
      </DialogContent>
    </Dialog>
  );
}

function RaterVotes({ rater }: { rater: Rater }) {
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [request, setRequest] = useState<VoteChangeRequest | null>(null);
  const { data, isPending, error, refetch, isRefetching, isPlaceholderData } = useRaterVotesQuery(rater.userId, page);
  const change = useVoteChangeMutation(rater.userId);
  const headingRef = useRef<HTMLHeadingElement>(null);
  // The button that asked for the change, to go back to when the reason dialog closes (if it can still be used).
  const opener = useRef<HTMLElement | null>(null);
  const id = useId();
  const name = raterName(rater);

  const votes = data?.votes ?? [];
  const chosen = votes.filter((vote) => selected.has(vote.photoId)).map((vote) => vote.photoId);
  const allChosen = votes.length > 0 && chosen.length === votes.length;

  const choose = (photoId: number, checked: boolean) =>
    setSelected((current) => {
      const next = new Set(current);
      if (checked) next.add(photoId);
      else next.delete(photoId);
      return next;
    });

  const changePage = (next: number) => {
    setPage(next);
    setSelected(new Set());
    headingRef.current?.focus();
  };

  const ask = (next: VoteChangeRequest) => {
    opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    change.reset();
    setRequest(next);
  };

  const confirm = (reason: string) => {
    if (!request) return;
    const kind = request.kind;
    change.mutate(
      { kind, reason, ...(request.scope === 'all' ? {} : { photoIds: chosen }) },
      {
        onSuccess: ({ changed }) => {
          toast({ title: 'Success', description: changedMessage(kind, changed) });
          setSelected(new Set());
          setRequest(null);
        },
      },
    );
  };

  const serverError = change.error && !isUnauthorizedError(change.error) ? getServerMessage(change.error, 'The votes could not be changed. Please try again.') : null;

  if (isPending) return <VotesSkeleton />;
  if (error && !data) {
    const unknown = error instanceof ApiError && error.status === 404;
    return (
      <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border p-6 text-center">
        <AlertTriangle className="size-8 text-destructive dark:text-red-400" aria-hidden="true" />
        <p>{unknown ? getServerMessage(error, RATERS.unknownMember) : 'The votes could not be loaded.'}</p>
        {!unknown && (
          <Button variant="outline" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw className={cn(isRefetching && 'animate-spin')} aria-hidden="true" />
            Try Again
          </Button>
        )}
      </div>
    );
  }
  if (!data) return null;

  const busy = change.isPending;
  return (
    <div className="flex min-w-0 flex-col gap-6">
      <section aria-labelledby={`${id}-votes`} className="flex flex-col gap-3">
        <h3 id={`${id}-votes`} ref={headingRef} tabIndex={-1} className="text-base font-semibold outline-none">
          {formatCountOf(data.total, 'vote')}
          {data.totalPages > 1 && <span className="font-normal text-muted-foreground"> · page {page} of {data.totalPages}</span>}
        </h3>

        <div role="group" aria-label="Change votes" className="flex flex-col gap-2 rounded-lg border bg-card p-2 sm:p-3">
          <label className="flex min-h-11 cursor-pointer items-center gap-3 px-1 text-sm sm:min-h-9">
            <Checkbox
              checked={allChosen ? true : chosen.length > 0 ? 'indeterminate' : false}
              disabled={busy || votes.length === 0}
              onCheckedChange={() => setSelected(allChosen ? new Set() : new Set(votes.map((vote) => vote.photoId)))}
            />
            Select all on this page
          </label>
          <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap">
            <Button size="sm" variant="destructive" disabled={busy || chosen.length === 0} onClick={() => ask({ kind: 'void', scope: chosen.length })}>
              <Ban aria-hidden="true" />
              Void selected ({chosen.length})
            </Button>
            <Button size="sm" variant="outline" disabled={busy || chosen.length === 0} onClick={() => ask({ kind: 'restore', scope: chosen.length })}>
              <Undo2 aria-hidden="true" />
              Restore selected ({chosen.length})
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => ask({ kind: 'void', scope: 'all' })}>
              <Ban aria-hidden="true" />
              Void all votes
            </Button>
            <Button size="sm" variant="outline" disabled={busy} onClick={() => ask({ kind: 'restore', scope: 'all' })}>
              <Undo2 aria-hidden="true" />
              Restore all
            </Button>
          </div>
        </div>

        {votes.length === 0 ? (
          <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">No votes on this page.</p>
        ) : (
          <ul aria-label="Votes" aria-busy={isPlaceholderData || undefined} className={cn('divide-y rounded-lg border', isPlaceholderData && 'opacity-60')}>
            {votes.map((vote) => (
              <VoteItem key={vote.photoId} vote={vote} checked={selected.has(vote.photoId)} disabled={busy} onCheckedChange={(checked) => choose(vote.photoId, checked)} />
            ))}
          </ul>
        )}

        <ListPagination page={page} totalPages={data.totalPages} onPageChange={changePage} label="Vote pages" />
      </section>

      <ActionHistory actions={data.actions} />

      <VoteChangeDialog
        request={request}
        raterName={name}
        isPending={busy}
        serverError={serverError}
        onConfirm={confirm}
        onOpenChange={(open) => {
          if (!open) setRequest(null);
        }}
        onCloseAutoFocus={(event) => {
          event.preventDefault();
          // "Void selected" is disabled once the selection is cleared: the votes' heading takes focus instead.
          const back = opener.current;
          if (back?.isConnected && !(back as HTMLButtonElement).disabled) back.focus();
          else headingRef.current?.focus();
        }}
      />
    </div>
  );
}

function Stars({ rating }: { rating: number }) {
  return (
    <span className="inline-flex items-center gap-1.5">
      <span className="inline-flex" aria-hidden="true">
        {[1, 2, 3, 4, 5].map((star) => (
          <Star key={star} className={cn('size-3.5', star <= rating ? 'fill-current text-amber-500 dark:text-amber-400' : 'text-muted-foreground/40')} />
        ))}
      </span>
      <span className="font-medium text-foreground tabular-nums">
        {rating}
        <span className="sr-only"> of 5</span>
      </span>
    </span>
  );
}

const STATUS_STYLE = {
  counts: { icon: CheckCircle2, className: 'text-emerald-700 dark:text-emerald-400' },
  voided: { icon: Ban, className: 'text-destructive dark:text-red-400' },
  suspended: { icon: PauseCircle, className: 'text-amber-700 dark:text-amber-400' },
} as const;

function VoteItem({ vote, checked, disabled, onCheckedChange }: { vote: RaterVote; checked: boolean; disabled: boolean; onCheckedChange: (checked: boolean) => void }) {
  const status = voteStatus(vote);
  const { icon: StatusIcon, className } = STATUS_STYLE[status.kind];
  const photo = `Photo #${vote.photoId}`;
  return (
    <li aria-label={photo} className={cn('flex items-start gap-2 p-2 sm:gap-3 sm:p-3', status.kind !== 'counts' && 'bg-muted/40')}>
      {/* 44 px to tap on a phone around the 20 px box. */}
      <label className="flex size-11 shrink-0 cursor-pointer items-center justify-center sm:size-9">
        <Checkbox aria-label={`Select vote on photo #${vote.photoId}`} checked={checked} disabled={disabled} onCheckedChange={(next) => onCheckedChange(next === true)} />
      </label>
      <div className="flex min-w-0 flex-1 flex-col gap-1 py-1 sm:py-1.5">
        <p className="font-medium">{photo}</p>
        <dl className="flex flex-wrap gap-x-5 gap-y-1 text-sm text-muted-foreground">
          <div className="flex items-center gap-1.5">
            <dt>Rating</dt>
            <dd>
              <Stars rating={vote.rating} />
            </dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt>Others’ mean</dt>
            <dd className="font-medium text-foreground tabular-nums">{vote.consensus === null ? '—' : formatRating(vote.consensus)}</dd>
          </div>
          <div className="flex items-center gap-1.5">
            <dt className="sr-only">Cast</dt>
            <dd>{vote.castAt ? <time dateTime={vote.castAt}>{formatDateTime(vote.castAt)}</time> : '—'}</dd>
          </div>
        </dl>
        <p className={cn('flex items-start gap-1.5 text-sm font-medium wrap-anywhere', className)}>
          <StatusIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{status.label}</span>
        </p>
      </div>
    </li>
  );
}

function ActionHistory({ actions }: { actions: RaterAction[] }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-history`} className="flex flex-col gap-3">
      <h3 id={`${id}-history`} className="flex items-center gap-2 text-base font-semibold">
        <History className="size-4 text-muted-foreground" aria-hidden="true" />
        History
      </h3>
      {actions.length === 0 ? (
        <p className="text-sm text-muted-foreground">No admin has voided or restored these votes.</p>
      ) : (
        <ol className="flex flex-col gap-2 text-sm">
          {actions.map((action) => (
            <li key={action.id} className="rounded-md border px-3 py-2 wrap-anywhere">
              <span className="font-medium">{actionSummary(action)}</span>
              {' — '}
              {action.adminName ?? NO_NAME}
              {' — '}
              {action.reason}
              {' — '}
              {action.at ? (
                <time dateTime={action.at} className="text-muted-foreground">
                  {formatDateTime(action.at)}
                </time>
              ) : (
                '—'
              )}
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}

function VotesSkeleton() {
  return (
    <div role="status" aria-label="Loading votes" className="flex flex-col gap-3">
      {[0, 1, 2, 3].map((index) => (
        <div key={index} className="flex items-center gap-3 rounded-lg border p-3">
          <Skeleton className="size-5" />
          <div className="flex flex-1 flex-col gap-2">
            <Skeleton className="h-4 w-24" />
            <Skeleton className="h-3 w-2/3" />
          </div>
        </div>
      ))}
    </div>
  );
}
