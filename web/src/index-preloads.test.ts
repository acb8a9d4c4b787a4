import { readFileSync } from 'node:fs';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEADER_IMAGE_URL } from '@/lib/brand';
import { mockFetch } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

/**
 * index.html preloads what / needs before the app's code has run. A preload that no longer matches what the app asks
 * for costs a request for nothing and saves nothing, so each is checked against the app itself.
 */
const indexHtml = readFileSync(`${import.meta.dirname}/../index.html`, 'utf8');

/** The preloads index.html adds on / (its inline script's `p(href, as, options)` calls). */
function preloadsOnRoot(): { href: string; as: string }[] {
  return [...indexHtml.matchAll(/\bp\('([^']+)','([^']+)'/g)].map(([, href, as]) => ({ href: href!, as: as! }));
}

describe('the preloads of index.html on /', () => {
  it('preloads the header image the landing shows', () => {
    expect(preloadsOnRoot()).toContainEqual({ href: HEADER_IMAGE_URL, as: 'image' });
  });

  it.each([
    ['signed out', { status: 401, text: 'Unauthorized' }],
    ['signed in', { body: makeUser() }],
  ])('preloads only calls the app makes at once on /, with credentials, %s', async (_who, currentUser) => {
    const fetches = preloadsOnRoot().filter((preload) => preload.as === 'fetch');
    expect(fetches.length).toBeGreaterThan(0);
    // Kept credentials: a preload is reused only by a request of the same mode (crossorigin="use-credentials").
    expect(indexHtml).toContain("{crossOrigin:'use-credentials'}");
    const requests = mockFetch({
      'GET /api/auth/user': currentUser,
      'GET /api/photos?limit=20': { body: [] },
      'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
      'GET /api/stats/gallery': { body: { photoCount: 0, totalVotes: 0, ratedFourOrHigher: 0, distinctUploaders: 0 } },
    });
    renderApp('/');
    for (const { href } of fetches) {
      await waitFor(() => expect(requests.find((request) => request.url === href)?.init?.credentials).toBe('include'));
    }
  });
});
