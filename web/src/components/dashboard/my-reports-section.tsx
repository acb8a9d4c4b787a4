import { REPORTS } from '@snapcracks/http-contract';
import { useState } from 'react';
import { CheckCircle2, Clock, Flag, RotateCw, Trash2, type LucideIcon } from 'lucide-react';
import { GalleryPagination } from '@/components/gallery/gallery-pagination';
import { Button } from '@/components/ui/button';
import { formatDate } from '@/lib/format';
import type { Report, ReportStatus } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useMyReportsQuery } from '@/queries/reports';

/** What each outcome means to the member who reported: never who else reported, nor the admin's words to the owner. */
const OUTCOMES: Record<ReportStatus, { label: string; detail: string; icon: LucideIcon; className: string }> = {
  open: {
    label: 'Open',
    detail: 'An admin will look at it.',
    icon: Clock,
    className: 'border-amber-300 bg-amber-100 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200',
  },
  dismissed: {
    label: 'Dismissed',
    detail: 'An admin reviewed it and kept the photo.',
    icon: CheckCircle2,
    className: 'border-slate-300 bg-slate-100 text-slate-900 dark:border-slate-600 dark:bg-slate-800 dark:text-slate-100',
  },
  removed: {
    label: 'Removed',
    detail: 'The photo was taken down.',
    icon: Trash2,
    className: 'border-emerald-300 bg-emerald-100 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200',
  },
};

/** The member's reports and what became of each, newest first, a page at a time. Shown once they have reported. */
export function MyReportsSection() {
  const [page, setPage] = useState(1);
  const { data, isPending, error, refetch, isRefetching } = useMyReportsQuery(page);
  // Most members never report: the section appears once there is something to show, not as a loading placeholder.
  if (isPending || (!error && data.total === 0)) return null;

  return (
    <section aria-labelledby="my-reports-title" className="flex flex-col gap-4">
      <div>
        <h2 id="my-reports-title" className="flex items-center gap-2 text-2xl font-bold tracking-tight">
          <Flag className="size-6 text-primary" aria-hidden="true" />
          Your reports
        </h2>
        <p className="mt-1 text-muted-foreground">Photos you reported to the admins, and what they decided.</p>
      </div>
      {error ? (
        <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border p-4 text-sm">
          <span>Your reports could not be loaded.</span>
          <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isRefetching}>
            <RotateCw className={cn(isRefetching && 'animate-spin')} aria-hidden="true" />
            Try again
          </Button>
        </div>
      ) : (
        <>
          <ul aria-label="Your reports" className="flex flex-col divide-y rounded-xl border bg-card">
            {data.reports.map((report) => (
              <ReportRow key={report.id} report={report} />
            ))}
          </ul>
          <GalleryPagination page={page} totalPages={data.totalPages} onPageChange={setPage} label="Your reports pages" />
        </>
      )}
    </section>
  );
}

function ReportRow({ report }: { report: Report }) {
  const outcome = OUTCOMES[report.status];
  const Icon = outcome.icon;
  const description = report.photoDescription?.trim();
  return (
    <li className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between">
      <div className="min-w-0">
        <p className={cn('font-medium break-words', !description && 'text-muted-foreground italic')}>{description || 'No description'}</p>
        <p className="text-sm text-muted-foreground">
          {REPORTS.labels[report.category]} · reported {formatDate(report.createdAt) ?? ''}
          {report.decidedAt && ` · decided ${formatDate(report.decidedAt)}`}
        </p>
      </div>
      <div className="flex shrink-0 flex-col items-start gap-1 sm:items-end">
        <span className={cn('inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold', outcome.className)}>
          <Icon className="size-3.5" aria-hidden="true" />
          {outcome.label}
        </span>
        <span className="text-xs text-muted-foreground">{outcome.detail}</span>
      </div>
    </li>
  );
}
