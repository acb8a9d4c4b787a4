import { NOTIFICATIONS } from '@snapcracks/http-contract';
import { useEffect, useMemo, useState, type ReactNode } from 'react';
import { useQueryClient, type QueryClient, type QueryKey } from '@tanstack/react-query';
import { useAuth } from '@/hooks/use-auth';
import { LiveConnectionContext } from '@/hooks/use-live-connection';
import { NOTIFICATION_STREAM_URL } from '@/lib/api';
import { toast } from '@/lib/toast';
import type { MemberNotification, NotificationKind } from '@/lib/types';
import { adminStatsQueryKey } from '@/queries/admin';
import { contactFormsQueryKey } from '@/queries/contact';
import { addNotification, notificationListsQueryKey, notificationSettingsQuery, setUnreadCount } from '@/queries/notifications';

type AdminTopic = (typeof NOTIFICATIONS.adminTopics)[number];

/** What each `admin` event's topic refreshes: the queries of the admin screens, by the start of their keys. */
export const ADMIN_TOPIC_QUERIES: Record<AdminTopic, QueryKey[]> = {
  // The pending list and the other review lists (and the reported photos, which list photos too).
  photos: [['admin', 'photos'], ['admin', 'reports']],
  // The User Support screen, its counts and the admin panel's badge.
  support: [contactFormsQueryKey],
  // The admin panel's counters.
  stats: [adminStatsQueryKey],
};

/** The member's own data a notification says has changed. */
const PHOTO_NEWS: QueryKey[] = [['user', 'photos'], ['user', 'stats'], ['user', 'upload-allowance']];
const NOTIFICATION_REFRESHES: Record<NotificationKind, QueryKey[]> = {
  photo_approved: PHOTO_NEWS,
  photo_rejected: PHOTO_NEWS,
  photo_removed: PHOTO_NEWS,
  photo_reinstated: PHOTO_NEWS,
  first_vote: PHOTO_NEWS,
  vote_milestone: PHOTO_NEWS,
  high_rating: PHOTO_NEWS,
  report_outcome: [['user', 'reports']],
  support_resolved: [],
};

/**
 * How long to wait before opening the stream again once the browser has given up on it (it retries by itself after a
 * dropped connection, but not after an error answer: the gateway restarting behind a proxy, say). Meanwhile the app
 * polls as it would without a stream.
 */
export const STREAM_RETRY_MS = 30_000;

function parse<T>(event: Event): T | undefined {
  try {
    return JSON.parse((event as MessageEvent<string>).data) as T;
  } catch {
    return undefined;
  }
}

function refresh(queryClient: QueryClient, keys: QueryKey[]): void {
  for (const queryKey of keys) void queryClient.invalidateQueries({ queryKey });
}

/** Is the member's push setting on? On until known otherwise (SPEC §2: both default on). */
async function pushEnabled(queryClient: QueryClient): Promise<boolean> {
  try {
    return (await queryClient.ensureQueryData(notificationSettingsQuery)).push;
  } catch {
    return true;
  }
}

function onNotification(queryClient: QueryClient, notification: MemberNotification | undefined): void {
  if (!notification || typeof notification.id !== 'number') return;
  if (!addNotification(queryClient, notification)) return;
  refresh(queryClient, NOTIFICATION_REFRESHES[notification.kind] ?? []);
  if (notification.read) return;
  void pushEnabled(queryClient).then((push) => {
    if (push) toast({ title: notification.title, description: notification.body });
  });
}

function onAdmin(queryClient: QueryClient, topic: AdminTopic | undefined): void {
  if (topic && topic in ADMIN_TOPIC_QUERIES) refresh(queryClient, ADMIN_TOPIC_QUERIES[topic]);
}

/** After a time without the stream, what it would have said: the notifications and every admin screen. */
function catchUp(queryClient: QueryClient): void {
  refresh(queryClient, [notificationListsQueryKey, ...Object.values(ADMIN_TOPIC_QUERIES).flat()]);
}

/**
 * One live connection per tab for a signed-in member who accepted the terms: the notification stream (server-sent
 * events). New notifications go into the bell's lists and count, and show as a toast when the member's push setting
 * is on; `unread` sets the count; `admin` refreshes the admin screens of its topic. While the stream is open the
 * screens that poll stop polling (usePollingFallback); while it is down, they poll as before.
 */
export function LiveConnectionProvider({ children }: { children: ReactNode }) {
  const { status } = useAuth();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const wanted = status === 'signed-in';

  useEffect(() => {
    if (!wanted || typeof EventSource === 'undefined') return;
    let source: EventSource | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let openedBefore = false;

    const connect = () => {
      const current = new EventSource(NOTIFICATION_STREAM_URL);
      source = current;
      current.addEventListener('open', () => {
        setOpen(true);
        // Back after a gap: the stream replays missed notifications, but admin screens may have changed meanwhile.
        if (openedBefore) catchUp(queryClient);
        openedBefore = true;
      });
      current.addEventListener('error', () => {
        setOpen(current.readyState === EventSource.OPEN);
        if (current.readyState === EventSource.CLOSED) {
          current.close();
          retry = setTimeout(connect, STREAM_RETRY_MS);
        }
      });
      current.addEventListener(NOTIFICATIONS.streamEvents.notification, (event) => onNotification(queryClient, parse<MemberNotification>(event)));
      current.addEventListener(NOTIFICATIONS.streamEvents.unread, (event) => {
        const unread = parse<{ unread: number }>(event)?.unread;
        if (typeof unread === 'number') setUnreadCount(queryClient, unread);
      });
      current.addEventListener(NOTIFICATIONS.streamEvents.admin, (event) => onAdmin(queryClient, parse<{ topic: AdminTopic }>(event)?.topic));
    };

    connect();
    return () => {
      clearTimeout(retry);
      source?.close();
      setOpen(false);
    };
  }, [wanted, queryClient]);

  const value = useMemo(() => ({ open: wanted && open }), [wanted, open]);
  return <LiveConnectionContext.Provider value={value}>{children}</LiveConnectionContext.Provider>;
}
