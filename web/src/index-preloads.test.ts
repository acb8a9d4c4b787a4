import { readFileSync } from 'node:fs';
import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { HEADER_IMAGE_URL } from '@/lib/brand';
import { mockFetch } from '@/test/fetch-mock';
import { EMPTY_GALLERY, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

/**
 * index.html preloads what a route's first screen needs before the app's code has run. A preload that no longer
 * matches what the app asks for costs a request for nothing and saves nothing, so each is checked against the app.
 */
const indexHtml = readFileSync(`${import.meta.dirname}/../index.html`, 'utf8');

/** The preloads index.html adds on `path` (its inline script's `if(path==='…'){p(href, as, options)…}` blocks). */
function preloadsOn(path: string): { href: string; as: string }[] {
  const block = new RegExp(`if\\(path==='${path.replace(/[/]/g, '\\/')}'\\)\\{(.*?)\\}(?=if|\\}\\))`).exec(indexHtml)?.[1] ?? '';
  return [...block.matchAll(/\bp\('([^']+)','([^']+)'/g)].map(([, href, as]) => ({ href: href!, as: as! }));
}

const STATS = { photoCount: 0, totalVotes: 0, ratedFourOrHigher: 0, distinctUploaders: 0 };
const ALLOWANCE = { limit: 5, pending: 0, trusted: false, reasons: ['Members may have 5 photos waiting for review at once.'] };

describe('the preloads of index.html', () => {
  it('preloads the header image the landing shows on /', () => {
    expect(preloadsOn('/')).toContainEqual({ href: HEADER_IMAGE_URL, as: 'image' });
  });

  it('preloads nothing on a route without its own list', () => {
    expect(preloadsOn('/profile')).toEqual([]);
  });

  it.each([
    ['/', 'signed out', { status: 401, text: 'Unauthorized' }],
    ['/', 'signed in', { body: makeUser() }],
    ['/upload', 'signed in', { body: makeUser() }],
  ])('preloads on %s only calls the app makes at once, with credentials, %s', async (path, _who, currentUser) => {
    const fetches = preloadsOn(path).filter((preload) => preload.as === 'fetch');
    expect(fetches.length).toBeGreaterThan(0);
    // Kept credentials: a preload is reused only by a request of the same mode (crossorigin="use-credentials").
    expect(indexHtml).toContain("{crossOrigin:'use-credentials'}");
    expect(indexHtml).not.toMatch(/'fetch'(?!,\{crossOrigin:'use-credentials'\})/);
    const requests = mockFetch({
      'GET /api/auth/user': currentUser,
      'GET /api/photos?limit=20': { body: [] },
      'GET /api/gallery/top-rated?page=1&limit=9': { body: EMPTY_GALLERY },
      'GET /api/stats/gallery': { body: STATS },
      'GET /api/user/upload-allowance': { body: ALLOWANCE },
    });
    renderApp(path);
    for (const { href } of fetches) {
      await waitFor(() => expect(requests.find((request) => request.url === href)?.init?.credentials).toBe('include'));
    }
  });
});
