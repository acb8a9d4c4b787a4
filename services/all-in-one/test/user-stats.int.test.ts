import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let bob: TestBrowser;
let carol: TestBrowser;
let admin: TestBrowser;
let newcomer: TestBrowser;

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}

async function upload(client: Client, description: string): Promise<{ id: number; filename: string }> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(photoPng)]), 'crack.png');
  const response = await client.request(api('/api/photos'), { method: 'POST', body: form });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: number; filename: string };
}

async function statsOf(client: Client) {
  const response = await send(client, 'GET', '/api/user/stats');
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return (await response.json()) as Record<string, unknown>;
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

describe('GET /api/user/stats', () => {
  it('answers 401 to the signed out and 403 before the terms are accepted', async () => {
    const signedOut = await fetch(api('/api/user/stats'));
    expect(signedOut.status).toBe(401);
    expect((await send(newcomer, 'GET', '/api/user/stats')).status).toBe(403);
  });

  it('answers zeros and nulls to a member with no photos', async () => {
    expect(await statsOf(bob)).toEqual({
      totalUploads: 0,
      approvedUploads: 0,
      pendingUploads: 0,
      rejectedUploads: 0,
      uploadsThisWeek: 0,
      averageRating: 0,
      recentAverageRating: 0,
      recentVoteCount: 0,
      totalVotes: 0,
      rankByUploads: null,
      rankByAverageRating: null,
      totalActiveUsers: 0,
      highestRatedPhoto: null,
      lowestRatedPhoto: null,
      ratingDistribution: [0, 0, 0, 0, 0],
    });
  });

  it('follows uploads, an approval and votes', async () => {
    const approved = await upload(alice, 'A crack to rate');
    await upload(alice, 'Still in review');
    await eventually(async () => expect(await statsOf(alice)).toMatchObject({ totalUploads: 2, pendingUploads: 2, uploadsThisWeek: 2, rankByUploads: null }));

    expect((await send(admin, 'PATCH', `/api/admin/photos/${approved.id}/status`, { status: 'approved' })).status).toBe(200);
    await eventually(async () => expect(await statsOf(alice)).toMatchObject({ approvedUploads: 1, pendingUploads: 1, rankByUploads: 1, totalActiveUsers: 1 }));

    // The vote service learns of the approval from the photo's event, a moment later.
    await eventually(async () => expect((await send(bob, 'POST', `/api/photos/${approved.id}/vote`, { rating: 5 })).status).toBe(200));
    expect((await send(carol, 'POST', `/api/photos/${approved.id}/vote`, { rating: 2 })).status).toBe(200);
    await eventually(async () =>
      expect(await statsOf(alice)).toEqual({
        totalUploads: 2,
        approvedUploads: 1,
        pendingUploads: 1,
        rejectedUploads: 0,
        uploadsThisWeek: 2,
        averageRating: 3.5,
        recentAverageRating: 3.5,
        recentVoteCount: 2,
        totalVotes: 2,
        rankByUploads: 1,
        // Two votes received: fewer than the three a rating rank needs.
        rankByAverageRating: null,
        totalActiveUsers: 1,
        highestRatedPhoto: { id: approved.id, filename: approved.filename, description: 'A crack to rate', averageRating: 3.5, voteCount: 2 },
        lowestRatedPhoto: { id: approved.id, filename: approved.filename, description: 'A crack to rate', averageRating: 3.5, voteCount: 2 },
        ratingDistribution: [0, 1, 0, 0, 1],
      }),
    );

    expect((await send(admin, 'POST', `/api/photos/${approved.id}/vote`, { rating: 4 })).status).toBe(200);
    await eventually(async () => expect(await statsOf(alice)).toMatchObject({ totalVotes: 3, averageRating: 11 / 3, rankByAverageRating: 1 }));
    // A changed vote moves from one star to another: Carol's 2 becomes a 3.
    expect((await send(carol, 'POST', `/api/photos/${approved.id}/vote`, { rating: 3 })).status).toBe(200);
    await eventually(async () => expect(await statsOf(alice)).toMatchObject({ totalVotes: 3, averageRating: 4, ratingDistribution: [0, 0, 1, 1, 1] }));
    // Bob sees his own figures, not Alice's.
    expect(await statsOf(bob)).toMatchObject({ totalUploads: 0, rankByUploads: null, totalActiveUsers: 1 });
  });
});
