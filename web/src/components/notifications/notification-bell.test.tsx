import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { MemberNotification } from '@/lib/types';
import { deferred, mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeNotification, makeNotificationPage, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

vi.setConfig({ testTimeout: 20_000 });

const MENU_URL = '/api/notifications?page=1&limit=10';

const APPROVED = makeNotification({ id: 3, title: 'Your photo was approved', body: '"Wall crack" is now in the gallery.' });
const REPORT = makeNotification({ id: 2, kind: 'report_outcome', photoId: null, title: 'Your report was reviewed', body: 'An admin looked at it.' });
const ANSWERED = makeNotification({
  id: 1,
  kind: 'support_resolved',
  photoId: null,
  title: 'Your message was answered',
  body: '"Help" is marked resolved.',
  read: true,
});

function renderSignedIn(routes: Record<string, MockHandler> = {}, path = '/legal') {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    [`GET ${MENU_URL}`]: { body: makeNotificationPage([APPROVED, REPORT, ANSWERED]) },
    ...routes,
  });
  return { requests, ...renderApp(path) };
}

const bell = (name: string | RegExp = /^Notifications/) => screen.findByRole('button', { name });
const posts = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'POST').map((r) => r.url);
const location = () => screen.getByTestId('location').textContent;

async function openMenu(name?: string | RegExp) {
  await userEvent.click(await bell(name));
  return within(await screen.findByRole('menu'));
}

describe('notification bell', () => {
  it('shows the unread count in its name and badge, and lists the latest notifications', async () => {
    renderSignedIn();
    const button = await bell('Notifications, 2 unread');
    expect(within(button).getByText('2')).toBeInTheDocument();
    const menu = await openMenu('Notifications, 2 unread');
    const items = menu.getAllByRole('menuitem', { name: /^(Unread: )?Your/ });
    expect(items).toHaveLength(3);
    expect(items[0]).toHaveAccessibleName(/^Unread: Your photo was approved/);
    expect(within(items[0]!).getByText('"Wall crack" is now in the gallery.')).toBeInTheDocument();
    expect(within(items[0]!).getByText('5 minutes ago')).toBeInTheDocument();
    expect(items[2]).toHaveAccessibleName(/^Your message was answered/);
    expect(menu.getByRole('menuitem', { name: 'See all notifications' })).toHaveAttribute('href', '/notifications');
  });

  it('hides the badge at 0 and shows 99+ above 99', async () => {
    const first = renderSignedIn({ [`GET ${MENU_URL}`]: { body: makeNotificationPage([ANSWERED]) } });
    await waitFor(() => expect(first.requests.some((r) => r.url === MENU_URL)).toBe(true));
    const quiet = await bell('Notifications');
    await waitFor(() => expect(first.queryClient.isFetching()).toBe(0));
    expect(quiet.textContent).toBe('');
    first.unmount();

    renderSignedIn({ [`GET ${MENU_URL}`]: { body: makeNotificationPage([APPROVED], { unread: 150 }) } });
    expect(within(await bell('Notifications, 150 unread')).getByText('99+')).toBeInTheDocument();
  });

  it('marks a notification read and goes where it points', async () => {
    const { requests } = renderSignedIn({ 'POST /api/notifications/3/read': { body: { unread: 1 } } });
    const menu = await openMenu('Notifications, 2 unread');
    await userEvent.click(menu.getByRole('menuitem', { name: /Your photo was approved/ }));
    await waitFor(() => expect(location()).toBe('/dashboard'));
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(posts(requests)).toEqual(['/api/notifications/3/read']);
    expect(await bell('Notifications, 1 unread')).toBeInTheDocument();
    const again = await openMenu('Notifications, 1 unread');
    expect(again.getByRole('menuitem', { name: /^Your photo was approved/ })).toBeInTheDocument();
  });

  it.each<[string, MemberNotification, string]>([
    ['a reviewed report', REPORT, '/dashboard'],
    ['an answered message', ANSWERED, '/contact'],
  ])('leads %s to its page, posting nothing for one already read', async (_name, notification, target) => {
    const { requests } = renderSignedIn({ [`POST /api/notifications/${notification.id}/read`]: { body: { unread: 1 } } });
    const menu = await openMenu();
    await userEvent.click(menu.getByRole('menuitem', { name: new RegExp(notification.title) }));
    await waitFor(() => expect(location()).toBe(target));
    expect(posts(requests)).toEqual(notification.read ? [] : [`/api/notifications/${notification.id}/read`]);
  });

  it('marks all as read, keeping the menu open', async () => {
    const { requests } = renderSignedIn({ 'POST /api/notifications/read-all': { body: { unread: 0 } } });
    const menu = await openMenu('Notifications, 2 unread');
    await userEvent.click(menu.getByRole('menuitem', { name: 'Mark all as read' }));
    await waitFor(() => expect(menu.queryByRole('menuitem', { name: /^Unread/ })).not.toBeInTheDocument());
    expect(posts(requests)).toEqual(['/api/notifications/read-all']);
    expect(screen.getByRole('menu')).toBeInTheDocument();
    expect(menu.getByRole('menuitem', { name: 'Mark all as read' })).toHaveAttribute('aria-disabled', 'true');
    expect(await bell('Notifications')).toBeInTheDocument();
  });

  it('says when a notification cannot be marked read', async () => {
    renderSignedIn({ 'POST /api/notifications/3/read': { status: 500, text: 'boom' } });
    const menu = await openMenu();
    await userEvent.click(menu.getByRole('menuitem', { name: /Your photo was approved/ }));
    expect(await screen.findByText('Failed to mark the notification as read. Please try again.')).toBeInTheDocument();
    expect(await bell('Notifications, 2 unread')).toBeInTheDocument();
  });

  it('closes with Escape and gives focus back to the bell', async () => {
    renderSignedIn();
    const menu = await openMenu('Notifications, 2 unread');
    expect(menu.getAllByRole('menuitem').length).toBeGreaterThan(0);
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('menu')).not.toBeInTheDocument();
    expect(await bell('Notifications, 2 unread')).toHaveFocus();
  });

  it('shows loading, empty and error states', async () => {
    const slow = deferred<{ body: unknown }>();
    renderSignedIn({ [`GET ${MENU_URL}`]: () => slow.promise });
    await userEvent.click(await bell('Notifications'));
    expect(within(screen.getByRole('menu')).getByRole('status')).toHaveTextContent('Loading notifications…');
    slow.resolve({ body: makeNotificationPage([]) });
    expect(await screen.findByText('No notifications yet.')).toBeInTheDocument();
  });

  it('offers to try again when the notifications cannot be loaded', async () => {
    let calls = 0;
    renderSignedIn({
      [`GET ${MENU_URL}`]: () => (++calls === 1 ? { status: 500, text: 'down' } : { body: makeNotificationPage([APPROVED]) }),
    });
    const menu = await openMenu('Notifications');
    expect(await menu.findByRole('alert')).toHaveTextContent('Your notifications could not be loaded.');
    await userEvent.click(menu.getByRole('menuitem', { name: 'Try again' }));
    expect(await menu.findByRole('menuitem', { name: /Your photo was approved/ })).toBeInTheDocument();
  });

  it('is not shown to visitors nor to members who have not accepted the terms, and asks for nothing', async () => {
    const requests = mockFetch({ 'GET /api/auth/user': { body: makeUser({ hasAcceptedTerms: false, termsAcceptedAt: null }) } });
    renderApp('/legal');
    expect(await screen.findByRole('heading', { name: 'Legal Information' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Notifications/ })).not.toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/notifications'))).toBe(false);
  });

  it('has a Notifications link with the count in the mobile drawer', async () => {
    renderSignedIn();
    await bell('Notifications, 2 unread');
    await userEvent.click(screen.getByRole('button', { name: 'Open navigation menu' }));
    const drawer = within(screen.getByRole('dialog', { name: 'Menu' }));
    const link = drawer.getByRole('link', { name: /^Notifications\s*, 2 unread$/ });
    expect(link).toHaveAttribute('href', '/notifications');
    expect(within(link).getByText('2')).toBeInTheDocument();
  });
});
