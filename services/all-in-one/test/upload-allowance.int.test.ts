import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { ALLOWANCE, type Photo, type UploadAllowance, type UploadAllowanceSettings } from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { type Client, anonymous, json, productApi } from './api-client.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let alice: TestBrowser;
let bob: TestBrowser;
let newcomer: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const { send, member } = productApi(() => system.url);
function upload(client: Client): Promise<Response> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(fixture('photo.webp'))]), 'crack.webp');
  return client.request(api('/api/photos'), { method: 'POST', body: form });
}
const allowanceOf = async (client: Client) => json<UploadAllowance>(await send(client, 'GET', '/api/user/upload-allowance'));
const setSettings = (client: Client, settings: unknown) => send(client, 'PUT', '/api/admin/upload-allowance', settings);
const myPhotos = async (client: Client) => json<Photo[]>(await send(client, 'GET', '/api/user/photos'));

beforeAll(async () => {
  // Uploads at once are bounded by the allowance here, not by the gateway's per-member count of uploads in flight.
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com', RATE_LIMIT_UPLOADS_IN_FLIGHT: '10' });
  [admin, alice, bob] = await Promise.all([member('boss@example.com', 'Boss Example'), member('alice@example.com', 'Alice Example'), member('bob@example.com', 'Bob Example')]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('upload allowances', () => {
  it('lets only admins read and change the settings, refusing bad values with the contract message', async () => {
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['terms pending', newcomer, 403],
      ['a member', alice, 403],
    ] as const) {
      expect((await send(client, 'GET', '/api/admin/upload-allowance')).status, who).toBe(status);
      expect((await setSettings(client, { pendingLimit: 1, trustedAfter: 1, trustedPendingLimit: 1 })).status, who).toBe(status);
    }
    expect((await send(anonymous, 'GET', '/api/user/upload-allowance')).status).toBe(401);
    expect(await json(await send(admin, 'GET', '/api/admin/upload-allowance'))).toEqual(ALLOWANCE.defaults);
    for (const bad of [
      { pendingLimit: 0, trustedAfter: 10, trustedPendingLimit: 15 },
      { pendingLimit: 5, trustedAfter: 10, trustedPendingLimit: 4 },
      { pendingLimit: 2.5, trustedAfter: 10, trustedPendingLimit: 15 },
      { pendingLimit: 5, trustedAfter: 10 },
    ]) {
      expect(((await json<{ message: string }>(await setSettings(admin, bad), 400)).message)).toBe(ALLOWANCE.settingInvalid);
    }
    expect(await json(await send(admin, 'GET', '/api/admin/upload-allowance'))).toEqual(ALLOWANCE.defaults);
  });

  it('refuses an upload past the allowance with a 429 saying why, stores nothing, and counts the place freed by a review', async () => {
    await json<UploadAllowanceSettings>(await setSettings(admin, { pendingLimit: 2, trustedAfter: 1, trustedPendingLimit: 3 }));
    expect(await allowanceOf(bob)).toEqual({ limit: 2, pending: 0, trusted: false, reasons: [ALLOWANCE.base(2), ALLOWANCE.towardTrusted(1, 3)] });
    const first = await json<{ id: number }>(await upload(bob), 201);
    await json(await upload(bob), 201);
    const refused = await upload(bob);
    expect(refused.status).toBe(429);
    expect(((await refused.json()) as { message: string }).message).toBe(ALLOWANCE.full(2, 2));
    expect(await myPhotos(bob)).toHaveLength(2);
    await json(await send(admin, 'PATCH', `/api/admin/photos/${first.id}/status`, { status: 'approved' }));
    // One approved photo and a clean record: the larger allowance (3), with one pending now.
    expect(await allowanceOf(bob)).toMatchObject({ limit: 3, pending: 1, trusted: true });
    // Four at once for the two places left: the count under the member's lock lets two in.
    const atOnce = await Promise.all([upload(bob), upload(bob), upload(bob), upload(bob)]);
    expect(atOnce.map((r) => r.status).sort()).toEqual([201, 201, 429, 429]);
    for (const response of atOnce.filter((r) => r.status === 429)) expect(((await response.json()) as { message: string }).message).toMatch(/^You have 3 photos waiting for review, your allowance is 3\./);
    expect((await myPhotos(bob)).filter((p) => p.status === 'pending')).toHaveLength(3);
  });

  it('shrinks with a recent rejection and says so; other members are not affected', async () => {
    const pending = (await myPhotos(bob)).filter((p) => p.status === 'pending');
    await json(await send(admin, 'PATCH', `/api/admin/photos/${pending[0]!.id}/status`, { status: 'rejected', rejectionReason: 'Blurry' }));
    const allowance = await allowanceOf(bob);
    expect(allowance).toMatchObject({ limit: 1, pending: 2, trusted: false });
    expect(allowance.reasons).toContain(ALLOWANCE.penalty(1));
    expect((await upload(bob)).status).toBe(429);
    expect((await upload(alice)).status).toBe(201);
  });
});
