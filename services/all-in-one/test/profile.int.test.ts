import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

interface UserJson {
  id: string;
  displayName: string | null;
  customProfileImage: string | null;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };
type Client = Pick<TestBrowser, 'request'>;

const api = (path: string) => `${system.url}${path}`;
const putName = (client: Client, body: unknown) =>
  client.request(api('/api/profile'), { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const me = async (client: Client) => (await (await client.request(api('/api/auth/user'), {})).json()) as UserJson;
const avatarOnDisk = (name: string) => existsSync(join(system.platform.dataDir, 'uploads', 'avatars', name));

function postAvatar(client: Client, bytes: Buffer, { field = 'avatar', filename = 'me.jpg' } = {}) {
  const form = new FormData();
  form.append(field, new Blob([new Uint8Array(bytes)]), filename);
  return client.request(api('/api/profile/avatar'), { method: 'POST', body: form });
}

beforeAll(async () => {
  system = await startTestSystem();
  ({ browser: alice } = await signIn(system.url, 'alice@example.com', 'Alice Example'));
  expect((await alice.request(api('/api/auth/accept-terms'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hasAcceptedTerms":true}' })).status).toBe(200);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('PUT /api/profile', () => {
  it('answers 401 signed out and 403 before the terms are accepted, changing nothing', async () => {
    expect((await putName(anonymous, { displayName: 'Nobody' })).status).toBe(401);
    expect((await postAvatar(anonymous, fixture('rotated-gps.jpg'))).status).toBe(401);
    expect((await putName(newcomer, { displayName: 'Too soon' })).status).toBe(403);
    expect((await me(newcomer)).displayName).not.toBe('Too soon');
  });

  it('refuses a blank, missing or too long name with the spec messages', async () => {
    for (const [body, message] of [
      [{ displayName: '   ' }, 'Display name is required'],
      [{}, 'Display name is required'],
      [{ displayName: 42 }, 'Display name is required'],
      [{ displayName: 'x'.repeat(51) }, 'Display name must be 50 characters or less'],
    ] as const) {
      const response = await putName(alice, body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(await response.json()).toMatchObject({ message });
    }
  });

  it('trims and stores the name, answers the user, and /api/auth/user shows it at once', async () => {
    const response = await putName(alice, { displayName: `  ${'A'.repeat(45)} Ada  ` });
    expect(response.status).toBe(200);
    const user = (await response.json()) as UserJson;
    expect(user.displayName).toBe(`${'A'.repeat(45)} Ada`);
    expect((await me(alice)).displayName).toBe(`${'A'.repeat(45)} Ada`);
  });
});

describe('POST /api/profile/avatar', () => {
  it('stores a 256 px WebP avatar served at /uploads/{name}, and deletes the one it replaces', async () => {
    const first = await postAvatar(alice, fixture('rotated-gps.jpg'));
    expect(first.status).toBe(200);
    const firstBody = (await first.json()) as { user: UserJson; facesDetected?: number };
    const firstName = firstBody.user.customProfileImage!;
    expect(firstName).toMatch(/^[0-9a-f-]{36}\.webp$/);
    if (firstBody.facesDetected !== undefined) expect(firstBody.facesDetected).toBe(0);
    expect((await me(alice)).customProfileImage).toBe(firstName);

    const served = await fetch(api(`/uploads/${firstName}`));
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/webp');
    // A WebP (the storage tests check its 256 px square and missing metadata in detail), with no EXIF chunk.
    const bytes = Buffer.from(await served.arrayBuffer());
    expect([bytes.toString('latin1', 0, 4), bytes.toString('latin1', 8, 12)]).toEqual(['RIFF', 'WEBP']);
    expect(bytes.includes('EXIF')).toBe(false);
    expect(avatarOnDisk(firstName)).toBe(true);

    const second = await postAvatar(alice, fixture('photo.png'), { filename: 'me.png' });
    expect(second.status).toBe(200);
    const secondName = ((await second.json()) as { user: UserJson }).user.customProfileImage!;
    expect(secondName).not.toBe(firstName);
    expect((await fetch(api(`/uploads/${secondName}`))).status).toBe(200);
    expect(avatarOnDisk(firstName)).toBe(false);
    expect((await fetch(api(`/uploads/${firstName}`))).status).toBe(404);
  });

  it('refuses what is not a JPEG or PNG (whatever its name says), a wrong field and more than 5 MB, keeping the avatar', async () => {
    const before = (await me(alice)).customProfileImage;
    for (const [bytes, options] of [
      [fixture('html.jpg'), {}],
      [fixture('pdf.jpg'), {}],
      [fixture('photo.webp'), { filename: 'me.png' }],
      [fixture('photo.heic'), { filename: 'me.jpg' }],
      [fixture('rotated-gps.jpg'), { field: 'photo' }],
    ] as const) {
      const response = await postAvatar(alice, bytes, options);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ message: 'Only JPG, JPEG or PNG images up to 5MB are accepted' });
    }
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    fixture('rotated-gps.jpg').copy(big);
    const tooLarge = await postAvatar(alice, big);
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toMatchObject({ message: 'The avatar must be 5MB or less' });
    const notMultipart = await alice.request(api('/api/profile/avatar'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(notMultipart.status).toBe(400);
    expect((await me(alice)).customProfileImage).toBe(before);
  });
});
