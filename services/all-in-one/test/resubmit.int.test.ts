import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { RESUBMIT, type AdminPhotoPage, type Photo } from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { type Client, anonymous, json, message, productApi } from './api-client.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));
/** pg, through the kit that depends on it: the test moves a rejection into the past. */
const pg = createRequire(import.meta.resolve('@snapcracks/kit'))('pg') as {
  Client: new (options: { connectionString: string }) => { connect(): Promise<void>; query(sql: string, values?: unknown[]): Promise<unknown>; end(): Promise<void> };
};

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let owner: TestBrowser;
let other: TestBrowser;
let newcomer: TestBrowser;
let disabled: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const { send, member } = productApi(() => system.url);

/** A photo of the owner's, uploaded and rejected with `reason`. */
async function rejectedPhoto(reason: string, description = 'A crack in the wall'): Promise<number> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(fixture('rotated-gps.jpg'))]), 'crack.jpg');
  const { id } = await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201);
  await json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'rejected', rejectionReason: reason }));
  return id;
}
const resubmit = (client: Client, id: number, body: unknown = {}) => send(client, 'POST', `/api/photos/${id}/resubmission`, body);
const mine = async (id: number) => (await json<Photo[]>(await send(owner, 'GET', '/api/user/photos'))).find((photo) => photo.id === id)!;
const inList = async (list: string, id: number) => (await json<AdminPhotoPage>(await send(admin, 'GET', `/api/admin/photos/${list}?limit=100`))).photos.find((p) => p.id === id);

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [admin, owner, other, disabled] = await Promise.all([
    member('boss@example.com', 'Boss Example'),
    member('owner@example.com', 'Owner Example'),
    member('other@example.com', 'Other Example'),
    member('gone@example.com', 'Gone Member'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  const { id: disabledId } = await json<{ id: string }>(await send(disabled, 'GET', '/api/auth/user'));
  await json(await send(admin, 'PATCH', `/api/admin/users/${disabledId}`, { isEnabled: false }));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('fix and resubmit', () => {
  it('lets only the owner resubmit: 401 signed out, 403 without terms or disabled, 404 to another member, 403 to an admin', async () => {
    const id = await rejectedPhoto('Blurry');
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['terms pending', newcomer, 403],
      ['disabled', disabled, 403],
      ['another member', other, 404],
      ['an admin', admin, 403],
    ] as const) {
      expect((await resubmit(client, id, { note: 'Please' })).status, who).toBe(status);
    }
    expect(await message(await resubmit(owner, id, { note: 'x'.repeat(501) }), 400)).toBe(RESUBMIT.noteTooLong);
    expect(await mine(id)).toMatchObject({ status: 'rejected', resubmission: null, resubmitUntil: expect.any(String), finalRejection: false });
  });

  it('sends the fixed photo back to review with the note; the admin sees the previous reason and what changed; a second rejection is final', async () => {
    const id = await rejectedPhoto('A face is visible at the left', 'Crack by the bakery');
    const rejected = await mine(id);
    const deadline = Date.parse(rejected.resubmitUntil!);
    expect(deadline - Date.parse(rejected.createdAt!)).toBeGreaterThan(29 * 24 * 3600_000);
    expect(rejected.privacyBars).toEqual([]);

    // The owner fixes it with the usual edits, then resubmits.
    await json(await send(owner, 'PATCH', `/api/photos/${id}`, { description: 'Crack by the bakery, face hidden' }));
    await json(await send(owner, 'POST', `/api/photos/${id}/privacy-bars`, { bars: [{ x: 5, y: 10, width: 20, height: 30 }] }));
    const resubmitted = await json<Photo>(await resubmit(owner, id, { note: '  Hid the face with a bar  ' }));
    expect(resubmitted).toMatchObject({
      status: 'pending',
      rejectionReason: null,
      resubmitUntil: null,
      finalRejection: false,
      resubmission: {
        note: 'Hid the face with a bar',
        previousRejectionReason: 'A face is visible at the left',
        descriptionBefore: 'Crack by the bakery',
        privacyBarsBefore: [],
      },
    });

    // The admin's pending list: the resubmission beside the photo as it is now, and the history in the audit log.
    const pending = await inList('pending', id);
    expect(pending).toMatchObject({
      description: 'Crack by the bakery, face hidden',
      privacyBars: [{ x: 5, y: 10, width: 20, height: 30 }],
      resubmission: { previousRejectionReason: 'A face is visible at the left', note: 'Hid the face with a bar', privacyBarsBefore: [] },
    });
    // The resubmission reaches the audit log through the photo's event.
    await vi.waitFor(
      async () =>
        expect((await inList('pending', id))!.auditLog.map((entry) => [entry.action, entry.reason])).toEqual([
          ['resubmit', 'Hid the face with a bar'],
          ['reject', 'A face is visible at the left'],
        ]),
      { timeout: 15_000, interval: 100 },
    );

    // Once only.
    expect(await message(await resubmit(owner, id), 409)).toBe(RESUBMIT.notRejected);
    await json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'rejected', rejectionReason: 'Still recognisable' }));
    expect(await mine(id)).toMatchObject({ status: 'rejected', rejectionReason: 'Still recognisable', resubmitUntil: null, finalRejection: true });
    expect(await message(await resubmit(owner, id), 409)).toBe(RESUBMIT.final);
  });

  it('refuses a resubmission after 30 days, and one of a photo that is not rejected', async () => {
    const late = await rejectedPhoto('Not a crack');
    const db = new pg.Client({ connectionString: system.database.url });
    await db.connect();
    try {
      await db.query(`UPDATE photo.photos SET reviewed_at = reviewed_at - interval '31 days' WHERE id = $1`, [late]);
    } finally {
      await db.end();
    }
    expect(await mine(late)).toMatchObject({ resubmitUntil: null, finalRejection: false });
    expect(await message(await resubmit(owner, late), 409)).toBe(RESUBMIT.expired);

    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(fixture('photo.webp'))]), 'pending.webp');
    const { id: pendingId } = await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201);
    expect(await message(await resubmit(owner, pendingId), 409)).toBe(RESUBMIT.notRejected);
    expect((await resubmit(owner, 999_999)).status).toBe(404);
  });
});
