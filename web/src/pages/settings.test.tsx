import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { mockFetch } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { cardOf, renderApp } from '@/test/render-app';
import type { User } from '@/lib/types';

function renderSettings(user: User) {
  mockFetch({ 'GET /api/auth/user': { body: user } });
  return renderApp('/settings');
}

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
    renderSettings(makeUser());
    const email = await screen.findByRole('switch', { name: 'Email Notifications' });
    expect(email).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Push Notifications' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Public Profile' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Show Email Address' })).not.toBeChecked();

    await userEvent.click(email);
    expect(email).not.toBeChecked();
    expect(screen.getByText('Settings Updated')).toBeInTheDocument();

    await userEvent.click(screen.getByRole('switch', { name: 'Show Email Address' }));
    expect(screen.getByText('Privacy Settings Updated')).toBeInTheDocument();
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
