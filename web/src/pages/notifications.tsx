import { useState } from 'react';
import { BellOff, Check, CheckCheck, RotateCw } from 'lucide-react';
import { GalleryPagination } from '@/components/gallery/gallery-pagination';
import { NotificationSummary } from '@/components/notifications/notification-summary';
import { useNotificationActions } from '@/components/notifications/use-open-notification';
import { PageContainer, PageHeader } from '@/components/page-header';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/skeleton';
import { useDocumentTitle } from '@/hooks/use-document-title';
import type { MemberNotification } from '@/lib/types';
import { cn } from '@/lib/utils';
import { useNotificationPageQuery } from '@/queries/notifications';

/** Every notification of the member, newest first, a page at a time; each leads where it points and can be marked read. */
export function NotificationsPage() {
  useDocumentTitle('Notifications');
  const [page, setPage] = useState(1);
  const { data, isPending, isError, refetch, isRefetching } = useNotificationPageQuery(page);
  const actions = useNotificationActions();
  const unread = data?.unread ?? 0;

  return (
    <PageContainer className="max-w-3xl">
      <PageHeader
        title="Notifications"
        description="What happened to your photos, your reports and your messages."
        actions={
          <Button variant="outline" onClick={actions.markAllRead} disabled={unread === 0 || actions.isMarkingAllRead}>
            <CheckCheck aria-hidden="true" />
            Mark all as read
          </Button>
        }
      />
      <div className="mt-8 flex flex-col gap-6">
        {isPending ? (
          <div role="status" aria-label="Loading notifications" className="flex flex-col gap-3">
            {Array.from({ length: 4 }, (_, index) => (
              <Skeleton key={index} className="h-20 w-full rounded-xl" />
            ))}
          </div>
        ) : isError ? (
          <div role="alert" className="flex flex-wrap items-center gap-3 rounded-md border p-4 text-sm">
            <span>Your notifications could not be loaded.</span>
            <Button variant="outline" size="sm" onClick={() => void refetch()} disabled={isRefetching}>
              <RotateCw className={cn(isRefetching && 'animate-spin')} aria-hidden="true" />
              Try again
            </Button>
          </div>
        ) : data.notifications.length === 0 ? (
          <div className="flex flex-col items-center gap-3 rounded-xl border bg-card px-4 py-12 text-center">
            <BellOff className="size-10 text-muted-foreground" aria-hidden="true" />
            <p className="text-muted-foreground">No notifications yet.</p>
          </div>
        ) : (
          <>
            <p className="text-sm text-muted-foreground" aria-live="polite">
              {unread === 0 ? 'All read.' : `${unread} unread.`}
            </p>
            <ul aria-label="Notifications" className="flex flex-col divide-y rounded-xl border bg-card">
              {data.notifications.map((notification) => (
                <NotificationRow key={notification.id} notification={notification} actions={actions} />
              ))}
            </ul>
            <GalleryPagination page={page} totalPages={data.totalPages} onPageChange={setPage} label="Notification pages" />
          </>
        )}
      </div>
    </PageContainer>
  );
}

function NotificationRow({
  notification,
  actions,
}: {
  notification: MemberNotification;
  actions: ReturnType<typeof useNotificationActions>;
}) {
  return (
    <li className={cn('flex flex-col gap-2 p-2 sm:flex-row sm:items-center', !notification.read && 'bg-primary/5')}>
      <button
        type="button"
        onClick={() => actions.open(notification)}
        className="flex min-h-11 min-w-0 flex-1 rounded-md p-2 outline-none transition-colors hover:bg-accent focus-visible:ring-2 focus-visible:ring-ring"
      >
        <NotificationSummary notification={notification} />
      </button>
      {!notification.read && (
        <Button
          variant="ghost"
          size="sm"
          className="self-end sm:self-center"
          aria-label={`Mark as read: ${notification.title}`}
          disabled={actions.isMarkingRead(notification)}
          onClick={() => actions.markRead(notification)}
        >
          <Check aria-hidden="true" />
          Mark as read
        </Button>
      )}
    </li>
  );
}
