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
