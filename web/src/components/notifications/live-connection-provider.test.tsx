import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { getToasts } from '@/lib/toast';
import type { AdminStats, NotificationSettings } from '@/lib/types';
import { ADMIN_POLL_MS, adminPhotosQueryKey, adminStatsQueryKey } from '@/queries/admin';
import { CONTACT_FORMS_POLL_MS, contactFormsQueryKey } from '@/queries/contact';
import { notificationListQueryKey, UNREAD_POLL_MS } from '@/queries/notifications';
import { reportedPhotosQueryKey } from '@/queries/reports';
import { installFakeEventSource } from '@/test/fake-event-source';
import { mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeAdminPhoto, makeNotification, makeNotificationPage, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import { STREAM_RETRY_MS } from './live-connection-provider';

vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.useRealTimers();
});

const MENU_URL = '/api/notifications?page=1&limit=10';
const SETTINGS_URL = '/api/user/notification-settings';
const OLDER = makeNotification({ id: 4, title: 'Your photo got its first vote', body: 'Someone rated "Wall crack".' });
const NEWER = makeNotification({ id: 5, title: 'Your photo reached 10 votes', body: '"Wall crack" has been rated 10 times.', kind: 'vote_milestone' });
const settings = (push: boolean): { body: NotificationSettings } => ({ body: { email: true, push, emailAvailable: true } });

function renderMember(routes: Record<string, MockHandler> = {}, path = '/legal') {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    [`GET ${MENU_URL}`]: { body: makeNotificationPage([OLDER]) },
    [`GET ${SETTINGS_URL}`]: settings(true),
    ...routes,
  });
  return { requests, ...renderApp(path) };
}

const count = (requests: RecordedRequest[], url: string) => requests.filter((r) => r.method === 'GET' && r.url === url).length;
const bell = (name: string) => screen.findByRole('button', { name });

describe('live connection', () => {
  it('opens one stream for a member who accepted the terms, and closes it on leaving', async () => {
    const streams = installFakeEventSource();
    const { unmount } = renderMember();
    await bell('Notifications, 1 unread');
    expect(streams.instances()).toHaveLength(1);
    expect(streams.latest().url).toBe('/api/notifications/stream');
    streams.latest().open();
    // Moving between pages keeps the same stream.
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Upload' }));
    expect(await screen.findByRole('heading', { name: 'Snap a Crack' })).toBeInTheDocument();
    expect(streams.instances()).toHaveLength(1);
    unmount();
    expect(streams.latest().readyState).toBe(EventSource.CLOSED);
  });

  it.each([
    ['a visitor', { status: 401, text: '{"message":"Unauthorized"}' }],
    ['a member who has not accepted the terms', { body: makeUser({ hasAcceptedTerms: false, termsAcceptedAt: null }) }],
  ])('opens none for %s', async (_name, session) => {
    const streams = installFakeEventSource();
    mockFetch({ 'GET /api/auth/user': session });
    renderApp('/legal');
    expect(await screen.findByRole('heading', { name: 'Legal Information' })).toBeInTheDocument();
    expect(streams.instances()).toHaveLength(0);
  });

  it('adds a new notification to the bell, counts it and shows it as a toast when push is on', async () => {
    const streams = installFakeEventSource();
    const { requests } = renderMember();
    await bell('Notifications, 1 unread');
    streams.latest().open();
    expect(count(requests, SETTINGS_URL)).toBe(0);

    streams.latest().emit('notification', NEWER, '5');
    expect(await bell('Notifications, 2 unread')).toBeInTheDocument();
    await waitFor(() => expect(getToasts()).toHaveLength(1));
    expect(getToasts()[0]).toMatchObject({ title: 'Your photo reached 10 votes', description: '"Wall crack" has been rated 10 times.' });
    expect(await screen.findByText('Your photo reached 10 votes')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Notifications, 2 unread' }));
    const items = within(await screen.findByRole('menu')).getAllByRole('menuitem', { name: /^Unread/ });
    expect(items).toHaveLength(2);
    expect(items[0]).toHaveAccessibleName(/^Unread: Your photo reached 10 votes/);
    expect(items[1]).toHaveAccessibleName(/^Unread: Your photo got its first vote/);
    // Asked for once (the settings), and the list not fetched again: the event had it all.
    expect(count(requests, SETTINGS_URL)).toBe(1);
    expect(count(requests, MENU_URL)).toBe(1);
  });

  it('counts a new notification without a toast when push is off, and ignores one it already has', async () => {
    const streams = installFakeEventSource();
    renderMember({ [`GET ${SETTINGS_URL}`]: settings(false) });
    await bell('Notifications, 1 unread');
    streams.latest().open();
    streams.latest().emit('notification', NEWER, '5');
    expect(await bell('Notifications, 2 unread')).toBeInTheDocument();
    // A replay of one already here (after a reconnection) changes nothing.
    streams.latest().emit('notification', OLDER, '4');
    streams.latest().emit('notification', NEWER, '5');
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)));
    expect(screen.getByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    expect(getToasts()).toHaveLength(0);
  });

  it('sets the count from the unread event', async () => {
    const streams = installFakeEventSource();
    renderMember();
    await bell('Notifications, 1 unread');
    streams.latest().open();
    streams.latest().emit('unread', { unread: 7 });
    expect(await bell('Notifications, 7 unread')).toBeInTheDocument();
    streams.latest().emit('unread', { unread: 0 });
    expect(await bell('Notifications')).toBeInTheDocument();
  });

  it('refreshes the member’s own photos when one of them is news', async () => {
    const streams = installFakeEventSource();
    const { requests } = renderMember({ 'GET /api/user/photos': { body: [] }, 'GET /api/user/stats': { status: 500, text: '' } }, '/dashboard');
    await bell('Notifications, 1 unread');
    await waitFor(() => expect(count(requests, '/api/user/photos')).toBe(1));
    streams.latest().open();
    streams.latest().emit('notification', makeNotification({ id: 9, kind: 'photo_approved' }));
    await waitFor(() => expect(count(requests, '/api/user/photos')).toBe(2));
  });
});

describe('live connection for admins', () => {
  const STATS: AdminStats = { pendingReviews: 1, approvedToday: 0, rejectedToday: 0, totalPhotos: 1 };
  const STATS_URL = '/api/admin/stats';
  const PENDING_URL = '/api/admin/photos/pending?page=1&limit=12';
  const NEW_COUNT_URL = '/api/admin/contact-forms?status=new&page=1&limit=1';

  function renderAdmin() {
    const requests = mockFetch({
      'GET /api/auth/user': { body: makeUser({ id: 'admin-1', isAdmin: true }) },
      [`GET ${MENU_URL}`]: { body: makeNotificationPage([]) },
      [`GET ${STATS_URL}`]: { body: STATS },
      [`GET ${PENDING_URL}`]: { body: { photos: [makeAdminPhoto({ id: 1, description: 'Pending crack' })], total: 1, totalPages: 1 } },
      [`GET ${NEW_COUNT_URL}`]: {
        body: { items: [], counts: { new: 2, in_progress: 0, resolved: 0, total: 2 }, total: 2, page: 1, totalPages: 1 },
      },
    });
    return { requests, ...renderApp('/admin') };
  }

  async function ready(requests: RecordedRequest[]) {
    expect(await screen.findByRole('listitem', { name: 'Pending crack' })).toBeInTheDocument();
    await waitFor(() => expect(count(requests, NEW_COUNT_URL)).toBe(1));
    await waitFor(() => expect(count(requests, MENU_URL)).toBe(1));
  }

  /** The polling interval each watcher of a query asked for. */
  const intervals = (queryClient: QueryClient, queryKey: QueryKey) =>
    queryClient
      .getQueryCache()
      .find({ queryKey, exact: true })
      ?.observers.map((observer) => observer.options.refetchInterval);

  function expectPolling(queryClient: QueryClient, on: boolean) {
    expect(intervals(queryClient, adminStatsQueryKey)).toEqual([on ? ADMIN_POLL_MS : false]);
    expect(intervals(queryClient, adminPhotosQueryKey('pending', 1))).toEqual([on ? ADMIN_POLL_MS : false]);
    expect(intervals(queryClient, [...contactFormsQueryKey, 'new-count'])).toEqual([on ? CONTACT_FORMS_POLL_MS : false]);
    // A new report that does not yet hold its photo sends no event, so the reported photos keep polling either way.
    expect(intervals(queryClient, reportedPhotosQueryKey('newest', 1))).toEqual([ADMIN_POLL_MS]);
    // The bell polls the count; the drawer's link only reads it.
    const bellIntervals = intervals(queryClient, notificationListQueryKey(1, 10));
    if (on) expect(bellIntervals).toContain(UNREAD_POLL_MS);
    else expect(bellIntervals?.every((interval) => interval === false)).toBe(true);
  }

  it('polls as before while the stream is down, and not at all while it is open', async () => {
    const streams = installFakeEventSource();
    const { requests, queryClient } = renderAdmin();
    await ready(requests);
    expect([ADMIN_POLL_MS, CONTACT_FORMS_POLL_MS, UNREAD_POLL_MS]).toEqual([5000, 30_000, 30_000]);
    // Connecting: still polling.
    expectPolling(queryClient, true);

    streams.latest().open();
    await waitFor(() => expectPolling(queryClient, false));

    // Dropped (the browser is reconnecting): polling again, at the same intervals.
    streams.latest().drop();
    await waitFor(() => expectPolling(queryClient, true));

    streams.latest().open();
    await waitFor(() => expectPolling(queryClient, false));
  });

  it('sends no polling requests while the stream is open', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const streams = installFakeEventSource();
    const { requests } = renderAdmin();
    await ready(requests);
    streams.latest().open();
    const before = requests.length;
    await act(() => vi.advanceTimersByTimeAsync(CONTACT_FORMS_POLL_MS * 2 + 100));
    expect(requests.slice(before).map((r) => r.url).filter((url) => !url.includes('/api/admin/reports'))).toEqual([]);

    streams.latest().drop();
    await act(() => vi.advanceTimersByTimeAsync(ADMIN_POLL_MS + 100));
    expect(count(requests.slice(before), STATS_URL)).toBeGreaterThanOrEqual(1);
    expect(count(requests.slice(before), PENDING_URL)).toBeGreaterThanOrEqual(1);
  });

  it.each([
    ['photos', [PENDING_URL]],
    ['stats', [STATS_URL]],
    ['support', [NEW_COUNT_URL]],
  ])('refreshes the admin screens of the %s topic', async (topic, refreshed) => {
    const streams = installFakeEventSource();
    const { requests } = renderAdmin();
    await ready(requests);
    streams.latest().open();
    const watched = [PENDING_URL, STATS_URL, NEW_COUNT_URL];
    const before = Object.fromEntries(watched.map((url) => [url, count(requests, url)]));
    streams.latest().emit('admin', { topic });
    for (const url of refreshed) await waitFor(() => expect(count(requests, url)).toBe(before[url]! + 1));
    for (const url of watched.filter((url) => !refreshed.includes(url))) expect(count(requests, url)).toBe(before[url]);
  });

  it('catches up when the stream opens again after a gap, and opens a new one once the browser gives up', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const streams = installFakeEventSource();
    const { requests } = renderAdmin();
    await ready(requests);
    streams.latest().open();
    const stats = count(requests, STATS_URL);
    streams.latest().drop();
    streams.latest().open();
    await waitFor(() => expect(count(requests, STATS_URL)).toBe(stats + 1));
    await waitFor(() => expect(count(requests, MENU_URL)).toBe(2));

    streams.latest().drop({ closed: true });
    expect(streams.instances()).toHaveLength(1);
    await act(() => vi.advanceTimersByTimeAsync(STREAM_RETRY_MS));
    expect(streams.instances()).toHaveLength(2);
    expect(streams.instances()[0]!.readyState).toBe(EventSource.CLOSED);
  });
});
