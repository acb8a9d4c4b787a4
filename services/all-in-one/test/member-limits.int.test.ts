import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

/** The little of sharp this test uses (it lives with the storage service): making JPEGs of a given size. */
interface SharpImage {
  jpeg(options: { quality: number }): SharpImage;
  toBuffer(): Promise<Buffer>;
}
const sharp = createRequire(import.meta.resolve('@snapcracks/storage'))('sharp') as (input: {
  create: { width: number; height: number; channels: 3; background: { r: number; g: number; b: number } };
}) => SharpImage;
const jpeg = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 120, g: 90, b: 60 } } }).jpeg({ quality: 80 }).toBuffer();

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let bob: TestBrowser;

const api = (path: string) => `${system.url}${path}`;

function upload(client: TestBrowser, file: Buffer): Promise<Response> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(file)]), 'crack.jpg');
  return client.request(api('/api/photos'), { method: 'POST', body: form });
}

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  const accepted = await browser.request(api('/api/auth/accept-terms'), {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ hasAcceptedTerms: true }),
  });
  expect(accepted.status).toBe(200);
  return browser;
}

async function myPhotoCount(client: TestBrowser): Promise<number> {
  return ((await (await client.request(api('/api/user/photos'), {})).json()) as unknown[]).length;
}

function storedFiles(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  try {
    return walk(join(system.platform.dataDir, 'uploads'));
  } catch {
    return [];
  }
}

beforeAll(async () => {
  // A small pixel limit and upload limit, so the test's images and uploads stay small and few.
  system = await startTestSystem({ IMAGE_MAX_PIXELS: '1000000', RATE_LIMIT_UPLOADS: '3/1m' });
  [alice, bob] = await Promise.all([member('alice@example.com', 'Alice Example'), member('bob@example.com', 'Bob Example')]);
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('the pixel limit (IMAGE_MAX_PIXELS)', () => {
  it('refuses an image over it with a 400 that names the limit, and stores nothing', async () => {
    const response = await upload(alice, await jpeg(1001, 1000));
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: 'Photos of up to 1 megapixels are accepted. Please upload a smaller version of this photo.' });
    expect(await myPhotoCount(alice)).toBe(0);
    expect(storedFiles()).toEqual([]);
    // Exactly the limit is fine.
    expect((await upload(alice, await jpeg(1000, 1000))).status).toBe(201);
  });
});

describe('per-member upload limit (RATE_LIMIT_UPLOADS)', () => {
  it('answers a member over it 429 with Retry-After, and another member is unaffected', async () => {
    const photo = await jpeg(64, 48);
    for (let i = 0; i < 3; i++) expect((await upload(bob, photo)).status).toBe(201);
    const refused = await upload(bob, photo);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.json()).toEqual({ message: 'You are uploading photos faster than allowed. Please wait a minute and try again.' });
    expect(await myPhotoCount(bob)).toBe(3);
    // Alice's own count (two so far, one refused by the pixel limit) is hers.
    expect((await upload(alice, photo)).status).toBe(201);
  });
});
