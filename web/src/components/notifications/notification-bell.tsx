import { Link } from 'react-router-dom';
import { Bell, CheckCheck, RotateCw } from 'lucide-react';
import { formatBadgeCount } from '@/components/admin/support-badge';
import { Button } from '@/components/ui/button';
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from '@/components/ui/dropdown-menu';
import { cn } from '@/lib/utils';
import { useNotificationMenuQuery } from '@/queries/notifications';
import { NotificationSummary } from './notification-summary';
import { bellLabel } from './notification-targets';
import { useNotificationActions } from './use-open-notification';

/** The unread count on the bell (and on the drawer's Notifications link): 99+ above 99, nothing at 0. */
export function UnreadBadge({ count, className }: { count: number | undefined; className?: string }) {
  if (!count || count <= 0) return null;
  return (
    <span
      aria-hidden="true"
      className={cn(
        'inline-flex min-w-5 items-center justify-center rounded-full bg-destructive px-1 py-0.5 text-[0.6875rem] leading-none font-semibold text-destructive-foreground tabular-nums',
        className,
      )}
    >
      {formatBadgeCount(count)}
    </span>
  );
}

const menuMessageClass = 'px-3 py-6 text-center text-sm text-muted-foreground';

/**
 * The navbar's bell: the unread count, and a menu of the latest ten notifications. Choosing one marks it read and goes
 * where it points; the menu also marks all read and leads to the notifications page. A Radix menu: arrow keys move
 * between its entries, Escape closes it and focus goes back to the bell. Shown only to members who accepted the terms.
 */
export function NotificationBell() {
  const { data, isPending, isError, refetch, isRefetching } = useNotificationMenuQuery({ enabled: true });
  const { open, markAllRead, isMarkingAllRead } = useNotificationActions();
  const unread = data?.unread ?? 0;
  const notifications = data?.notifications ?? [];

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="ghost" size="icon" className="relative" aria-label={bellLabel(unread)} title="Notifications">
          <Bell aria-hidden="true" />
          <UnreadBadge count={unread} className="absolute top-1 right-0.5 sm:top-0.5 sm:right-0" />
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" collisionPadding={8} className="flex w-[calc(100vw-1rem)] max-w-sm flex-col p-0">
        <div className="flex items-center justify-between gap-2 border-b px-1 py-1">
          <DropdownMenuLabel className="px-2 text-base font-semibold">Notifications</DropdownMenuLabel>
          <DropdownMenuItem
            className="min-h-11 text-primary sm:min-h-9 dark:text-primary"
            disabled={unread === 0 || isMarkingAllRead}
            onSelect={(event) => {
              // The menu stays open to show everything read.
              event.preventDefault();
              markAllRead();
            }}
          >
            <CheckCheck aria-hidden="true" />
            Mark all as read
          </DropdownMenuItem>
        </div>
        <div className="max-h-[min(28rem,60dvh)] overflow-y-auto p-1">
          {isPending ? (
            <p role="status" className={menuMessageClass}>
              Loading notifications…
            </p>
          ) : isError ? (
            <>
              <p role="alert" className={menuMessageClass}>
                Your notifications could not be loaded.
              </p>
              <DropdownMenuItem
                className="min-h-11 justify-center"
                disabled={isRefetching}
                onSelect={(event) => {
                  event.preventDefault();
                  void refetch();
                }}
              >
                <RotateCw className={cn(isRefetching && 'animate-spin')} aria-hidden="true" />
                Try again
              </DropdownMenuItem>
            </>
          ) : notifications.length === 0 ? (
            <p className={menuMessageClass}>No notifications yet.</p>
          ) : (
            notifications.map((notification) => (
              <DropdownMenuItem
                key={notification.id}
                className={cn('items-start px-2 py-2.5', !notification.read && 'bg-primary/5')}
                onSelect={() => open(notification)}
              >
                <NotificationSummary notification={notification} />
              </DropdownMenuItem>
            ))
          )}
        </div>
        <DropdownMenuSeparator className="mx-0 my-0" />
        <div className="p-1">
          <DropdownMenuItem asChild className="min-h-11 justify-center font-medium sm:min-h-9">
            <Link to="/notifications">See all notifications</Link>
          </DropdownMenuItem>
        </div>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
