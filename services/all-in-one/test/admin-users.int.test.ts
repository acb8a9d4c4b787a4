import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { IdentitySigner, createServiceClient } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));

interface AdminUser {
  id: string;
  displayName: string | null;
  email: string | null;
  avatar: string | null;
  firstName: string | null;
  lastName: string | null;
  isEnabled: boolean;
  isAdmin: boolean;
  createdAt: string;
}
interface UserPage {
  users: AdminUser[];
  total: number;
  totalPages: number;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let alice: TestBrowser;
let bob: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect(response.status).toBe(status);
  return (await response.json()) as T;
};
const statusAndMessage = async (response: Promise<Response>) => {
  const answer = await response;
  return { status: answer.status, message: ((await answer.json()) as { message: string }).message };
};
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 10_000, interval: 50 });

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}

const me = async (client: Client) => json<{ id: string; email: string; isAdmin: boolean }>(await send(client, 'GET', '/api/auth/user'));

/** Every account as the admin list shows it (a page of 100 is more than this test makes). */
async function everyone(): Promise<AdminUser[]> {
  return (await json<UserPage>(await send(admin, 'GET', '/api/admin/users?limit=100'))).users;
}
const accountOf = async (email: string) => (await everyone()).find((u) => u.email === email);

async function approvedPhotoOf(client: Client): Promise<number> {
  const form = new FormData();
  form.append('description', 'A crack');
  form.append('photo', new Blob([new Uint8Array(photoPng)]), 'crack.png');
  const { id } = await json<{ id: number }>(await client.request(api('/api/photos'), { method: 'POST', body: form }), 201);
  expect((await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' })).status).toBe(200);
  return id;
}

/** A vote, once the vote service has heard of the approval. */
async function vote(client: Client, photoId: number, rating: number): Promise<void> {
  await eventually(async () => expect((await send(client, 'POST', `/api/photos/${photoId}/vote`, { rating })).status).toBe(200));
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [admin, alice, bob] = await Promise.all([
    member('boss@example.com', 'Boss Example'),
    member('alice@example.com', 'Alice Example'),
    member('bob@example.com', 'Bob Builder'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('who may manage users', () => {
  it('answers 401 signed out and 403 to members and to those who have not accepted the terms, changing nothing', async () => {
    const before = await everyone();
    const target = before.find((u) => u.email === 'bob@example.com')!;
    const attempts: [string, string, unknown?][] = [
      ['GET', '/api/admin/users'],
      ['GET', '/api/admin/users?page=0'], // refused before the input is looked at
      ['PATCH', `/api/admin/users/${target.id}`, { isAdmin: true, displayName: 'Hacked' }],
      ['PATCH', `/api/admin/users/${target.id}`, { displayName: '' }],
      ['DELETE', `/api/admin/users/${target.id}`],
    ];
    for (const [method, path, body] of attempts) {
      expect((await send(anonymous, method, path, body)).status, `${method} ${path} signed out`).toBe(401);
      for (const client of [alice, bob, newcomer]) {
        const response = await send(client, method, path, body);
        expect(response.status, `${method} ${path}`).toBe(403);
      }
    }
    expect((await send(alice, 'GET', '/api/admin/users')).headers.get('content-type')).toMatch(/json/);
    expect(await everyone()).toEqual(before);
  });

  it('lets an admin list, edit and delete', async () => {
    const listed = await json<UserPage>(await send(admin, 'GET', '/api/admin/users'));
    expect(listed.total).toBeGreaterThanOrEqual(4);
    const target = (await accountOf('new@example.com'))!;
    expect((await send(admin, 'PATCH', `/api/admin/users/${target.id}`, { displayName: 'Newest' })).status).toBe(200);
    expect((await send(admin, 'DELETE', `/api/admin/users/${target.id}`)).status).toBe(204);
    expect(await accountOf('new@example.com')).toBeUndefined();
    expect((await send(newcomer, 'GET', '/api/auth/user')).status).toBe(401);
  });
});

describe('the users list', () => {
  it('shows each account with the avatar rule applied, newest first, without caching', async () => {
    const response = await send(admin, 'GET', '/api/admin/users');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { users, total, totalPages } = await json<UserPage>(response);
    expect(totalPages).toBe(Math.ceil(total / 20));
    const bobRow = users.find((u) => u.email === 'bob@example.com');
    expect(bobRow).toEqual({
      id: expect.any(String),
      displayName: null,
      email: 'bob@example.com',
      avatar: null,
      firstName: 'Bob',
      lastName: 'Builder',
      isEnabled: true,
      isAdmin: false,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T/),
    });
    expect(users.find((u) => u.email === 'boss@example.com')).toMatchObject({ isAdmin: true });
    const times = users.map((u) => Date.parse(u.createdAt));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
  });

  it('pages with page and limit, and searches names and emails', async () => {
    const all = await everyone();
    const first = await json<UserPage>(await send(admin, 'GET', '/api/admin/users?page=1&limit=1'));
    const second = await json<UserPage>(await send(admin, 'GET', '/api/admin/users?page=2&limit=1'));
    expect(first).toMatchObject({ total: all.length, totalPages: all.length });
    expect([...first.users, ...second.users].map((u) => u.id)).toEqual(all.slice(0, 2).map((u) => u.id));
    expect((await json<UserPage>(await send(admin, 'GET', `/api/admin/users?page=${all.length + 1}&limit=1`))).users).toEqual([]);

    const search = async (q: string) => (await json<UserPage>(await send(admin, 'GET', `/api/admin/users?q=${encodeURIComponent(q)}`))).users.map((u) => u.email);
    expect(await search('BUILDER')).toEqual(['bob@example.com']);
    expect(await search('alice@')).toEqual(['alice@example.com']);
    expect(await search('bob builder')).toEqual(['bob@example.com']);
    expect(await search('nobody-has-this')).toEqual([]);
    expect((await json<UserPage>(await send(admin, 'GET', '/api/admin/users?q=%25'))).total).toBe(0);
  });

  it.each(['page=0', 'page=x', 'limit=0', 'limit=101', 'limit=2.5', `q=${'x'.repeat(101)}`])('refuses %s with a 400', async (query) => {
    const response = await send(admin, 'GET', `/api/admin/users?${query}`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toMatch(/page|limit|Search/);
  });
});

describe('editing a user', () => {
  it('changes any subset of the fields, trimming the name and normalising the email', async () => {
    const bobRow = (await accountOf('bob@example.com'))!;
    const changed = await json<AdminUser>(await send(admin, 'PATCH', `/api/admin/users/${bobRow.id}`, { displayName: '  Bob the Builder ', email: ' Bob@Example.com ' }));
    expect(changed).toMatchObject({ id: bobRow.id, displayName: 'Bob the Builder', email: 'bob@example.com', isEnabled: true, isAdmin: false });
    expect((await me(bob)).email).toBe('bob@example.com');
    expect(await json<AdminUser>(await send(admin, 'PATCH', `/api/admin/users/${bobRow.id}`, {}))).toEqual(changed);
  });

  it.each([
    [{ displayName: '   ' }, 'Display name is required'],
    [{ displayName: null }, 'Display name is required'],
    [{ displayName: 'x'.repeat(51) }, 'Display name must be 50 characters or less'],
    [{ email: 'not an email' }, 'Please enter a valid email address'],
    [{ isEnabled: 'no' }, 'isEnabled must be true or false'],
  ])('refuses %j with a 400 and the spec message, changing nothing', async (body, message) => {
    const before = (await accountOf('bob@example.com'))!;
    const response = await send(admin, 'PATCH', `/api/admin/users/${before.id}`, body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
    expect(await accountOf('bob@example.com')).toEqual(before);
  });

  it('refuses an email another account has with a 409, and an unknown account with a 404', async () => {
    const before = (await accountOf('bob@example.com'))!;
    const taken = await send(admin, 'PATCH', `/api/admin/users/${before.id}`, { email: 'ALICE@example.com' });
    expect(taken.status).toBe(409);
    expect(await taken.json()).toEqual({ message: 'Another account already uses this email address' });
    expect(await accountOf('bob@example.com')).toEqual(before);
    expect((await send(admin, 'PATCH', '/api/admin/users/00000000-0000-4000-8000-000000000000', { isEnabled: false })).status).toBe(404);
    expect((await send(admin, 'DELETE', '/api/admin/users/00000000-0000-4000-8000-000000000000')).status).toBe(404);
  });

  it('keeps an admin from disabling or demoting themself', async () => {
    const { id } = await me(admin);
    for (const body of [{ isEnabled: false }, { isAdmin: false }]) {
      const response = await send(admin, 'PATCH', `/api/admin/users/${id}`, body);
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({ message: 'You cannot disable or remove admin rights from your own account' });
    }
    expect(await me(admin)).toMatchObject({ isAdmin: true });
    expect((await send(admin, 'GET', '/api/admin/users')).status).toBe(200);
  });
});

describe('changes take effect at the next request', () => {
  it('refuses a disabled account’s very next request, and lets it back in once enabled', async () => {
    const { id } = await me(alice); // her account is now cached by the gateway
    expect((await send(admin, 'PATCH', `/api/admin/users/${id}`, { isEnabled: false })).status).toBe(200);
    const refused = await send(alice, 'GET', '/api/auth/user');
    expect(refused.status).toBe(403);
    expect((await send(alice, 'GET', '/api/user/photos')).status).toBe(403);
    expect((await send(admin, 'PATCH', `/api/admin/users/${id}`, { isEnabled: true })).status).toBe(200);
    expect((await send(alice, 'GET', '/api/auth/user')).status).toBe(200);
  });

  it('hears of a change made elsewhere through auth.user.updated, long before its cache would expire', async () => {
    const { id } = await me(alice);
    const { id: adminId } = await me(admin);
    // The change reaches the auth service without this gateway (as through another replica): only the event tells it.
    const auth = createServiceClient(AuthServiceClient, system.platform.addresses.auth!, { signer: new IdentitySigner(TEST_IDENTITY, 'gateway'), peer: 'auth' });
    try {
      await auth.call.updateUser({ id, isEnabled: false }, { caller: { userId: adminId, isAdmin: true, hasAcceptedTerms: true } });
      // The gateway caches users for 5 s; refused within 1.5 s means the event, not the expiry, ended the access.
      await vi.waitFor(async () => expect((await send(alice, 'GET', '/api/auth/user')).status).toBe(403), { timeout: 1_500, interval: 20 });
      await auth.call.updateUser({ id, isEnabled: true }, { caller: { userId: adminId, isAdmin: true, hasAcceptedTerms: true } });
      await vi.waitFor(async () => expect((await send(alice, 'GET', '/api/auth/user')).status).toBe(200), { timeout: 1_500, interval: 20 });
    } finally {
      auth.close();
    }
  });

  it('lets a promoted member use the admin calls at once, and a demoted one no longer', async () => {
    const { id } = await me(bob);
    expect((await send(bob, 'GET', '/api/admin/users')).status).toBe(403);
    expect((await json<AdminUser>(await send(admin, 'PATCH', `/api/admin/users/${id}`, { isAdmin: true }))).isAdmin).toBe(true);
    expect((await send(bob, 'GET', '/api/admin/users')).status).toBe(200);
    expect((await me(bob)).isAdmin).toBe(true);
    expect((await send(admin, 'PATCH', `/api/admin/users/${id}`, { isAdmin: false })).status).toBe(200);
    expect((await send(bob, 'GET', '/api/admin/users')).status).toBe(403);
  });

  it('lets an admin demoted a moment ago change nothing, even before the gateway hears of it', async () => {
    const { id } = await me(bob);
    const { id: aliceId } = await me(alice);
    expect((await send(admin, 'PATCH', `/api/admin/users/${id}`, { isAdmin: true })).status).toBe(200);
    expect((await send(bob, 'GET', '/api/admin/users')).status).toBe(200);
    // Demoted in the database itself, so no event tells the gateway, whose cache still holds Bob as an admin.
    const db = new pg.Client({ connectionString: system.database.url });
    await db.connect();
    try {
      await db.query('UPDATE auth.users SET is_admin = false WHERE id = $1', [id]);
    } finally {
      await db.end();
    }
    const before = await accountOf('alice@example.com');
    expect(await statusAndMessage(send(bob, 'PATCH', `/api/admin/users/${aliceId}`, { displayName: 'Taken Over' }))).toEqual({ status: 403, message: 'Administrator access required' });
    expect(await statusAndMessage(send(bob, 'DELETE', `/api/admin/users/${aliceId}`))).toEqual({ status: 403, message: 'Administrator access required' });
    expect(await accountOf('alice@example.com')).toEqual(before);
  });
});

describe('deleting a user', () => {
  it('refuses admin accounts, its own included, with a 403', async () => {
    const { id } = await me(admin);
    const response = await send(admin, 'DELETE', `/api/admin/users/${id}`);
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({ message: 'Admin accounts cannot be deleted' });
    expect((await me(admin)).id).toBe(id);
  });

  it('ends their session at once, and takes their photos and votes away with them', async () => {
    const doomed = await member('doomed@example.com', 'Doomed Example');
    const { id: doomedId } = await me(doomed);
    const theirs = await approvedPhotoOf(doomed);
    const alices = await approvedPhotoOf(alice);
    await vote(bob, alices, 2);
    await vote(doomed, alices, 5);
    await vote(alice, theirs, 4);
    const allSnaps = async () =>
      (await json<{ photos: { id: number; averageRating: number; voteCount: number; thumbnailUrl: string }[] }>(await send(anonymous, 'GET', '/api/gallery/all-snaps?limit=50'))).photos;
    await eventually(async () => {
      const photos = await allSnaps();
      expect(photos.find((p) => p.id === alices)).toMatchObject({ averageRating: 3.5, voteCount: 2 });
      expect(photos.map((p) => p.id)).toContain(theirs);
    });
    const thumbnail = (await allSnaps()).find((p) => p.id === theirs)!.thumbnailUrl;
    expect((await anonymous.request(api(thumbnail))).status).toBe(200);

    expect((await send(admin, 'DELETE', `/api/admin/users/${doomedId}`)).status).toBe(204);
    expect((await send(doomed, 'GET', '/api/auth/user')).status).toBe(401);
    expect((await send(doomed, 'POST', `/api/photos/${alices}/vote`, { rating: 1 })).status).toBe(401);
    expect(await accountOf('doomed@example.com')).toBeUndefined();

    await eventually(async () => {
      const photos = await allSnaps();
      expect(photos.map((p) => p.id)).not.toContain(theirs);
      expect(photos.find((p) => p.id === alices)).toMatchObject({ averageRating: 2, voteCount: 1 });
    });
    await eventually(async () => expect((await anonymous.request(api(thumbnail))).status).toBe(404));
    const mine = await json<{ id: number; averageRating: number; voteCount: number }[]>(await send(alice, 'GET', '/api/user/photos'));
    expect(mine.find((p) => p.id === alices)).toMatchObject({ averageRating: 2, voteCount: 1 });
    // Deleting again finds nothing.
    expect((await send(admin, 'DELETE', `/api/admin/users/${doomedId}`)).status).toBe(404);
  });
});
