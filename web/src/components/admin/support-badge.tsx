import { WEB } from '@snapcracks/http-contract';
import { cn } from '@/lib/utils';

/** SPEC §9: counts above 99 show as 99+. */
export function formatBadgeCount(count: number): string {
  return count > WEB.badgeMax ? '99+' : String(count);
}

/** The User Support button's badge: how many contact forms are new; nothing when there are none (or not known yet). */
export function SupportBadge({ count, className }: { count: number | undefined; className?: string }) {
  if (!count || count <= 0) return null;
  return (
    <span
      aria-label={`${count} new ${count === 1 ? 'message' : 'messages'}`}
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-destructive px-1.5 py-0.5 text-xs leading-none font-semibold text-destructive-foreground tabular-nums',
        className,
      )}
    >
      {formatBadgeCount(count)}
    </span>
  );
}
