import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { deferred, mockFetch, type MockHandler, type MockResponse } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { cardOf, renderApp } from '@/test/render-app';
import type { NotificationSettings, User } from '@/lib/types';

const SETTINGS_URL = '/api/user/notification-settings';
const BOTH_ON: NotificationSettings = { email: true, push: true, emailAvailable: true };

/** The settings page; the notification preferences answer `settings` and a PUT answers what it was sent. */
function renderSettings(user: User, routes: Record<string, MockHandler> = {}, settings: NotificationSettings = BOTH_ON) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: user },
    [`GET ${SETTINGS_URL}`]: { body: settings },
    [`PUT ${SETTINGS_URL}`]: ({ json }) => ({ body: { ...settings, ...(json as Partial<NotificationSettings>) } }),
    ...routes,
  });
  return { requests, ...renderApp('/settings') };
}

const puts = (requests: { method: string; url: string; json: unknown }[]) =>
  requests.filter((r) => r.method === 'PUT' && r.url === SETTINGS_URL).map((r) => r.json);

describe('settings page', () => {
  it('shows the account information', async () => {
    renderSettings(makeUser({ createdAt: '2025-07-28T10:00:00.000Z' }));
    const section = await cardOf('Account Information');
    expect(within(section).getByText('Sam the Snapper')).toBeInTheDocument();
    expect(within(section).getByText('sam@example.com')).toBeInTheDocument();
    expect(within(section).getByText('User')).toBeInTheDocument();
    expect(within(section).getByText('Jul 28, 2025')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Administrator Panel' })).not.toBeInTheDocument();
  });

  it('falls back to Not provided and Unknown, and shows the admin panel to admins', async () => {
    renderSettings(makeUser({ email: null, createdAt: null, isAdmin: true }));
    expect(await screen.findByText('Not provided')).toBeInTheDocument();
    expect(screen.getByText('Unknown')).toBeInTheDocument();
    expect(screen.getByText('Administrator')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Administrator Panel' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
  });

  it('has notification and privacy toggles with their defaults, confirming each change', async () => {
    const { requests } = renderSettings(makeUser());
    const email = await screen.findByRole('switch', { name: 'Email Notifications' });
    await waitFor(() => expect(email).toBeEnabled());
    expect(email).toBeChecked();
    expect(screen.getByText('Receive email notifications for votes, comments and updates.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Push Notifications' })).toBeChecked();
    expect(screen.getByText('Receive push notifications in your browser.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Public Profile' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Show Email Address' })).not.toBeChecked();
    expect(screen.queryByText('This site does not send email yet.')).not.toBeInTheDocument();

    await userEvent.click(email);
    expect(email).not.toBeChecked();
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(screen.getByText('Email notifications disabled.')).toBeInTheDocument();
    expect(puts(requests)).toEqual([{ email: false }]);

    await userEvent.click(screen.getByRole('switch', { name: 'Push Notifications' }));
    expect(await screen.findByText('Push notifications disabled.')).toBeInTheDocument();
    expect(puts(requests)).toEqual([{ email: false }, { push: false }]);

    await userEvent.click(screen.getByRole('switch', { name: 'Show Email Address' }));
    expect(screen.getByText('Privacy Settings Updated')).toBeInTheDocument();
    // Privacy stays on this page (SPEC §4): nothing more is sent.
    expect(puts(requests)).toHaveLength(2);
  });

  it('shows the saved notification preferences, and cannot change them until they are here', async () => {
    const saved = deferred<MockResponse>();
    renderSettings(makeUser(), { [`GET ${SETTINGS_URL}`]: () => saved.promise });
    const email = await screen.findByRole('switch', { name: 'Email Notifications' });
    expect(email).toBeDisabled();
    expect(screen.getByRole('switch', { name: 'Push Notifications' })).toBeDisabled();
    saved.resolve({ body: { email: false, push: true, emailAvailable: true } });
    await waitFor(() => expect(email).toBeEnabled());
    expect(email).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Push Notifications' })).toBeChecked();

    await userEvent.click(email);
    expect(await screen.findByText('Email notifications enabled.')).toBeInTheDocument();
    expect(email).toBeChecked();
  });

  it('turns a preference back and says so when it cannot be saved', async () => {
    renderSettings(makeUser(), { [`PUT ${SETTINGS_URL}`]: { status: 500, text: 'boom' } });
    const push = await screen.findByRole('switch', { name: 'Push Notifications' });
    await waitFor(() => expect(push).toBeEnabled());
    await userEvent.click(push);
    expect(await screen.findByText('Failed to update notification settings. Please try again.')).toBeInTheDocument();
    expect(push).toBeChecked();
    expect(screen.queryByText('Settings Updated')).not.toBeInTheDocument();
  });

  it('says when the site sends no email, keeping the email toggle', async () => {
    const { requests } = renderSettings(makeUser(), {}, { email: true, push: true, emailAvailable: false });
    expect(await screen.findByText('This site does not send email yet.')).toBeInTheDocument();
    const email = screen.getByRole('switch', { name: 'Email Notifications' });
    expect(email).toHaveAccessibleDescription(/This site does not send email yet\./);
    await userEvent.click(email);
    expect(await screen.findByText('Settings Updated')).toBeInTheDocument();
    expect(puts(requests)).toEqual([{ email: false }]);
  });

  it('offers to load the notification preferences again when they could not be', async () => {
    let calls = 0;
    renderSettings(makeUser(), {
      [`GET ${SETTINGS_URL}`]: () => (++calls === 1 ? { status: 500, text: 'down' } : { body: BOTH_ON }),
    });
    const section = await cardOf('Notification Preferences');
    expect(await within(section).findByRole('alert')).toHaveTextContent('Your notification preferences could not be loaded.');
    expect(within(section).getByRole('switch', { name: 'Email Notifications' })).toBeDisabled();
    await userEvent.click(within(section).getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(within(section).getByRole('switch', { name: 'Email Notifications' })).toBeEnabled());
    expect(within(section).queryByRole('alert')).not.toBeInTheDocument();
  });

  it('switches dark mode and remembers it', async () => {
    renderSettings(makeUser());
    await userEvent.click(await screen.findByRole('switch', { name: 'Dark Mode' }));
    expect(document.documentElement).toHaveClass('dark');
    expect(localStorage.getItem('theme')).toBe('dark');
  });

  it('confirms before the (not yet available) account deletion', async () => {
    renderSettings(makeUser());
    await userEvent.click(await screen.findByRole('button', { name: 'Delete Account' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Are you absolutely sure?' });
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete my account' }));
    expect(screen.getByText('Account Deletion')).toBeInTheDocument();
    expect(screen.getByText('Account deletion is not implemented yet. Please contact support.')).toBeInTheDocument();
  });

  it('signs out', async () => {
    renderSettings(makeUser());
    const actions = await cardOf('Security & Account Actions');
    await userEvent.click(within(actions).getByRole('button', { name: 'Sign Out' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/logout');
  });
});
