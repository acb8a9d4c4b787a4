import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import type { User } from '@/lib/types';

function renderHome(user: User, gallery: Record<string, MockHandler> = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: user },
    'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
    'GET /api/gallery/all-snaps?page=1&limit=9': { body: EMPTY_GALLERY },
    ...gallery,
  });
  renderApp('/');
  return requests;
}

describe('gallery home', () => {
  it('greets by display name, else by full name, else Snapper', async () => {
    renderHome(makeUser({ displayName: 'Crack Hunter' }));
    expect(await screen.findByRole('heading', { name: 'Welcome back, Crack Hunter' })).toBeInTheDocument();
  });

  it.each([
    [{ displayName: null }, 'Welcome back, Sam Rivera'],
    [{ displayName: null, firstName: null, lastName: null }, 'Welcome back, Snapper'],
  ])('greets %j as "%s"', async (overrides, greeting) => {
    renderHome(makeUser(overrides));
    expect(await screen.findByRole('heading', { name: greeting })).toBeInTheDocument();
  });

  it('links Snap a Crack and My Dashboard', async () => {
    renderHome(makeUser());
    const hero = (await screen.findByRole('heading', { name: /Welcome back/ })).parentElement as HTMLElement;
    expect(within(hero).getByRole('link', { name: 'Snap a Crack' })).toHaveAttribute('href', '/upload');
    expect(within(hero).getByRole('link', { name: 'My Dashboard' })).toHaveAttribute('href', '/dashboard');
  });

  it('shows the six filters with Top Rated selected, and its empty state', async () => {
    const requests = renderHome(makeUser());
    const filters = within(await screen.findByRole('group', { name: 'Gallery filters' }));
    const names = filters.getAllByRole('button').map((button) => button.querySelector('span')?.textContent);
    expect(names).toEqual(['Top Rated', 'Need your Vote', 'New Today', 'New This Week', 'New This Month', 'All Snaps']);
    expect(filters.getByRole('button', { name: /Top Rated/ })).toHaveAttribute('aria-pressed', 'true');
    expect(await screen.findByText('Oh snap! No cracks found!')).toBeInTheDocument();
    expect(screen.getByText('Try selecting a different filter to see more photos.')).toBeInTheDocument();
    expect(requests.some((request) => request.url === '/api/gallery/top-rated?page=1&limit=9')).toBe(true);
  });

  it('shows the All Snaps empty state, with a Snap a Crack button', async () => {
    renderHome(makeUser());
    await userEvent.click(await screen.findByRole('button', { name: /All Snaps/ }));
    expect(await screen.findByText('No Photos Yet')).toBeInTheDocument();
    expect(screen.getByText('Be the first to share a Snap Cracks with the community!')).toBeInTheDocument();
    const emptyState = screen.getByText('No Photos Yet').parentElement as HTMLElement;
    expect(within(emptyState).getByRole('link', { name: 'Snap a Crack' })).toHaveAttribute('href', '/upload');
  });

  it('treats a failed gallery load as empty', async () => {
    renderHome(makeUser(), { 'GET /api/gallery/top-rated?page=1&limit=9': { status: 500, text: 'boom' } });
    expect(await screen.findByText('Oh snap! No cracks found!')).toBeInTheDocument();
  });

  it('signs the user in again when the gallery answers 401', async () => {
    renderHome(makeUser(), { 'GET /api/gallery/top-rated?page=1&limit=9': { status: 401, text: 'Unauthorized' } });
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
  });

  it('lists the photos of the selected filter', async () => {
    renderHome(makeUser(), {
      'GET /api/gallery/top-rated?page=1&limit=9': {
        body: {
          photos: [
            {
              id: 7,
              userId: 'u2',
              filename: 'crack-7.jpg',
              description: 'A crack shaped like a river',
              status: 'approved',
              averageRating: 4.5,
              voteCount: 2,
              user: { firstName: 'Ada', lastName: 'L' },
              createdAt: '2025-07-28T10:00:00.000Z',
            },
          ],
          total: 1,
          totalPages: 1,
        },
      },
    });
    const image = await screen.findByRole('img', { name: 'A crack shaped like a river' });
    expect(image).toHaveAttribute('src', '/api/uploads/crack-7.jpg');
    expect(screen.getByText('Photo by Ada L')).toBeInTheDocument();
  });
});
