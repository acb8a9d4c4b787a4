import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { deferred, mockFetch, type MockHandler, type MockResponse, type RecordedRequest } from '@/test/fetch-mock';
import { makeNotification, makeNotificationPage, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

vi.setConfig({ testTimeout: 20_000 });

const pageUrl = (page: number) => `/api/notifications?page=${page}&limit=20`;
const MENU_URL = '/api/notifications?page=1&limit=10';

const FIRST = Array.from({ length: 20 }, (_, index) =>
  makeNotification({ id: 40 - index, title: `Notice ${40 - index}`, read: index >= 2 }),
);
const SECOND = [
  makeNotification({ id: 20, kind: 'support_resolved', photoId: null, title: 'Your message was answered', body: '"Help" is marked resolved.' }),
];
const TWO_PAGES = { total: 21, totalPages: 2, unread: 3 };

function renderNotifications(routes: Record<string, MockHandler> = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    [`GET ${MENU_URL}`]: { body: makeNotificationPage(FIRST.slice(0, 10), TWO_PAGES) },
    [`GET ${pageUrl(1)}`]: { body: makeNotificationPage(FIRST, TWO_PAGES) },
    [`GET ${pageUrl(2)}`]: { body: makeNotificationPage(SECOND, { ...TWO_PAGES, notifications: SECOND }) },
    ...routes,
  });
  return { requests, ...renderApp('/notifications') };
}

const list = async () => within(await screen.findByRole('list', { name: 'Notifications' }));
const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').map((r) => r.url);

describe('notifications page', () => {
  it('lists the notifications a page at a time', async () => {
    renderNotifications();
    expect(await screen.findByRole('heading', { level: 1, name: 'Notifications' })).toBeInTheDocument();
    const first = await list();
    expect(first.getAllByRole('listitem')).toHaveLength(20);
    expect(first.getAllByRole('button', { name: /^Unread: / })).toHaveLength(2);
    expect(screen.getByText('Page 1 of 2')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Previous page' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Page 2 of 2')).toBeInTheDocument();
    const second = await list();
    await waitFor(() => expect(second.getAllByRole('listitem')).toHaveLength(1));
    expect(second.getByRole('button', { name: /^Unread: Your message was answered/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Next page' })).toBeDisabled();

    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('Page 1 of 2')).toBeInTheDocument();
  });

  it('marks one read without leaving the page, and the bell counts one fewer', async () => {
    const { requests } = renderNotifications({ 'POST /api/notifications/40/read': { body: { unread: 2 } } });
    const items = await list();
    expect(await screen.findByRole('button', { name: 'Notifications, 3 unread' })).toBeInTheDocument();
    await userEvent.click(items.getByRole('button', { name: 'Mark as read: Notice 40' }));
    await waitFor(() => expect(items.queryByRole('button', { name: 'Mark as read: Notice 40' })).not.toBeInTheDocument());
    expect(items.getByRole('button', { name: /^Notice 40/ })).toBeInTheDocument();
    expect(posts(requests)).toEqual(['/api/notifications/40/read']);
    expect(screen.getByTestId('location')).toHaveTextContent('/notifications');
    expect(await screen.findByRole('button', { name: 'Notifications, 2 unread' })).toBeInTheDocument();
    expect(screen.getByText('2 unread.')).toBeInTheDocument();
  });

  it('opens a notification where it points, marking it read', async () => {
    const { requests } = renderNotifications({ 'POST /api/notifications/39/read': { body: { unread: 2 } } });
    await userEvent.click((await list()).getByRole('button', { name: /^Unread: Notice 39/ }));
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/dashboard'));
    expect(posts(requests)).toEqual(['/api/notifications/39/read']);
  });

  it('marks all read', async () => {
    const { requests } = renderNotifications({ 'POST /api/notifications/read-all': { body: { unread: 0 } } });
    const items = await list();
    const markAll = screen.getByRole('button', { name: 'Mark all as read' });
    await userEvent.click(markAll);
    await waitFor(() => expect(items.queryAllByRole('button', { name: /^Mark as read/ })).toHaveLength(0));
    expect(items.queryAllByRole('button', { name: /^Unread: / })).toHaveLength(0);
    expect(markAll).toBeDisabled();
    expect(screen.getByText('All read.')).toBeInTheDocument();
    expect(posts(requests)).toEqual(['/api/notifications/read-all']);
  });

  it('says when there are none', async () => {
    const empty = { body: makeNotificationPage([]) };
    renderNotifications({ [`GET ${pageUrl(1)}`]: empty, [`GET ${MENU_URL}`]: empty });
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Mark all as read' })).toBeDisabled();
    expect(screen.queryByText(/Page \d of/)).not.toBeInTheDocument();
  });

  it('shows a placeholder while loading, and offers to try again after a failure', async () => {
    const first = deferred<MockResponse>();
    let calls = 0;
    renderNotifications({
      [`GET ${pageUrl(1)}`]: () => (++calls === 1 ? first.promise : { body: makeNotificationPage(FIRST, TWO_PAGES) }),
    });
    expect(await screen.findByRole('status', { name: 'Loading notifications' })).toBeInTheDocument();
    first.resolve({ status: 500, text: 'down' });
    expect(await screen.findByRole('alert')).toHaveTextContent('Your notifications could not be loaded.');
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await list()).getAllByRole('listitem')).toHaveLength(20);
  });
});
