import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { redirectTo } from '@/lib/browser';
import { getToasts } from '@/lib/toast';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

const SIGNED_OUT: MockHandler = { status: 401, text: '{"message":"Unauthorized"}' };

function mockSession(userResponse: MockHandler) {
  return mockFetch({
    'GET /api/auth/user': userResponse,
    'GET /api/photos': { body: [] },
    'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
  });
}

async function expectHeading(name: string | RegExp) {
  expect(await screen.findByRole('heading', { name })).toBeInTheDocument();
}

describe('routes when signed out', () => {
  it('shows the landing page at / without the app navbar', async () => {
    mockSession(SIGNED_OUT);
    renderApp('/');
    await expectHeading('Snap, Share, Vote');
    expect(screen.queryByRole('navigation', { name: 'Main' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Start Snapping' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vote on Photos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Now' })).toBeInTheDocument();
    // The current-user call's 401 means signed out (SPEC §4): not the Unauthorized toast and its redirect.
    expect(getToasts()).toHaveLength(0);
    expect(redirectTo).not.toHaveBeenCalled();
  });

  it('asks to sign in on /upload with a card titled Snap Cracks', async () => {
    mockSession(SIGNED_OUT);
    renderApp('/upload');
    await expectHeading('Snap Cracks');
    await userEvent.click(screen.getByRole('button', { name: 'Sign In to Snap' }));
    // Back to /upload once signed in.
    expect(redirectTo).toHaveBeenCalledWith('/api/login?returnTo=/upload');
    expect(screen.getByText(/signing in creates your snap cracks account/i)).toBeInTheDocument();
  });

  it.each([
    ['/dashboard', 'Dashboard'],
    ['/admin', 'Admin'],
    ['/admin/users', 'Admin'],
    ['/admin/desk', 'Admin'],
    ['/admin/support', 'Admin'],
    ['/admin/raters', 'Admin'],
    ['/profile', 'Profile'],
    ['/settings', 'Settings'],
    ['/notifications', 'Notifications'],
  ])('shows a sign-in-required card on %s titled %s', async (path, title) => {
    mockSession(SIGNED_OUT);
    renderApp(path);
    await screen.findByRole('heading', { name: title });
    // The card's own button, not the navbar's.
    await userEvent.click(within(screen.getByRole('main')).getByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenCalledWith(`/api/login?returnTo=${path}`);
  });

  it.each([
    ['/legal', 'Legal Information'],
    ['/contact', 'Contact Us'],
    ['/terms-acceptance', 'Welcome to Snap Cracks!'],
    ['/google-drive-setup', 'Google Drive Setup'],
    ['/no-such-page', '404 Page Not Found'],
  ])('renders %s', async (path, heading) => {
    mockSession(SIGNED_OUT);
    renderApp(path);
    await expectHeading(heading);
  });

  it('shows the navbar Sign In button on framed pages', async () => {
    mockSession(SIGNED_OUT);
    renderApp('/legal');
    await expectHeading('Legal Information');
    const header = screen.getByRole('banner');
    await userEvent.click(within(header).getByRole('button', { name: 'Sign In' }));
    expect(redirectTo).toHaveBeenCalledWith('/api/login?returnTo=/legal');
  });
});

describe('routes while the session is loading', () => {
  const pending: MockHandler = () => new Promise(() => {});

  it('serves the public pages', async () => {
    mockSession(pending);
    renderApp('/legal');
    await expectHeading('Legal Information');
  });

  it('shows a skeleton, not a sign-in prompt, on protected pages', async () => {
    mockSession(pending);
    renderApp('/dashboard');
    expect(await screen.findByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Dashboard' })).not.toBeInTheDocument();
  });

  it('still shows the not-found page for unknown paths', async () => {
    mockSession(pending);
    renderApp('/no-such-page');
    await expectHeading('404 Page Not Found');
  });
});

describe('routes when signed in without accepted terms', () => {
  const termsPending = { body: makeUser({ hasAcceptedTerms: false, termsAcceptedAt: null }) };

  it.each(['/terms-acceptance', '/', '/upload', '/dashboard', '/admin', '/profile', '/settings', '/notifications', '/google-drive-setup', '/nope'])(
    'shows the terms-acceptance screen on %s',
    async (path) => {
      mockSession(termsPending);
      renderApp(path);
      await expectHeading('Welcome to Snap Cracks!');
      expect(screen.getByRole('button', { name: 'Accept and Continue' })).toBeInTheDocument();
    },
  );

  it.each([
    ['/legal', 'Legal Information'],
    ['/contact', 'Contact Us'],
  ])('lets %s through', async (path, heading) => {
    mockSession(termsPending);
    renderApp(path);
    await expectHeading(heading);
  });
});

describe('routes when signed in with accepted terms', () => {
  it.each([
    ['/', /Welcome back, Sam the Snapper/],
    ['/upload', 'Snap a Crack'],
    ['/dashboard', 'My Dashboard'],
    ['/profile', 'My Profile'],
    ['/settings', 'Settings'],
    ['/notifications', 'Notifications'],
    ['/legal', 'Legal Information'],
    ['/contact', 'Contact Us'],
    ['/terms-acceptance', 'Welcome to Snap Cracks!'],
    ['/google-drive-setup', 'Google Drive Setup'],
  ])('renders %s', async (path, heading) => {
    mockSession({ body: makeUser() });
    renderApp(path);
    await expectHeading(heading);
  });

  it.each([
    ['/admin', 'Admin Panel'],
    ['/admin/users', 'User Management'],
    ['/admin/support', 'User Support'],
    ['/admin/desk', 'Review Desk'],
    ['/admin/raters', 'Raters'],
  ])('renders %s for administrators', async (path, heading) => {
    mockSession({ body: makeUser({ isAdmin: true }) });
    renderApp(path);
    await expectHeading(heading);
  });

  it.each(['/admin', '/admin/users', '/admin/support', '/admin/desk', '/admin/raters'])('denies %s to other users', async (path) => {
    mockSession({ body: makeUser() });
    renderApp(path);
    await expectHeading('Access Denied');
    expect(screen.getByText("You don't have permission to access the admin panel.")).toBeInTheDocument();
  });

  it('shows the not-found page for any other path', async () => {
    mockSession({ body: makeUser() });
    renderApp('/photos/unknown');
    await expectHeading('404 Page Not Found');
    expect(screen.getByText('Did you forget to add the page to the router?')).toBeInTheDocument();
  });
});

describe('session edge cases', () => {
  it('treats a disabled account (403) as signed out', async () => {
    mockSession({ status: 403, text: '{"message":"Account disabled"}' });
    renderApp('/');
    await expectHeading('Snap, Share, Vote');
  });

  it('asks for the current user once, without retrying a failure', async () => {
    const requests = mockSession(SIGNED_OUT);
    renderApp('/');
    await expectHeading('Snap, Share, Vote');
    expect(requests.filter((request) => request.url === '/api/auth/user')).toHaveLength(1);
  });
});

describe('session requests', () => {
  it('does not ask again for a signed-out session when moving between pages', async () => {
    const requests = mockSession(SIGNED_OUT);
    renderApp('/legal');
    await expectHeading('Legal Information');
    await userEvent.click(within(screen.getByRole('contentinfo')).getByRole('link', { name: 'Contact Us' }));
    await expectHeading('Contact Us');
    await userEvent.click(within(screen.getByRole('navigation', { name: 'Main' })).getByRole('link', { name: 'Dashboard' }));
    await expectHeading('Dashboard');
    expect(requests.filter((request) => request.url === '/api/auth/user')).toHaveLength(1);
  });
});
