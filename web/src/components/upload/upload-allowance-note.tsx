import { Hourglass } from 'lucide-react';
import { cn } from '@/lib/utils';
import { useUploadAllowanceQuery } from '@/queries/upload-allowance';

/**
 * The member's upload allowance: how many photos may wait for review at once, how many do, and why. Warns when it is
 * full, since an upload would then be refused until an admin reviews some. While it loads its usual space is held (the
 * form below would otherwise jump when it arrives); nothing if it fails: the upload itself still says why it is refused.
 */
export function UploadAllowanceNote({ className }: { className?: string }) {
  const { data, isPending } = useUploadAllowanceQuery();
  // A line and one reason: what most members see.
  if (isPending) return <div aria-hidden="true" className={cn('h-[4.375rem] animate-pulse rounded-lg border bg-muted/40', className)} />;
  if (!data) return null;
  const full = data.pending >= data.limit;
  return (
    <section
      aria-label="Upload allowance"
      className={cn(
        'flex gap-3 rounded-lg border p-3 text-sm',
        full
          ? 'border-amber-300 bg-amber-50 text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100'
          : 'bg-muted/40 text-muted-foreground',
        className,
      )}
    >
      <Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className={cn('font-medium', !full && 'text-foreground')}>
          {full
            ? `Your ${data.limit} places in the review queue are taken: you can upload again once an admin has reviewed a photo of yours.`
            : `You may have ${data.limit} photos waiting for review at once; ${data.pending === 0 ? 'none is' : data.pending === 1 ? '1 is' : `${data.pending} are`} waiting now.`}
        </p>
        <ul className="mt-1 flex flex-col gap-0.5">
          {data.reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
    </section>
  );
}
