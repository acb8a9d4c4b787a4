import { Copy, ScanSearch } from 'lucide-react';
import type { ReviewMarks as ReviewMarksData } from '@/lib/types';

const STATUS_WORDS = { pending: 'pending', approved: 'approved', rejected: 'rejected' } as const;

/**
 * What the server noticed about a pending repeat upload: it looks like a photo rejected before (with that photo's
 * reason), or the uploader already sent the very same file. Hints only; the admin decides.
 */
export function ReviewMarks({ marks }: { marks: ReviewMarksData | null }) {
  if (!marks || (!marks.similarRejected && !marks.duplicateOf)) return null;
  const { similarRejected: similar, duplicateOf: duplicate } = marks;
  return (
    <ul aria-label="Repeat upload" className="flex flex-col gap-2">
      {similar && (
        <li className="flex gap-2 rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-950 dark:border-amber-400/40 dark:bg-amber-400/10 dark:text-amber-100">
          <ScanSearch className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-semibold">Looks like a rejected photo</p>
            <p className="mt-1 break-words">
              Photo #{similar.photoId}
              {similar.sameUploader ? ' by the same uploader' : ''} was rejected: “{similar.rejectionReason || 'no reason given'}”
            </p>
            <p className="mt-1 text-xs opacity-80">
              {similar.distance === 0 ? 'The same picture' : `Nearly the same picture (${similar.distance} of 64 hash bits ${similar.distance === 1 ? 'differs' : 'differ'})`}
            </p>
          </div>
        </li>
      )}
      {duplicate && (
        <li className="flex gap-2 rounded-md border border-sky-300 bg-sky-50 p-3 text-sm text-sky-950 dark:border-sky-400/40 dark:bg-sky-400/10 dark:text-sky-100">
          <Copy className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <div className="min-w-0">
            <p className="font-semibold">Exact duplicate</p>
            <p className="mt-1 break-words">
              The uploader already sent this file as photo #{duplicate.photoId} ({STATUS_WORDS[duplicate.status] ?? duplicate.status}).
            </p>
          </div>
        </li>
      )}
    </ul>
  );
}
