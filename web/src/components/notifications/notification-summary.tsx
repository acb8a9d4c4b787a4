import { formatRelativeTime } from '@/lib/format';
import type { MemberNotification } from '@/lib/types';
import { cn } from '@/lib/utils';

/**
 * A notification as the bell's menu and the notifications page show it: an unread one has a dot and a bold title
 * (and says "Unread" to screen readers), then the body and how long ago it came. Phrasing content only, so it can sit
 * inside a button or a menu item.
 */
export function NotificationSummary({ notification, className }: { notification: MemberNotification; className?: string }) {
  const { read, title, body, createdAt } = notification;
  return (
    <span className={cn('flex min-w-0 flex-1 items-start gap-3 text-left', className)}>
      <span aria-hidden="true" className={cn('mt-1.5 size-2 shrink-0 rounded-full', read ? 'bg-transparent' : 'bg-primary')} />
      <span className="flex min-w-0 flex-1 flex-col gap-0.5">
        <span className={cn('text-sm break-words', read ? 'font-normal' : 'font-semibold')}>
          {!read && <span className="sr-only">Unread: </span>}
          {title}
        </span>
        <span className="text-sm break-words text-muted-foreground">{body}</span>
        <time dateTime={createdAt ?? undefined} className="text-xs text-muted-foreground">
          {formatRelativeTime(createdAt)}
        </time>
      </span>
    </span>
  );
}
