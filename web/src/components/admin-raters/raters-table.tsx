import type { ReactNode } from 'react';
import { AlertTriangle, ArrowDown, ArrowDownUp } from 'lucide-react';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { formatCount, formatRating } from '@/lib/format';
import type { Rater, RaterSort } from '@/lib/types';
import { cn } from '@/lib/utils';
import { formatFigure, formatLastVote, formatScore, HIGH_SCORE, raterName, SORT_LABELS, uncountedNotes } from './rater-labels';

interface RatersViewProps {
  raters: Rater[];
  onOpen: (rater: Rater) => void;
}

function DisabledBadge({ rater }: { rater: Rater }) {
  if (rater.isEnabled !== false) return null;
  return (
    <Badge variant="outline" className="border-amber-600/40 text-amber-800 dark:border-amber-400/40 dark:text-amber-300">
      Disabled
    </Badge>
  );
}

/**
 * The score, set apart from 50 up (as shown: 49.95 reads "50.0" and is set apart too): a colour, an icon and, for
 * screen readers, the word.
 */
export function Score({ score }: { score: number }) {
  const shown = formatScore(score);
  if (Number(shown) < HIGH_SCORE) return <span className="tabular-nums">{shown}</span>;
  return (
    <span className="inline-flex items-center gap-1 rounded-full bg-destructive/10 px-2 py-0.5 font-bold whitespace-nowrap text-destructive tabular-nums dark:bg-red-500/15 dark:text-red-400">
      <AlertTriangle className="size-3.5 shrink-0" aria-hidden="true" />
      {shown}
      <span className="sr-only"> (high)</span>
    </span>
  );
}

function VoteCount({ rater }: { rater: Rater }) {
  const notes = uncountedNotes(rater);
  return (
    <>
      <span className="tabular-nums">{formatCount(rater.votes)}</span>
      {notes.map((note) => (
        <span key={note} className="block text-xs whitespace-nowrap text-muted-foreground">
          {note}
        </span>
      ))}
    </>
  );
}

/** The name, which opens the rater's votes; "Deleted account" when the account is gone. */
function OpenButton({ rater, onOpen, className }: { rater: Rater; onOpen: (rater: Rater) => void; className?: string }) {
  return (
    <button
      type="button"
      aria-haspopup="dialog"
      onClick={() => onOpen(rater)}
      className={cn(
        'min-h-9 max-w-full rounded-sm text-left font-medium text-primary underline-offset-4 outline-none hover:underline focus-visible:ring-2 focus-visible:ring-ring wrap-anywhere',
        rater.name === null && 'text-muted-foreground italic',
        className,
      )}
    >
      {raterName(rater)}
      <span className="sr-only">, view votes</span>
    </button>
  );
}

/** The figures' columns after the rater, in order: the sortable ones carry their sort. */
const COLUMNS: { sort: RaterSort; cell: (rater: Rater) => ReactNode }[] = [
  // First, so a tablet shows it without scrolling the table.
  { sort: 'score', cell: (rater) => <Score score={rater.score} /> },
  { sort: 'votes', cell: (rater) => <VoteCount rater={rater} /> },
  { sort: 'mean', cell: (rater) => formatRating(rater.mean) },
  { sort: 'spread', cell: (rater) => formatFigure(rater.spread) },
  { sort: 'deviation', cell: (rater) => formatFigure(rater.deviation) },
  { sort: 'run', cell: (rater) => formatCount(rater.longestRun) },
  { sort: 'bursts', cell: (rater) => formatCount(rater.bursts) },
];

const TH = 'px-3 py-2 font-medium';

/** A column's header: a button that sorts by it (highest first), `aria-sort` on the one sorted by. */
function SortHeader({ sort, active, onSort }: { sort: RaterSort; active: boolean; onSort: (sort: RaterSort) => void }) {
  return (
    <th scope="col" aria-sort={active ? 'descending' : undefined} className={cn(TH, 'text-right')}>
      <button
        type="button"
        onClick={() => onSort(sort)}
        className={cn(
          'ml-auto inline-flex min-h-9 items-center gap-1 rounded-sm text-right tracking-wide uppercase outline-none hover:text-foreground focus-visible:ring-2 focus-visible:ring-ring',
          active && 'text-foreground',
        )}
      >
        {SORT_LABELS[sort]}
        {active ? <ArrowDown className="size-3.5 shrink-0" aria-hidden="true" /> : <ArrowDownUp className="size-3.5 shrink-0 opacity-40" aria-hidden="true" />}
      </button>
    </th>
  );
}

/**
 * The raters as a table, from tablet width up, sorted by clicking a column's header. On a tablet the last vote moves
 * under the email; the table scrolls inside its box rather than widening the page.
 */
export function RatersTable({ raters, onOpen, sort, onSort }: RatersViewProps & { sort: RaterSort; onSort: (sort: RaterSort) => void }) {
  return (
    <div className="relative overflow-x-auto rounded-xl border bg-card text-card-foreground">
      <table className="w-full text-sm">
        <caption className="sr-only">Raters, sorted by {SORT_LABELS[sort].toLowerCase()}, highest first</caption>
        <thead className="border-b bg-muted/50 text-left text-xs text-muted-foreground">
          <tr>
            <th scope="col" className={cn(TH, 'tracking-wide uppercase')}>
              Rater
            </th>
            {COLUMNS.map((column) => (
              <SortHeader key={column.sort} sort={column.sort} active={column.sort === sort} onSort={onSort} />
            ))}
            <th scope="col" className={cn(TH, 'hidden tracking-wide uppercase lg:table-cell')}>
              Last vote
            </th>
          </tr>
        </thead>
        <tbody className="divide-y">
          {raters.map((rater) => (
            <tr key={rater.userId} className={rater.isEnabled === false ? 'bg-muted/40' : undefined}>
              <th scope="row" className="max-w-64 px-3 py-2 text-left align-top font-normal">
                <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                  <OpenButton rater={rater} onOpen={onOpen} />
                  <DisabledBadge rater={rater} />
                </div>
                {rater.email && <p className="truncate text-xs text-muted-foreground" title={rater.email}>{rater.email}</p>}
                <p className="text-xs text-muted-foreground lg:hidden">Last vote {formatLastVote(rater.lastVoteAt)}</p>
              </th>
              {COLUMNS.map((column) => (
                <td key={column.sort} className="px-3 py-2 text-right align-top tabular-nums">
                  {column.cell(rater)}
                </td>
              ))}
              <td className="hidden px-3 py-2 align-top whitespace-nowrap text-muted-foreground lg:table-cell">{formatLastVote(rater.lastVoteAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The raters as cards, on phones (sorted with the list's own control). */
export function RaterCards({ raters, onOpen }: RatersViewProps) {
  return (
    <ul aria-label="Raters" className="flex flex-col gap-4">
      {raters.map((rater) => (
        <li
          key={rater.userId}
          aria-label={raterName(rater)}
          className={cn('flex flex-col gap-3 rounded-xl border bg-card p-4 text-card-foreground shadow-sm', rater.isEnabled === false && 'bg-muted/40')}
        >
          <div className="flex items-start justify-between gap-3">
            <div className="min-w-0">
              <p className={cn('flex flex-wrap items-center gap-2 font-medium wrap-anywhere', rater.name === null && 'text-muted-foreground italic')}>
                {raterName(rater)}
                <DisabledBadge rater={rater} />
              </p>
              {rater.email && <p className="truncate text-sm text-muted-foreground">{rater.email}</p>}
            </div>
            <div className="shrink-0 text-right">
              <p className="text-xs text-muted-foreground">Score</p>
              <Score score={rater.score} />
            </div>
          </div>
          <dl className="grid grid-cols-2 gap-x-4 gap-y-2 text-sm min-[360px]:grid-cols-3">
            {COLUMNS.filter((column) => column.sort !== 'score').map((column) => (
              <div key={column.sort} className="min-w-0">
                <dt className="text-xs text-muted-foreground">{SORT_LABELS[column.sort]}</dt>
                <dd className="font-medium tabular-nums">{column.cell(rater)}</dd>
              </div>
            ))}
            <div className="min-w-0">
              <dt className="text-xs text-muted-foreground">Last vote</dt>
              <dd className="font-medium">{formatLastVote(rater.lastVoteAt)}</dd>
            </div>
          </dl>
          <Button variant="outline" className="w-full" aria-haspopup="dialog" onClick={() => onOpen(rater)}>
            View votes<span className="sr-only"> of {raterName(rater)}</span>
          </Button>
        </li>
      ))}
    </ul>
  );
}
