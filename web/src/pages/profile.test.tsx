import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { cardOf, renderApp } from '@/test/render-app';
import { mockXhr } from '@/test/xhr-mock';
import type { User } from '@/lib/types';

function renderProfile(user: User, routes: Parameters<typeof mockFetch>[0] = {}) {
  const requests = mockFetch({ 'GET /api/auth/user': { body: user }, ...routes });
  renderApp('/profile');
  return requests;
}

const jpeg = (name = 'me.jpg', type = 'image/jpeg', size = 1024) => new File([new Uint8Array(size)], name, { type });

// The first render loads the lazy page and its components: slow on a busy machine.
describe('profile page', { timeout: 20_000 }, () => {
  it('shows the title, account status, permissions, the short user id and the quick links', async () => {
    renderProfile(makeUser({ id: '0123456789abcdef' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Profile' })).toBeInTheDocument();
    const status = await cardOf('Account Status');
    expect(within(status).getByText('Active')).toBeInTheDocument();
    expect(within(status).getAllByText('Enabled')).toHaveLength(2);
    expect(within(status).getByText('01234567')).toBeInTheDocument();
    expect(within(status).queryByText('0123456789abcdef')).not.toBeInTheDocument();
    const links = within(screen.getByRole('navigation', { name: 'Quick actions' })).getAllByRole('link');
    expect(links.map((link) => link.getAttribute('href'))).toEqual(['/settings', '/upload', '/dashboard', '/api/logout']);
  });

  it('adds the admin link for admins', async () => {
    renderProfile(makeUser({ isAdmin: true }));
    const nav = await screen.findByRole('navigation', { name: 'Quick actions' });
    expect(within(nav).getByRole('link', { name: 'Admin Dashboard' })).toHaveAttribute('href', '/admin');
    expect(screen.getByText('Administrator')).toBeInTheDocument();
  });

  it('validates the display name with the spec messages and saves it trimmed', { timeout: 15_000 }, async () => {
    const requests = renderProfile(makeUser(), {
      'PUT /api/profile': ({ json }) => ({ body: makeUser({ displayName: (json as { displayName: string }).displayName }) }),
    });
    const input = await screen.findByLabelText('Display Name');
    const save = screen.getByRole('button', { name: 'Save' });
    await userEvent.clear(input);
    await userEvent.type(input, '   ');
    await userEvent.click(save);
    expect(await screen.findByText('Display name is required')).toBeInTheDocument();
    await userEvent.clear(input);
    await userEvent.click(input);
    await userEvent.paste('x'.repeat(51));
    await userEvent.click(save);
    expect(await screen.findByText('Display name must be 50 characters or less')).toBeInTheDocument();
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);

    await userEvent.clear(input);
    await userEvent.click(input);
    await userEvent.paste('  Crack Hunter  ');
    await userEvent.click(save);
    await waitFor(() => expect(requests.find((r) => r.method === 'PUT')?.json).toEqual({ displayName: 'Crack Hunter' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    // The navbar and header follow the saved user at once.
    expect(await screen.findByText(/Signed in as Crack Hunter/)).toBeInTheDocument();
  });

  it('says so when the display name cannot be saved', { timeout: 15_000 }, async () => {
    renderProfile(makeUser(), { 'PUT /api/profile': { status: 500, text: 'boom' } });
    const input = await screen.findByLabelText('Display Name');
    await userEvent.clear(input);
    await userEvent.type(input, 'New Name');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Failed to update display name. Please try again.')).toBeInTheDocument();
  });

  it('uploads a JPEG avatar as multipart `avatar` and shows the new one', async () => {
    renderProfile(makeUser());
    const uploads = mockXhr({
      'POST /api/profile/avatar': { progress: [[512, 1024]], body: { user: makeUser({ customProfileImage: 'new.webp' }), facesDetected: 1 } },
    });
    const picker = await screen.findByLabelText('Choose avatar image');
    expect(picker).toHaveAttribute('accept', expect.stringContaining('image/png'));
    await userEvent.upload(picker, jpeg());
    expect(await screen.findByText('Your avatar has been updated.')).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
    expect(uploads[0]!.form?.get('avatar')).toBeInstanceOf(File);
  });

  it('shows the failure toast when the avatar upload fails, and refuses other types locally', async () => {
    renderProfile(makeUser());
    const uploads = mockXhr({ 'POST /api/profile/avatar': { status: 400, body: { message: 'nope' } } });
    const picker = await screen.findByLabelText('Choose avatar image');
    await userEvent.upload(picker, jpeg('me.png', 'image/png'));
    expect(await screen.findByText('Failed to upload avatar. Please try again.')).toBeInTheDocument();
    await userEvent.upload(picker, jpeg('me.gif', 'image/gif'), { applyAccept: false });
    expect(await screen.findByText('Please choose a JPG, JPEG or PNG image up to 5MB.')).toBeInTheDocument();
    expect(uploads).toHaveLength(1);
  });

  it('turns a 429 (the member’s avatar limit) into the spec’s avatar failure toast', async () => {
    renderProfile(makeUser());
    mockXhr({ 'POST /api/profile/avatar': { status: 429, body: { message: 'You are changing your avatar too often. Please wait a minute and try again.' } } });
    await userEvent.upload(await screen.findByLabelText('Choose avatar image'), jpeg('me.png', 'image/png'));
    expect(await screen.findByText('Failed to upload avatar. Please try again.')).toBeInTheDocument();
  });

  it('shows a skeleton while the user loads', async () => {
    mockFetch({ 'GET /api/auth/user': () => new Promise(() => undefined) });
    renderApp('/profile');
    expect(await screen.findByText(/Loading/)).toBeInTheDocument();
  });
});
