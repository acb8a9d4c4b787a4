import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

/**
 * Issue 18 §4: a photo's public images are cached for a bounded time, and an earlier version (before the bars
 * changed) or a removed photo is no longer served: a cache that revalidates what it kept gets a redirect or a 404,
 * never the old bytes.
 */
const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

interface PhotoJson {
  id: number;
  filename: string;
  imageVersion: number;
  thumbnailUrl: string;
  mediumUrl: string;
  displayUrl: string;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
let owner: TestBrowser;
let admin: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, { redirect: 'manual', ...init }) };
type Client = Pick<TestBrowser, 'request'>;

const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (client: Client, path: string, headers: Record<string, string> = {}) => client.request(api(path), { headers });

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}
async function photoOf(id: number): Promise<PhotoJson> {
  const photos = (await (await get(owner, '/api/user/photos')).json()) as PhotoJson[];
  return photos.find((photo) => photo.id === id)!;
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [owner, admin] = await Promise.all([member('owner@example.com', 'Olive Owner'), member('boss@example.com', 'Boss Example')]);
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe("a photo's public images", () => {
  let before: PhotoJson;
  let after: PhotoJson;
  let oldBytes: Buffer;
  let oldEtag: string;

  beforeAll(async () => {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'wall.png');
    const { id } = (await (await owner.request(api('/api/photos'), { method: 'POST', body: form })).json()) as { id: number };
    expect((await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' })).status).toBe(200);
    before = await photoOf(id);
  });

  it('are cached for an hour under their versioned URL, revalidated after that', async () => {
    const display = await get(anonymous, before.displayUrl);
    expect(display.status).toBe(200);
    expect(display.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    expect(display.headers.get('cache-control')).not.toContain('immutable');
    oldBytes = Buffer.from(await display.arrayBuffer());
    oldEtag = display.headers.get('etag')!;
    expect((await get(anonymous, before.displayUrl, { 'if-none-match': oldEtag })).status).toBe(304);
  });

  it('are no longer served under an earlier version once the bars change: a redirect to the current one', async () => {
    expect((await send(owner, 'POST', `/api/photos/${before.id}/privacy-bars`, { bars: [{ x: 0, y: 0, width: 50, height: 50 }] })).status).toBe(200);
    after = await photoOf(before.id);
    expect(after.imageVersion).toBeGreaterThan(before.imageVersion);

    for (const [old, current] of [
      [before.displayUrl, after.displayUrl],
      [before.mediumUrl, after.mediumUrl],
      [before.thumbnailUrl, after.thumbnailUrl],
    ] as const) {
      // A cache revalidating the copy it kept, and one asking afresh: neither gets the old bytes.
      for (const headers of [{ 'if-none-match': oldEtag }, {}] as Record<string, string>[]) {
        const response = await get(anonymous, old, headers);
        expect(response.status, old).toBe(302);
        expect(response.headers.get('location')).toBe(current);
        expect(response.headers.get('cache-control')).toBe('no-store');
        expect(Buffer.from(await response.arrayBuffer()).length).toBeLessThan(100);
      }
    }
    const current = await get(anonymous, after.displayUrl);
    expect(current.status).toBe(200);
    expect(current.headers.get('etag')).not.toBe(oldEtag);
    expect(Buffer.from(await current.arrayBuffer()).equals(oldBytes)).toBe(false);
  });

  it('are 404 under every version once the photo is removed', async () => {
    expect((await send(owner, 'DELETE', `/api/photos/${before.id}`)).status).toBe(204);
    for (const url of [before.displayUrl, after.displayUrl, after.mediumUrl, after.thumbnailUrl, `/api/uploads/${before.filename}`]) {
      const response = await get(anonymous, url, { 'if-none-match': oldEtag });
      expect(response.status, url).toBe(404);
      expect(response.headers.get('cache-control')).toBe('no-store');
    }
  });
});
