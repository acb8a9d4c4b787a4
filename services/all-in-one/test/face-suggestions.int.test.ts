import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

// A photo of three people from face-api's own demo (MIT, shipped in the npm package storage depends on), so no
// picture of a person is kept in this repository. A photo without faces comes from storage's fixtures.
const faceApiDir = dirname(createRequire(new URL('../../storage/package.json', import.meta.url)).resolve('@vladmandic/face-api/package.json'));
const peoplePhoto = readFileSync(join(faceApiDir, 'demo/sample1.jpg'));
const noFacesPhoto = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));

const REFUSED = 'Only JPG, PNG or WebP images up to 3MB can be checked for faces';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };
type Client = Pick<TestBrowser, 'request'>;
interface Bar {
  x: number;
  y: number;
  width: number;
  height: number;
}

const suggest = (client: Client, body: NonNullable<RequestInit['body']>, type = 'image/jpeg') =>
  client.request(`${system.url}/api/photos/face-suggestions`, { method: 'POST', headers: { 'content-type': type }, body });

beforeAll(async () => {
  system = await startTestSystem();
  ({ browser: alice } = await signIn(system.url, 'alice@example.com', 'Alice Example'));
  const accepted = await alice.request(`${system.url}/api/auth/accept-terms`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: '{"hasAcceptedTerms":true}',
  });
  expect(accepted.status).toBe(200);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('POST /api/photos/face-suggestions', () => {
  it('answers a member one padded bar per face, in percentages inside the image', async () => {
    // The first detection loads the model on a cold thread: seconds on a busy machine.
    const response = await suggest(alice, new Uint8Array(peoplePhoto));
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const { bars } = (await response.json()) as { bars: Bar[] };
    // Three people; the tiny detector reliably finds the two faces turned towards the camera.
    expect(bars.length).toBeGreaterThanOrEqual(2);
    expect(bars.length).toBeLessThanOrEqual(3);
    for (const bar of bars) {
      expect(bar.x).toBeGreaterThanOrEqual(0);
      expect(bar.y).toBeGreaterThanOrEqual(0);
      expect(bar.x + bar.width).toBeLessThanOrEqual(100);
      expect(bar.y + bar.height).toBeLessThanOrEqual(100);
      // A face, not the whole picture nor a speck.
      expect(bar.width).toBeGreaterThan(5);
      expect(bar.width).toBeLessThan(40);
    }
    // The woman on the right: her face is in the right third, in the upper half.
    expect(bars.some((bar) => bar.x > 60 && bar.y + bar.height < 60)).toBe(true);
  }, 60_000);

  it('answers an empty list for a photo without faces', async () => {
    const response = await suggest(alice, new Uint8Array(noFacesPhoto), 'image/png');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bars: [] });
  }, 30_000);

  it('answers 401 signed out and 403 before the terms are accepted', async () => {
    expect((await suggest(anonymous, new Uint8Array(peoplePhoto))).status).toBe(401);
    const early = await suggest(newcomer, new Uint8Array(peoplePhoto));
    expect(early.status).toBe(403);
  });

  it('refuses what is not a JPEG, PNG or WebP, or is larger than 3 MB, with one message', async () => {
    for (const [body, type, status] of [
      ['not an image at all', 'image/jpeg', 400],
      ['{"image":"x"}', 'application/json', 400],
      [new Uint8Array(0), 'image/jpeg', 400],
      [new Uint8Array(3 * 1024 * 1024 + 1), 'image/jpeg', 413],
    ] as const) {
      const response = await suggest(alice, body, type);
      expect(response.status, `${type} ${typeof body === 'string' ? body : body.byteLength}`).toBe(status);
      expect(await response.json()).toEqual({ message: REFUSED });
    }
  });
});
