import { CheckCircle2, Clock, ShieldAlert, XCircle, type LucideIcon } from 'lucide-react';
import type { PhotoStatus } from '@/lib/types';
import { cn } from '@/lib/utils';

/**
 * Opaque colour pairs whose text passes WCAG AA (≥ 4.5:1) in both themes, also when the badge sits on a
 * photo; each status also has its own icon so it never relies on colour alone.
 */
const STATUS_STYLES: Record<PhotoStatus, { label: string; icon: LucideIcon; className: string }> = {
  pending: {
    label: 'Pending',
    icon: Clock,
    className:
      'border-amber-300 bg-amber-100 text-amber-900 dark:border-amber-700 dark:bg-amber-950 dark:text-amber-200',
  },
  approved: {
    label: 'Approved',
    icon: CheckCircle2,
    className:
      'border-emerald-300 bg-emerald-100 text-emerald-900 dark:border-emerald-700 dark:bg-emerald-950 dark:text-emerald-200',
  },
  rejected: {
    label: 'Rejected',
    icon: XCircle,
    className: 'border-red-300 bg-red-100 text-red-900 dark:border-red-700 dark:bg-red-950 dark:text-red-200',
  },
};

/** A photo members reported, back in review: pending, but not a new upload. */
const UNDER_REVIEW = {
  label: 'Under review',
  icon: ShieldAlert,
  className: 'border-orange-300 bg-orange-100 text-orange-900 dark:border-orange-700 dark:bg-orange-950 dark:text-orange-200',
};

export function PhotoStatusBadge({ status, underReview = false, className }: { status: PhotoStatus; underReview?: boolean; className?: string }) {
  const { label, icon: Icon, className: statusClassName } = status === 'pending' && underReview ? UNDER_REVIEW : (STATUS_STYLES[status] ?? STATUS_STYLES.pending);
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold',
        statusClassName,
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label}
    </span>
  );
}
