import { RotateCcw } from 'lucide-react';
import { Button } from '@/components/ui/button';
import { getServerMessage } from '@/lib/api';
import { cn } from '@/lib/utils';
import { useDiscardUnfinishedUploadMutation, useUnfinishedUploadsQuery } from '@/queries/upload';

/**
 * Uploads that stopped before they were finished (a reload, a closed tab, a lost connection), still kept on the
 * server: choosing the same photo goes on from where each stopped, or the member discards it. Nothing while there are
 * none, or while they are looked up.
 */
export function UnfinishedUploadsNote({ className }: { className?: string }) {
  const { data: uploads } = useUnfinishedUploadsQuery();
  const discard = useDiscardUnfinishedUploadMutation((error) => ({
    title: 'Failed to Discard Upload',
    description: getServerMessage(error, 'Please try again.'),
  }));
  if (!uploads?.length) return null;
  return (
    <section aria-label="Unfinished uploads" className={cn('flex flex-col gap-2 rounded-lg border bg-muted/40 p-3 text-sm', className)}>
      {uploads.map((upload) => (
        <div key={upload.id} className="flex flex-col gap-2 sm:flex-row sm:items-center">
          <RotateCcw className="hidden size-4 shrink-0 text-muted-foreground sm:block" aria-hidden="true" />
          <p className="min-w-0 flex-1 [overflow-wrap:anywhere]">
            {upload.percent < 100 ? (
              <>
                Your upload of <span className="font-medium">{upload.filename}</span> stopped at {upload.percent}%. Choose the
                same photo to go on from there.
              </>
            ) : (
              // Every byte arrived, but the photo was not made of them (the page closed first, or the allowance was full).
              <>
                Your upload of <span className="font-medium">{upload.filename}</span> arrived whole but was not sent for
                review. Choose the same photo to send it.
              </>
            )}
          </p>
          <Button
            variant="outline"
            size="sm"
            className="min-h-11 self-start sm:min-h-9 sm:self-auto"
            disabled={discard.isPending}
            aria-label={`Discard the unfinished upload of ${upload.filename}`}
            onClick={() => discard.mutate(upload)}
          >
            Discard
          </Button>
        </div>
      ))}
    </section>
  );
}
