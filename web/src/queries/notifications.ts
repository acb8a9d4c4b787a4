import { PAGES, WEB } from '@snapcracks/http-contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { usePollingFallback } from '@/hooks/use-live-connection';
import { api } from '@/lib/api';
import type { ErrorToast } from '@/lib/query-client';
import type { MemberNotification, NotificationPage, NotificationSettings } from '@/lib/types';

/** The bell's menu shows the latest ten. */
export const NOTIFICATION_MENU_SIZE = 10;
/** The notifications page shows the contract's default page size. */
export const NOTIFICATION_PAGE_SIZE = PAGES.limits.notifications.default;
/** While the live connection is down, the bell asks for the unread count this often. */
export const UNREAD_POLL_MS = WEB.unreadPollMs;

/** Every page of notifications starts with this, so one update or invalidation reaches them all. */
export const notificationListsQueryKey = ['notifications', 'list'] as const;
export const notificationListQueryKey = (page: number, limit: number) => [...notificationListsQueryKey, { page, limit }] as const;
export const notificationSettingsQueryKey = ['user', 'notification-settings'] as const;

type ListQueryKey = ReturnType<typeof notificationListQueryKey>;

/**
 * The bell's latest notifications and the unread count, polled every 30 s while the live connection is down (the
 * stream brings new ones and the count otherwise). Asked only for members who accepted the terms.
 */
export function useNotificationMenuQuery({ enabled }: { enabled: boolean }) {
  const refetchInterval = usePollingFallback(UNREAD_POLL_MS);
  return useQuery({
    queryKey: notificationListQueryKey(1, NOTIFICATION_MENU_SIZE),
    queryFn: () => api.notifications.list(1, NOTIFICATION_MENU_SIZE),
    refetchInterval,
    enabled,
  });
}

/** The unread count the bell shows, from the bell's own query (which polls); undefined until known. */
export function useUnreadNotificationCount({ enabled }: { enabled: boolean }): number | undefined {
  const { data } = useQuery({
    queryKey: notificationListQueryKey(1, NOTIFICATION_MENU_SIZE),
    queryFn: () => api.notifications.list(1, NOTIFICATION_MENU_SIZE),
    select: (page) => page.unread,
    enabled,
  });
  return enabled ? data : undefined;
}

/** One page of the notifications page, asked for again each time the page opens. */
export function useNotificationPageQuery(page: number) {
  return useQuery({
    queryKey: notificationListQueryKey(page, NOTIFICATION_PAGE_SIZE),
    queryFn: () => api.notifications.list(page, NOTIFICATION_PAGE_SIZE),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

function updateLists(queryClient: QueryClient, update: (page: NotificationPage, key: ListQueryKey) => NotificationPage): void {
  for (const [queryKey, data] of queryClient.getQueriesData<NotificationPage>({ queryKey: notificationListsQueryKey })) {
    if (!data) continue;
    const next = update(data, queryKey as ListQueryKey);
    if (next !== data) queryClient.setQueryData(queryKey, next);
  }
}

/** Sets the unread count on every page held (the stream's `unread` event, and the answers to marking read). */
export function setUnreadCount(queryClient: QueryClient, unread: number): void {
  updateLists(queryClient, (page) => (page.unread === unread ? page : { ...page, unread }));
}

function markRead(queryClient: QueryClient, isTarget: (notification: MemberNotification) => boolean, unread: number): void {
  updateLists(queryClient, (page) => ({
    ...page,
    unread,
    notifications: page.notifications.map((item) => (!item.read && isTarget(item) ? { ...item, read: true } : item)),
  }));
}

/**
 * Adds a notification the stream brought: at the top of every first page held, counted as unread; later pages shift,
 * so they are fetched again. Answers whether it was new to this tab: one it already holds, or older than the newest it
 * holds (ids grow with every notification), was seen before (a replay after reconnecting) and changes nothing.
 */
export function addNotification(queryClient: QueryClient, notification: MemberNotification): boolean {
  const lists = queryClient.getQueriesData<NotificationPage>({ queryKey: notificationListsQueryKey });
  const known = lists.flatMap(([, data]) => data?.notifications ?? []);
  const newestKnown = known.reduce((newest, item) => Math.max(newest, item.id), Number.NEGATIVE_INFINITY);
  if (known.some((item) => item.id === notification.id) || notification.id < newestKnown) return false;

  updateLists(queryClient, (page, [, , { page: number, limit }]) => {
    if (number !== 1) return page;
    const total = page.total + 1;
    return {
      notifications: [notification, ...page.notifications].slice(0, limit),
      total,
      totalPages: Math.ceil(total / limit),
      unread: page.unread + (notification.read ? 0 : 1),
    };
  });
  void queryClient.invalidateQueries({
    queryKey: notificationListsQueryKey,
    predicate: ({ queryKey }) => (queryKey as ListQueryKey)[2]?.page !== 1,
  });
  return true;
}

/** Marks one notification read; every page held shows it read, with the count the server answers. */
export function useReadNotificationMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.notifications.read(id),
    onSuccess: ({ unread }, id) => markRead(queryClient, (item) => item.id === id, unread),
    meta: { errorToast },
  });
}

/** Marks every notification read. */
export function useReadAllNotificationsMutation(errorToast: ErrorToast) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: api.notifications.readAll,
    onSuccess: ({ unread }) => markRead(queryClient, () => true, unread),
    meta: { errorToast },
  });
}

/** Where to find the member's notification preferences, for the settings page and the live connection's toasts. */
export const notificationSettingsQuery = queryOptions({
  queryKey: notificationSettingsQueryKey,
  queryFn: api.notifications.settings,
});

export function useNotificationSettingsQuery() {
  return useQuery(notificationSettingsQuery);
}

export type NotificationPreference = 'email' | 'push';

/**
 * Turns one preference on or off, shown at once; `onSaved` runs with the server's answer. A failure turns that one
 * preference back (the other may be saving meanwhile) and shows `errorToast`.
 */
export function useUpdateNotificationSettingMutation(errorToast: ErrorToast, onSaved: (key: NotificationPreference, enabled: boolean) => void) {
  const queryClient = useQueryClient();
  const setPreference = (key: NotificationPreference, enabled: boolean) =>
    queryClient.setQueryData<NotificationSettings>(notificationSettingsQueryKey, (current) => current && { ...current, [key]: enabled });
  return useMutation({
    mutationFn: ({ key, enabled }: { key: NotificationPreference; enabled: boolean }) => api.notifications.updateSettings({ [key]: enabled }),
    onMutate: async ({ key, enabled }) => {
      await queryClient.cancelQueries({ queryKey: notificationSettingsQueryKey });
      setPreference(key, enabled);
    },
    onSuccess: (settings, { key, enabled }) => {
      // The other preference may be on its way to the server: keep what the member chose for it.
      const other: NotificationPreference = key === 'email' ? 'push' : 'email';
      queryClient.setQueryData<NotificationSettings>(notificationSettingsQueryKey, (current) => ({
        ...settings,
        [other]: current ? current[other] : settings[other],
      }));
      onSaved(key, enabled);
    },
    onError: (_error, { key, enabled }) => setPreference(key, !enabled),
    meta: { errorToast },
  });
}
