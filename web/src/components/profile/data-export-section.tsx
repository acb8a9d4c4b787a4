import { Download, Loader2 } from 'lucide-react';
import { DATA_EXPORT } from '@snapcracks/http-contract';
import { Button } from '@/components/ui/button';
import { getServerMessage } from '@/lib/api';
import { formatBytes, formatDateTime } from '@/lib/format';
import type { DataExport } from '@/lib/types';
import { isInProgress, useDataExportQuery, useDiscardDataExportMutation, useRequestDataExportMutation } from '@/queries/data-export';

/** What "Download your data" says for each state of the member's latest copy. */
function requestLabel(latest: DataExport | null | undefined): string {
  if (latest?.status === 'expired') return 'Request a new copy';
  if (latest?.status === 'failed') return 'Try again';
  return 'Download your data';
}

function ExportProgress({ latest }: { latest: DataExport }) {
  const percent = Math.max(0, Math.min(100, latest.progress));
  const step = latest.status === 'queued' ? 'Waiting to start…' : `${latest.step ?? 'Preparing'}…`;
  return (
    <div className="flex flex-col gap-1.5">
      <div className="flex justify-between gap-3 text-xs text-muted-foreground" aria-live="polite">
        <span className="min-w-0 truncate">{step}</span>
        <span className="shrink-0 tabular-nums">{percent}%</span>
      </div>
      <div
        role="progressbar"
        aria-label="Preparing your data"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        aria-valuetext={`${percent}%, ${step}`}
        className="h-2 w-full overflow-hidden rounded-full bg-secondary"
      >
        <div className="h-full rounded-full bg-primary transition-[width] duration-300" style={{ width: `${percent}%` }} />
      </div>
      <p className="text-xs text-muted-foreground">You can leave this page; your copy keeps being made.</p>
    </div>
  );
}

/**
 * "Your data": a zip of everything Snap Cracks holds about the member, made in the background. Shows the progress while
 * it is made (polled every 2 s), the download with its size and expiry once ready, why it failed, and a new request once
 * it has expired.
 */
export function DataExportSection() {
  const { data: latest, isPending, isError } = useDataExportQuery();
  const request = useRequestDataExportMutation((error) => ({ title: 'Error', description: getServerMessage(error, DATA_EXPORT.failed) }));
  const discard = useDiscardDataExportMutation({ title: 'Error', description: 'Failed to delete your copy. Please try again.' });
  const making = isInProgress(latest);

  return (
    <div className="flex flex-col gap-4">
      <p className="text-sm text-muted-foreground">
        A zip of your profile, your photos (the originals you uploaded, without location or camera data, and the images others
        see), their descriptions, alt text, privacy bars, statuses and reasons, your votes, your reports and your messages to the
        team. It is kept for {DATA_EXPORT.keepHours} hours; you can ask for {DATA_EXPORT.maxPerWindow} copies a day.
      </p>

      {isPending && <p className="text-sm text-muted-foreground">Loading…</p>}
      {isError && (
        <p role="alert" className="text-sm text-destructive">
          Your data export could not be loaded. Please reload the page.
        </p>
      )}

      {latest && making && <ExportProgress latest={latest} />}

      {latest?.status === 'ready' && latest.downloadUrl && (
        <div className="flex flex-col gap-3">
          <p className="text-sm">
            Your copy is ready ({formatBytes(latest.size)}). You can download it until {formatDateTime(latest.expiresAt)}.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button asChild>
              <a href={latest.downloadUrl} download>
                <Download aria-hidden="true" />
                Download ({formatBytes(latest.size)})
              </a>
            </Button>
            <Button variant="outline" onClick={() => discard.mutate()} disabled={discard.isPending}>
              Delete this copy
            </Button>
          </div>
        </div>
      )}

      {latest?.status === 'failed' && (
        <p role="alert" className="text-sm text-destructive">
          {latest.error ?? DATA_EXPORT.failed}
        </p>
      )}
      {latest?.status === 'expired' && (
        <p className="text-sm text-muted-foreground">Your last copy has expired and was deleted{latest.expiresAt ? ` on ${formatDateTime(latest.expiresAt)}` : ''}.</p>
      )}

      {!isPending && !isError && !making && latest?.status !== 'ready' && (
        <div>
          <Button onClick={() => request.mutate()} disabled={request.isPending}>
            {request.isPending ? <Loader2 className="animate-spin" aria-hidden="true" /> : <Download aria-hidden="true" />}
            {requestLabel(latest)}
          </Button>
        </div>
      )}
    </div>
  );
}
