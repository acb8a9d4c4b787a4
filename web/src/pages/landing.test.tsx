import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { makeGalleryPage, makeGalleryPhoto } from '@/components/photo/test-fixtures';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { EMPTY_GALLERY } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Opening a photo loads the viewer's code on first use: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

function renderLanding(photos: MockHandler, gallery: MockHandler = { body: EMPTY_GALLERY }) {
  const requests = mockFetch({
    'GET /api/auth/user': { status: 401, text: 'Unauthorized' },
    'GET /api/photos?limit=20': photos,
    'GET /api/gallery/top-rated?page=1&limit=9': gallery,
  });
  renderApp('/');
  return requests;
}

function preview(index: number, text: { description?: string | null; altText?: string | null } = {}) {
  return {
    id: index,
    filename: `p${index}.jpg`,
    description: null,
    altText: null,
    ...text,
    thumbnailUrl: `/api/uploads/p${index}.jpg?size=thumb&v=1`,
    mediumUrl: `/api/uploads/p${index}.jpg?size=medium&v=1`,
    displayUrl: `/api/uploads/p${index}.jpg?size=display&v=1`,
  };
}

describe('landing page', () => {
  it('shows four random previews of the twenty newest photos, and the header image', async () => {
    renderLanding({ body: Array.from({ length: 20 }, (_, index) => preview(index + 1)) });
    const previews = within(await screen.findByRole('list', { name: 'Community photos' })).getAllByRole('img');
    expect(previews).toHaveLength(4);
    for (const image of previews) expect(image.getAttribute('src')).toMatch(/^\/api\/uploads\/p\d+\.jpg\?size=thumb&v=1$/);
    expect(new Set(previews.map((image) => image.getAttribute('src'))).size).toBe(4);
    expect(screen.getByRole('img', { name: 'Illustration of a cracked surface' })).toHaveAttribute(
      'src',
      '/uploads/snapcracks-header.svg',
    );
  });

  it('shows every preview when there are fewer than four', async () => {
    renderLanding({ body: [preview(1), preview(2)] });
    const previews = within(await screen.findByRole('list', { name: 'Community photos' })).getAllByRole('img');
    expect(previews).toHaveLength(2);
  });

  it('reads each preview by its alt text, else its description, else a general phrase', async () => {
    renderLanding({
      body: [preview(1, { altText: 'A crack across a frozen lake', description: 'Brr' }), preview(2, { description: 'Crack in a teacup' }), preview(3)],
    });
    const list = within(await screen.findByRole('list', { name: 'Community photos' }));
    expect(list.getAllByRole('img').map((image) => image.getAttribute('alt')).sort()).toEqual([
      'A crack across a frozen lake',
      'A crack photo shared by the community',
      'Crack in a teacup',
    ]);
  });

  it('shows no previews when the photo list fails', async () => {
    renderLanding({ status: 500, text: 'boom' });
    await screen.findByRole('heading', { name: 'Snap, Share, Vote' });
    expect(screen.queryByRole('list', { name: 'Community photos' })).not.toBeInTheDocument();
  });

  it('has Start Snapping, Vote on Photos and Join Now', async () => {
    renderLanding({ body: [] });
    expect(await screen.findByRole('button', { name: 'Start Snapping' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Vote on Photos' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Join Now' })).toBeInTheDocument();
  });

  it('presents the three features and the footer', async () => {
    renderLanding({ body: [] });
    expect(await screen.findByRole('heading', { name: 'Easy Upload' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Community Voting' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Moderated Content' })).toBeInTheDocument();
    expect(screen.getByText(/5-star system/)).toBeInTheDocument();
    const footer = within(screen.getByRole('contentinfo'));
    expect(footer.getByText(/2025/)).toBeInTheDocument();
    expect(footer.getByRole('link', { name: 'Contact Us' })).toHaveAttribute('href', '/contact');
    expect(footer.getByRole('link', { name: 'Terms of Service' })).toHaveAttribute('href', '/legal#terms');
    expect(footer.getByRole('link', { name: 'Privacy Policy' })).toHaveAttribute('href', '/legal#privacy');
    expect(footer.getByRole('link', { name: 'Community Guidelines' })).toHaveAttribute('href', '/legal#community');
  });

  it('shows the public gallery without Need your Vote, never asking for it', async () => {
    const requests = renderLanding({ body: [] });
    const filters = within(await screen.findByRole('group', { name: 'Gallery filters' }));
    const names = filters.getAllByRole('button').map((button) => button.querySelector('span')?.textContent);
    expect(names).toEqual(['Top Rated', 'New Today', 'New This Week', 'New This Month', 'All Snaps']);
    expect(await screen.findByText('Oh snap! No cracks found!')).toBeInTheDocument();
    expect(requests.some((request) => request.url.includes('need-your-vote'))).toBe(false);
  });

  it('gives signed-out cards a Sign In to Rate link, and a viewer without the rating control', async () => {
    const requests = renderLanding(
      { body: [] },
      { body: makeGalleryPage([makeGalleryPhoto({ id: 7, description: 'Riverbed' })]) },
    );
    const card = within(await screen.findByRole('article', { name: 'Riverbed' }));
    expect(card.getByRole('link', { name: 'Sign In to Rate' })).toHaveAttribute('href', '/api/login');
    // The hero's previews lead this page: every card, the first too, is lazy and never competes with them.
    expect(card.getByRole('img', { name: 'Riverbed' })).toHaveAttribute('loading', 'lazy');
    expect(card.getByRole('img', { name: 'Riverbed' })).not.toHaveAttribute('fetchpriority');

    await userEvent.click(card.getByRole('button', { name: 'View photo by Ada L' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Photo by Ada L' }));
    expect(dialog.getByText('Riverbed')).toBeInTheDocument();
    expect(dialog.getByText('4.0')).toBeInTheDocument();
    expect(dialog.queryByRole('radiogroup')).not.toBeInTheDocument();
    expect(dialog.getByRole('link', { name: 'Sign In to Rate' })).toHaveAttribute('href', '/api/login');
    expect(requests.some((request) => request.url.endsWith('/vote'))).toBe(false);
  });
});
