import type { ContactFormStatus } from '@/lib/types';
import { cn } from '@/lib/utils';
import { STATUS_STYLES } from './support-statuses';

export function ContactFormStatusBadge({ status, className }: { status: ContactFormStatus; className?: string }) {
  const { label, icon: Icon, className: statusClassName } = STATUS_STYLES[status] ?? STATUS_STYLES.new;
  return (
    <span
      className={cn(
        'inline-flex items-center gap-1 rounded-full border px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap',
        statusClassName,
        className,
      )}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label}
    </span>
  );
}
