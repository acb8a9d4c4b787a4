import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { openTestPool } from '@snapcracks/kit/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

/**
 * A NUL (or another control character) in any text a person can send: a 400 naming the field, and nothing changed.
 * PostgreSQL refuses NUL in text, so without the check these were 500s, one of them after the photo was stored.
 */
let system: Awaited<ReturnType<typeof startTestSystem>>;
let member: TestBrowser;
let admin: TestBrowser;
const png = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));
const NUL = '\u0000';

const api = (path: string) => `${system.url}${path}`;
const json = (client: Pick<TestBrowser, 'request'>, method: string, path: string, body: unknown) =>
  client.request(api(path), { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
async function refused(response: Response, field: string): Promise<void> {
  expect(response.status).toBe(400);
  expect(await response.json()).toEqual({ message: `${field} must not contain control characters` });
}
async function myPhotos(): Promise<{ id: number; description: string | null }[]> {
  return (await (await member.request(api('/api/user/photos'), {})).json()) as { id: number; description: string | null }[];
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'root@example.com' });
  for (const [email, name] of [
    ['member@example.com', 'Mem Ber'],
    ['root@example.com', 'Root Admin'],
  ] as const) {
    const { browser } = await signIn(system.url, email, name);
    expect((await json(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
    if (email === 'root@example.com') admin = browser;
    else member = browser;
  }
}, 120_000);
afterAll(() => system?.stop());

describe('control characters in text', () => {
  it('refuses an upload whose description holds one, before or after the file, and stores neither photo', async () => {
    const db = openTestPool(system.database.url, 1);
    const announced = async () => (await db.query<{ n: number }>('SELECT count(*)::int AS n FROM photo.outbox')).rows[0]!.n;
    const eventsBefore = await announced();
    for (const order of ['description first', 'file first'] as const) {
      const form = new FormData();
      if (order === 'description first') form.append('description', `A crack${NUL}`);
      form.append('photo', new Blob([new Uint8Array(png)]), 'crack.png');
      if (order === 'file first') form.append('description', `A crack${NUL}`);
      await refused(await member.request(api('/api/photos'), { method: 'POST', body: form }), 'description');
    }
    expect(await myPhotos()).toEqual([]);
    // Not stored and then deleted either: the photo service announced no photo (a description after the file was
    // checked only once the photo existed, which left its events and the read models' records behind).
    expect(await announced()).toBe(eventsBefore);
    await db.end();
  });

  it('refuses one in a description edit, a display name, a search, a rejection reason and a contact message', async () => {
    const form = new FormData();
    form.append('description', 'Plain words');
    form.append('photo', new Blob([new Uint8Array(png)]), 'crack.png');
    const { id } = (await (await member.request(api('/api/photos'), { method: 'POST', body: form })).json()) as { id: number };

    await refused(await json(member, 'PATCH', `/api/photos/${id}`, { description: `x${NUL}y` }), 'description');
    await refused(await json(member, 'PUT', '/api/profile', { displayName: `Mem${NUL}` }), 'displayName');
    await refused(await admin.request(api(`/api/admin/users?q=${encodeURIComponent(`a${NUL}`)}`), {}), 'q');
    await refused(await json(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'rejected', rejectionReason: `No${NUL}` }), 'rejectionReason');
    await refused(await json(admin, 'PATCH', '/api/admin/users/someone', { firstName: `A\u001b[31m` }), 'firstName');
    const contact = await fetch(api('/api/contact'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Sam', email: 'sam@example.com', subject: `Hi${NUL}`, message: 'Hello there, a question.' }),
    });
    await refused(contact, 'subject');

    // Nothing changed: the description, the name, the photo's status and the support list are as they were.
    expect((await myPhotos()).find((photo) => photo.id === id)?.description).toBe('Plain words');
    expect(await (await member.request(api('/api/auth/user'), {})).json()).toMatchObject({ firstName: 'Mem', lastName: 'Ber' });
    const pending = await (await admin.request(api('/api/admin/photos/pending'), {})).text();
    expect(pending).toContain(`"id":${id}`);
    const forms = (await (await admin.request(api('/api/admin/contact-forms?status=all'), {})).json()) as { total: number };
    expect(forms.total).toBe(0);
  });

  it('answers malformed multipart with a 400: no boundary, or a body cut short', async () => {
    const before = await myPhotos();
    const noBoundary = await member.request(api('/api/photos'), { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'just some bytes' });
    expect(noBoundary.status).toBe(400);
    expect(await noBoundary.json()).toEqual({ message: 'The upload could not be read: it was cut short or is not a multipart form. Please try again.' });
    const cut = await member.request(api('/api/photos'), {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data; boundary=XYZ' },
      body: '--XYZ\r\nContent-Disposition: form-data; name="photo"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
    });
    expect(cut.status).toBe(400);
    const avatar = await member.request(api('/api/profile/avatar'), { method: 'POST', headers: { 'content-type': 'multipart/form-data' }, body: 'x' });
    expect(avatar.status).toBe(400);
    expect(await myPhotos()).toEqual(before);
  });

  it('answers authorization first: the signed out get 401 and members 403, whatever the text', async () => {
    expect((await fetch(api(`/api/admin/users?q=${encodeURIComponent(NUL)}`))).status).toBe(401);
    expect((await member.request(api(`/api/admin/users?q=${encodeURIComponent(NUL)}`), {})).status).toBe(403);
  });

  it('keeps tab and newline in multi-line text', async () => {
    const { id } = (await myPhotos())[0]!;
    const edited = await json(member, 'PATCH', `/api/photos/${id}`, { description: 'First line\nsecond\tline' });
    expect(edited.status).toBe(200);
    expect((await myPhotos()).find((photo) => photo.id === id)?.description).toBe('First line\nsecond\tline');
  });
});
