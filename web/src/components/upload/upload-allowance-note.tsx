import { Hourglass } from 'lucide-react';
import { cn } from '@/lib/utils';
import { useUploadAllowanceQuery } from '@/queries/upload-allowance';

/**
 * The member's upload allowance: how many photos may wait for review at once, how many do, and why. Warns when it is
 * full, since an upload would then be refused until an admin reviews some. While it loads, an invisible note of what
 * most members see holds its place, so the form below does not jump when the real one arrives, whatever the width
 * (the text wraps to two lines or more on a phone); nothing if it fails: the upload itself still says why it is
 * refused.
 */
export function UploadAllowanceNote({ className }: { className?: string }) {
  const { data, isPending } = useUploadAllowanceQuery();
  if (isPending) return <AllowanceLoading className={className} />;
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
      <AllowanceText
        full={full}
        headline={
          full
            ? `Your ${data.limit} places in the review queue are taken: you can upload again once an admin has reviewed a photo of yours.`
            : `You may have ${data.limit} photos waiting for review at once; ${data.pending === 0 ? 'none is' : data.pending === 1 ? '1 is' : `${data.pending} are`} waiting now.`
        }
        reasons={data.reasons}
      />
    </section>
  );
}

/** A new member's note, about as long as theirs, laid out as the note and not shown. */
const TYPICAL_HEADLINE = 'You may have 5 photos waiting for review at once; none is waiting now.';
const TYPICAL_REASONS = [
  'Members may have 5 photos waiting for review at once.',
  '10 more approved photos and no rejection or removal for 90 days raise it to 15.',
];

function AllowanceLoading({ className }: { className?: string }) {
  return (
    <div aria-hidden="true" className={cn('flex gap-3 rounded-lg border bg-muted/40 p-3 text-sm animate-pulse', className)}>
      <div className="invisible flex min-w-0 gap-3">
        <AllowanceText full={false} headline={TYPICAL_HEADLINE} reasons={TYPICAL_REASONS} />
      </div>
    </div>
  );
}

function AllowanceText({ full, headline, reasons }: { full: boolean; headline: string; reasons: readonly string[] }) {
  return (
    <>
      <Hourglass className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="min-w-0">
        <p className={cn('font-medium', !full && 'text-foreground')}>{headline}</p>
        <ul className="mt-1 flex flex-col gap-0.5">
          {reasons.map((reason) => (
            <li key={reason}>{reason}</li>
          ))}
        </ul>
      </div>
    </>
  );
}
