import { REPORTS, REVIEW_FIGURES } from '@snapcracks/http-contract';
import { useId, useState, type ReactNode } from 'react';
import { AlertTriangle, BarChart3, ChevronDown, RotateCw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card';
import { Skeleton } from '@/components/ui/skeleton';
import { formatCount, formatCountOf, formatDate, formatDay, formatDuration, formatPercent } from '@/lib/format';
import type { ReviewFigures as Figures } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useReviewFiguresQuery } from '@/queries/desk';

/** The periods the admin can choose, in days. */
export const FIGURE_PERIODS = [7, 14, 30, 90] as const;

const NO_NAME = 'Deleted account';

function Empty({ children }: { children: ReactNode }) {
  return <p className="rounded-md border border-dashed p-4 text-center text-sm text-muted-foreground">{children}</p>;
}

function FigureCard({ title, description, children }: { title: string; description?: string; children: ReactNode }) {
  const id = useId();
  return (
    <Card aria-labelledby={id} role="region" className="min-w-0">
      <CardHeader className="pb-3">
        <CardTitle as="h3" id={id} className="text-base">
          {title}
        </CardTitle>
        {description && <CardDescription>{description}</CardDescription>}
      </CardHeader>
      <CardContent>{children}</CardContent>
    </Card>
  );
}

const TH = 'px-2 py-2 text-left text-xs font-medium tracking-wide text-muted-foreground uppercase';
const NUM = 'px-2 py-2 text-right tabular-nums';

/** A table that scrolls inside its card rather than widening the page on a phone. */
function FigureTable({ caption, children }: { caption: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">{caption}</caption>
        {children}
      </table>
    </div>
  );
}

function Decisions({ decisions }: { decisions: Figures['decisions'] }) {
  if (decisions.length === 0) return <Empty>No decisions in these days.</Empty>;
  return (
    <FigureTable caption="Decisions per admin">
      <thead className="border-b">
        <tr>
          <th scope="col" className={TH}>
            Admin
          </th>
          <th scope="col" className={cn(TH, 'text-right')}>
            Decisions
          </th>
          <th scope="col" className={TH}>
            By day
          </th>
        </tr>
      </thead>
      <tbody className="divide-y">
        {decisions.map((row) => (
          <tr key={row.adminId}>
            <th scope="row" className="px-2 py-2 text-left font-medium break-words">
              {row.name ?? NO_NAME}
            </th>
            <td className={NUM}>{formatCount(row.total)}</td>
            <td className="px-2 py-2">
              <ul aria-label={`${row.name ?? NO_NAME} by day`} className="flex flex-wrap gap-1">
                {row.perDay.map(({ day, count }) => (
                  <li key={day} className="rounded bg-muted px-1.5 py-0.5 text-xs whitespace-nowrap">
                    {formatDay(day)}: <span className="font-medium tabular-nums">{formatCount(count)}</span>
                  </li>
                ))}
              </ul>
            </td>
          </tr>
        ))}
      </tbody>
    </FigureTable>
  );
}

function TimeToDecision({ seconds, measured }: { seconds: number | null; measured: number }) {
  return (
    <div className="flex flex-col gap-1">
      <p className="text-3xl font-bold tabular-nums" data-testid="median-time">
        {formatDuration(seconds)}
      </p>
      <p className="text-sm text-muted-foreground">
        {seconds === null ? 'No photo was approved or rejected in these days.' : `The median over ${formatCountOf(measured, 'decision')}.`}
      </p>
    </div>
  );
}

function ReportsByCategory({ rows }: { rows: Figures['reportsByCategory'] }) {
  if (rows.every((row) => row.total === 0)) return <Empty>No reports in these days.</Empty>;
  return (
    <FigureTable caption="Reports by category">
      <thead className="border-b">
        <tr>
          <th scope="col" className={TH}>
            Category
          </th>
          {['Total', 'Open', 'Dismissed', 'Removed'].map((name) => (
            <th key={name} scope="col" className={cn(TH, 'text-right')}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y">
        {rows.map((row) => (
          <tr key={row.category}>
            <th scope="row" className="px-2 py-2 text-left font-medium">
              {REPORTS.labels[row.category]}
            </th>
            <td className={NUM}>{formatCount(row.total)}</td>
            <td className={NUM}>{formatCount(row.open)}</td>
            <td className={NUM}>{formatCount(row.dismissed)}</td>
            <td className={NUM}>{formatCount(row.removed)}</td>
          </tr>
        ))}
      </tbody>
    </FigureTable>
  );
}

function Reporters({ rows }: { rows: Figures['reportersMostlyDismissed'] }) {
  if (rows.length === 0) return <Empty>No member’s reports were mostly dismissed.</Empty>;
  return (
    <FigureTable caption="Reporters whose reports were mostly dismissed">
      <thead className="border-b">
        <tr>
          <th scope="col" className={TH}>
            Member
          </th>
          {['Decided', 'Dismissed', 'Share'].map((name) => (
            <th key={name} scope="col" className={cn(TH, 'text-right')}>
              {name}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className="divide-y">
        {rows.map((row) => (
          <tr key={row.userId}>
            <th scope="row" className="px-2 py-2 text-left font-medium break-words">
              {row.name ?? NO_NAME}
            </th>
            <td className={NUM}>{formatCount(row.decided)}</td>
            <td className={NUM}>{formatCount(row.dismissed)}</td>
            <td className={NUM}>{formatPercent(row.decided > 0 ? (row.dismissed / row.decided) * 100 : 0)}</td>
          </tr>
        ))}
      </tbody>
    </FigureTable>
  );
}

/**
 * How the reviewing goes, behind a disclosure so the panel stays tidy (and nothing is asked for until it is opened):
 * decisions per admin and day, the median time from upload to decision, reports per category, and the members whose
 * reports were mostly dismissed, over the last 7, 14, 30 or 90 days.
 */
export function ReviewerFigures() {
  const [open, setOpen] = useState(false);
  const [days, setDays] = useState<number>(REVIEW_FIGURES.defaultDays);
  const figures = useReviewFiguresQuery(days, { enabled: open });
  const id = useId();
  const { data } = figures;

  return (
    <section aria-labelledby={`${id}-title`} className="flex flex-col gap-4">
      <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={`${id}-body`}
          onClick={() => setOpen((current) => !current)}
          className="flex min-h-11 items-center gap-2 rounded-md outline-none focus-visible:ring-2 focus-visible:ring-ring focus-visible:ring-offset-2 focus-visible:ring-offset-background"
        >
          <BarChart3 className="size-6 text-muted-foreground" aria-hidden="true" />
          Reviewer figures
          <ChevronDown className={cn('size-5 text-muted-foreground transition-transform', open && 'rotate-180')} aria-hidden="true" />
        </button>
      </h2>

      {open && (
        <div id={`${id}-body`} className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <label htmlFor={`${id}-days`} className="text-sm font-medium">
              Period
            </label>
            <select
              id={`${id}-days`}
              value={days}
              onChange={(event) => setDays(Number(event.target.value))}
              className="h-11 rounded-md border border-input bg-background px-3 text-sm text-foreground shadow-xs outline-none focus-visible:ring-2 focus-visible:ring-ring sm:h-9"
            >
              {FIGURE_PERIODS.map((period) => (
                <option key={period} value={period}>
                  Last {period} days
                </option>
              ))}
            </select>
            {data && <span className="text-sm text-muted-foreground">Since {formatDate(data.since) ?? '—'} (UTC days)</span>}
          </div>

          {figures.isPending ? (
            <div role="status" aria-label="Loading the figures" className="grid gap-4 md:grid-cols-2">
              {[0, 1, 2, 3].map((index) => (
                <Skeleton key={index} className="h-40 w-full rounded-xl" />
              ))}
            </div>
          ) : figures.isError || !data ? (
            <div role="alert" className="flex flex-wrap items-center gap-3 rounded-xl border p-6">
              <AlertTriangle className="size-5 text-destructive" aria-hidden="true" />
              <span>The figures could not be loaded.</span>
              <Button variant="outline" size="sm" onClick={() => void figures.refetch()} disabled={figures.isRefetching}>
                <RotateCw className={cn(figures.isRefetching && 'animate-spin')} aria-hidden="true" />
                Try again
              </Button>
            </div>
          ) : (
            <div className={cn('grid gap-4 md:grid-cols-2', figures.isPlaceholderData && 'opacity-60')} aria-busy={figures.isPlaceholderData || undefined}>
              <FigureCard title="Decisions per admin" description="Approvals, rejections, removals, reinstatements and dismissed reports.">
                <Decisions decisions={data.decisions} />
              </FigureCard>
              <FigureCard title="Time to decision" description="From upload to approval or rejection.">
                <TimeToDecision seconds={data.medianUploadToDecisionSeconds} measured={data.measuredDecisions} />
              </FigureCard>
              <FigureCard title="Reports by category" description="Reports made in these days, and what became of them.">
                <ReportsByCategory rows={data.reportsByCategory} />
              </FigureCard>
              <FigureCard
                title="Reporters mostly dismissed"
                description={`Members with at least ${REVIEW_FIGURES.minDecidedReports} decided reports, ${formatPercent(REVIEW_FIGURES.mostlyDismissedShare * 100)} or more of them dismissed (all time).`}
              >
                <Reporters rows={data.reportersMostlyDismissed} />
              </FigureCard>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
