import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { renderApp } from '@/test/render-app';

function renderLanding(photos: MockHandler) {
  mockFetch({ 'GET /api/auth/user': { status: 401, text: 'Unauthorized' }, 'GET /api/photos': photos });
  renderApp('/');
}

describe('landing page', () => {
  it('shows up to four random preview photos and the header image', async () => {
    const photos = Array.from({ length: 10 }, (_, index) => ({ id: index + 1, filename: `p${index + 1}.jpg` }));
    renderLanding({ body: photos });
    const previews = within(await screen.findByRole('list', { name: 'Community photos' })).getAllByRole('img');
    expect(previews).toHaveLength(4);
    for (const preview of previews) expect(preview.getAttribute('src')).toMatch(/^\/api\/uploads\/p\d+\.jpg$/);
    expect(new Set(previews.map((preview) => preview.getAttribute('src'))).size).toBe(4);
    expect(screen.getByRole('img', { name: 'Illustration of a cracked surface' })).toHaveAttribute(
      'src',
      '/uploads/snapcracks-header.svg',
    );
  });

  it('shows no previews when the photo list fails', async () => {
    renderLanding({ status: 500, text: 'boom' });
    await screen.findByRole('heading', { name: 'Snap, Share, Vote' });
    expect(screen.queryByRole('list', { name: 'Community photos' })).not.toBeInTheDocument();
  });

  it('presents the three features and the footer', async () => {
    renderLanding({ body: [] });
    expect(await screen.findByRole('heading', { name: 'Easy Upload' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Community Voting' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Moderated Content' })).toBeInTheDocument();
    expect(screen.getByText(/5-star system/)).toBeInTheDocument();
    expect(within(screen.getByRole('contentinfo')).getByText(/2025/)).toBeInTheDocument();
  });
});
