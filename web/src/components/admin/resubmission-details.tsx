import { RotateCcw } from 'lucide-react';
import { formatCountOf, formatDate } from '@/lib/format';
import type { UserPhoto } from '@/lib/types';

/** Whether two sets of bars are the same, whatever their order. */
function sameBars(a: UserPhoto['privacyBars'], b: UserPhoto['privacyBars']): boolean {
  const key = (bars: UserPhoto['privacyBars']) => bars.map(({ x, y, width, height }) => `${x},${y},${width},${height}`).sort().join(';');
  return key(a) === key(b);
}

/**
 * A resubmitted photo's story for the admin: why it was rejected, what its owner says they changed, and what did
 * change since (the description and the privacy bars before and now).
 */
export function ResubmissionDetails({ photo }: { photo: UserPhoto }) {
  const resubmission = photo.resubmission;
  if (photo.status !== 'pending' || !resubmission) return null;
  const descriptionBefore = resubmission.descriptionBefore?.trim() || 'No description';
  const descriptionNow = photo.description?.trim() || 'No description';
  const barsChanged = !sameBars(resubmission.privacyBarsBefore, photo.privacyBars);
  return (
    <section
      aria-label="Resubmission"
      className="flex gap-2 rounded-md border border-violet-300 bg-violet-50 p-3 text-sm text-violet-950 dark:border-violet-400/40 dark:bg-violet-400/10 dark:text-violet-100"
    >
      <RotateCcw className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
      <div className="flex min-w-0 flex-col gap-1">
        <p className="font-semibold">Resubmitted {formatDate(resubmission.resubmittedAt) ?? ''} after a rejection</p>
        <p className="break-words">Rejected because: “{resubmission.previousRejectionReason || 'no reason given'}”</p>
        <p className="break-words">{resubmission.note ? `The uploader says: “${resubmission.note}”` : 'The uploader left no note.'}</p>
        <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-2 gap-y-0.5 text-xs">
          <dt className="font-medium">Description</dt>
          <dd className="break-words">{descriptionBefore === descriptionNow ? 'unchanged' : `“${descriptionBefore}” → “${descriptionNow}”`}</dd>
          <dt className="font-medium">Privacy bars</dt>
          <dd>
            {barsChanged
              ? `${formatCountOf(resubmission.privacyBarsBefore.length, 'bar')} before → ${formatCountOf(photo.privacyBars.length, 'bar')} now`
              : `unchanged (${formatCountOf(photo.privacyBars.length, 'bar')})`}
          </dd>
        </dl>
        <p className="text-xs opacity-80">A second rejection is final.</p>
      </div>
    </section>
  );
}
