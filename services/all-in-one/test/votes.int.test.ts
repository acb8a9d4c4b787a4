import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

const RATING_INVALID = 'Rating must be a whole number from 1 to 5';
const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let bob: TestBrowser;
let carol: TestBrowser;
let admin: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const vote = (client: Client, photoId: number, body: unknown) => send(client, 'POST', `/api/photos/${photoId}/vote`, body);

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}

async function upload(client: Client): Promise<number> {
  const form = new FormData();
  form.append('description', 'A crack to rate');
  form.append('photo', new Blob([new Uint8Array(photoPng)]), 'crack.png');
  const response = await client.request(api('/api/photos'), { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return ((await response.json()) as { id: number }).id;
}

async function myPhoto(client: Client, id: number): Promise<{ averageRating: number; voteCount: number }> {
  const response = await client.request(api('/api/user/photos'), {});
  expect(response.status).toBe(200);
  return ((await response.json()) as { id: number; averageRating: number; voteCount: number }[]).find((p) => p.id === id)!;
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [alice, bob, carol, admin] = await Promise.all([
    member('alice@example.com', 'Alice Example'),
    member('bob@example.com', 'Bob Example'),
    member('carol@example.com', 'Carol Example'),
    member('boss@example.com', 'Boss Example'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('rating a photo through the gateway', () => {
  let photoId: number;

  it('refuses a pending photo as not found', async () => {
    photoId = await upload(alice);
    const response = await vote(bob, photoId, { rating: 4 });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Photo not found' });
  });

  it('takes a vote once the photo is approved, answering the new average and count', async () => {
    expect((await send(admin, 'PATCH', `/api/admin/photos/${photoId}/status`, { status: 'approved' })).status).toBe(200);
    // The vote service learns of the approval from the photo's event, a moment later.
    const response = await vi.waitFor(
      async () => {
        const answer = await vote(bob, photoId, { rating: 4 });
        expect(answer.status).toBe(200);
        return answer;
      },
      { timeout: 10_000, interval: 50 },
    );
    expect(await response.json()).toEqual({ rating: 4, averageRating: 4, voteCount: 1 });
    const second = await vote(carol, photoId, { rating: 1 });
    expect(await second.json()).toEqual({ rating: 1, averageRating: 2.5, voteCount: 2 });
    const changed = await vote(bob, photoId, { rating: 5 });
    expect(await changed.json()).toEqual({ rating: 5, averageRating: 3, voteCount: 2 });
  });

  it('tells a member their own vote, or null', async () => {
    const mine = await send(bob, 'GET', `/api/photos/${photoId}/vote`);
    expect(mine.status).toBe(200);
    expect(mine.headers.get('cache-control')).toBe('no-store');
    expect(await mine.json()).toEqual({ rating: 5 });
    expect(await (await send(admin, 'GET', `/api/photos/${photoId}/vote`)).json()).toEqual({ rating: null });
  });

  it('shows the photo’s new average and count to its owner once the photo service catches up', async () => {
    await vi.waitFor(async () => expect(await myPhoto(alice, photoId)).toMatchObject({ averageRating: 3, voteCount: 2 }), { timeout: 10_000, interval: 50 });
  });

  it.each([[{ rating: 0 }], [{ rating: 6 }], [{ rating: 3.5 }], [{ rating: '5' }], [{}], [undefined], [[5]]])('refuses %j with a 400', async (body) => {
    const response = await vote(bob, photoId, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: RATING_INVALID });
  });

  it('refuses a bad photo id with a 400', async () => {
    expect((await send(bob, 'POST', '/api/photos/1.5/vote', { rating: 3 })).status).toBe(400);
  });

  it('refuses the signed out (401), members who have not accepted the terms (403) and the photo’s owner (403)', async () => {
    expect((await vote(anonymous, photoId, { rating: 3 })).status).toBe(401);
    expect((await send(anonymous, 'GET', `/api/photos/${photoId}/vote`)).status).toBe(401);
    expect((await vote(newcomer, photoId, { rating: 3 })).status).toBe(403);
    const own = await vote(alice, photoId, { rating: 5 });
    expect(own.status).toBe(403);
    expect(await own.json()).toEqual({ message: 'You cannot vote on your own photo' });
    expect(await myPhoto(alice, photoId)).toMatchObject({ averageRating: 3, voteCount: 2 });
  });

  it('forgets the votes when the photo is deleted', async () => {
    expect((await send(alice, 'DELETE', `/api/photos/${photoId}`)).status).toBe(204);
    await vi.waitFor(async () => expect(await (await send(bob, 'GET', `/api/photos/${photoId}/vote`)).json()).toEqual({ rating: null }), { timeout: 10_000, interval: 50 });
    expect((await vote(carol, photoId, { rating: 2 })).status).toBe(404);
  });
});

interface GalleryAnswer {
  photos: { id: number; averageRating: number; voteCount: number; thumbnailUrl: string; user: { firstName: string | null } | null }[];
  total: number;
  totalPages: number;
}

const gallery = async (client: Client, path: string): Promise<GalleryAnswer> => {
  const response = await send(client, 'GET', path);
  expect(response.status).toBe(200);
  return (await response.json()) as GalleryAnswer;
};
const galleryIds = async (client: Client, path: string) => (await gallery(client, path)).photos.map((p) => p.id);
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

describe('the gallery through the gateway', () => {
  let first: number;
  let second: number;

  it('refuses an unknown filter (404), bad pages and limits (400), and need-your-vote signed out (401)', async () => {
    expect((await send(anonymous, 'GET', '/api/gallery/best')).status).toBe(404);
    for (const query of ['page=0', 'page=abc', 'page=1.5', 'page=-2', 'limit=0', 'limit=51', 'limit=2.5', 'page=100001']) {
      const response = await send(anonymous, 'GET', `/api/gallery/top-rated?${query}`);
      expect(response.status, query).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/page|limit/);
    }
    expect((await send(anonymous, 'GET', '/api/gallery/need-your-vote')).status).toBe(401);
    expect((await send(newcomer, 'GET', '/api/gallery/need-your-vote')).status).toBe(403);
    expect((await send(anonymous, 'GET', '/api/photos?limit=101')).status).toBe(400);
  });

  it('shows a photo in every public list once approved, never before', async () => {
    first = await upload(carol);
    second = await upload(carol);
    const before = await gallery(anonymous, '/api/gallery/all-snaps?limit=50');
    expect(before.photos.map((p) => p.id)).not.toContain(first);
    for (const id of [first, second]) expect((await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' })).status).toBe(200);
    await eventually(async () => expect(await galleryIds(anonymous, '/api/gallery/all-snaps?limit=50')).toEqual(expect.arrayContaining([first, second])));
    const all = await gallery(anonymous, '/api/gallery/all-snaps?limit=50');
    expect(all.total).toBe(before.total + 2);
    expect(all.photos.slice(0, 2).map((p) => p.id)).toEqual([second, first]); // newest approval first
    for (const filter of ['new-today', 'new-this-week', 'new-this-month', 'top-rated']) {
      expect(await galleryIds(anonymous, `/api/gallery/${filter}?limit=50`), filter).toEqual(expect.arrayContaining([first, second]));
    }
    const card = all.photos.find((p) => p.id === first)!;
    expect(card).toMatchObject({ averageRating: 0, voteCount: 0, user: { firstName: 'Carol' } });
    expect(card).not.toHaveProperty('originalName');
    expect(card).not.toHaveProperty('approvedBy');
    expect((await anonymous.request(api(card.thumbnailUrl))).status).toBe(200);
    const previews = (await (await send(anonymous, 'GET', '/api/photos')).json()) as { id: number; filename: string; thumbnailUrl: string }[];
    expect(previews.slice(0, 2).map((p) => p.id)).toEqual([second, first]);
    expect(previews[0]).toEqual({
      id: second,
      filename: expect.stringMatching(/\.webp$/),
      description: 'A crack to rate',
      altText: null,
      thumbnailUrl: expect.any(String), mediumUrl: expect.stringContaining('size=medium'), displayUrl: expect.any(String) });
  });

  it('pages by page and limit with exact totals', async () => {
    const whole = await gallery(anonymous, '/api/gallery/all-snaps?limit=50');
    const one = await gallery(anonymous, '/api/gallery/all-snaps?page=1&limit=1');
    const two = await gallery(anonymous, '/api/gallery/all-snaps?page=2&limit=1');
    expect(one).toMatchObject({ total: whole.total, totalPages: whole.total });
    expect([...one.photos, ...two.photos].map((p) => p.id)).toEqual(whole.photos.slice(0, 2).map((p) => p.id));
    expect((await gallery(anonymous, `/api/gallery/all-snaps?page=${whole.total + 1}&limit=1`)).photos).toEqual([]);
  });

  it('leaves a photo out of need-your-vote once rated, and shows its new average everywhere', async () => {
    const mine = await galleryIds(bob, '/api/gallery/need-your-vote?limit=50');
    expect(mine).toEqual(expect.arrayContaining([first, second]));
    expect(await galleryIds(carol, '/api/gallery/need-your-vote?limit=50')).not.toContain(first); // her own
    const total = (await gallery(bob, '/api/gallery/need-your-vote?limit=50')).total;
    expect((await vote(bob, first, { rating: 5 })).status).toBe(200);
    await eventually(async () => {
      const after = await gallery(bob, '/api/gallery/need-your-vote?limit=50');
      expect(after.photos.map((p) => p.id)).not.toContain(first);
      expect(after.total).toBe(total - 1);
    });
    await eventually(async () => {
      const card = (await gallery(anonymous, '/api/gallery/top-rated?limit=50')).photos.find((p) => p.id === first);
      expect(card).toMatchObject({ averageRating: 5, voteCount: 1 });
    });
    const ranked = await galleryIds(anonymous, '/api/gallery/top-rated?limit=50');
    expect(ranked.indexOf(first)).toBeLessThan(ranked.indexOf(second));
  });

  it('answers an unchanged public page with 304 to its ETag', async () => {
    const response = await send(anonymous, 'GET', '/api/gallery/top-rated');
    const etag = response.headers.get('etag')!;
    expect(etag).toBeTruthy();
    expect(response.headers.get('cache-control')).toBe('no-cache');
    const again = await anonymous.request(api('/api/gallery/top-rated'), { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
  });
});
