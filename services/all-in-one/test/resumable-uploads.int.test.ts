import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { ResumableUploadRepository } from '@snapcracks/gateway';
import { ERRORS, RESUMABLE_UPLOAD, UPLOAD, type Photo } from '@snapcracks/http-contract';
import type { RunningSystem } from '../src/system.js';
import { startTestReplica, startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { anonymous, json, message, productApi, sessionCookie, withSession, type Client } from './api-client.js';

/**
 * Issue 22, "Uploads that survive a bad connection": the tus endpoints and the call that makes a whole upload a photo,
 * through two replicas of the product on one database, with a connection cut half-way.
 */

const NATS_URL = process.env.NATS_URL ?? 'nats://127.0.0.1:4222';
const SESSION_SECRET = 'a shared session secret of at least thirty-two characters';
const TUS = { 'tus-resumable': RESUMABLE_UPLOAD.tusVersion };
const CHUNK = { ...TUS, 'content-type': 'application/offset+octet-stream' };
const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));
/** A real camera's photo, 1.8 MB. */
const CAMERA_JPEG = fixture('real/canon-eos-rebel-t6-adobe-rgb.jpg');

let system: Awaited<ReturnType<typeof startTestSystem>>;
let replica: RunningSystem & { url: string };
let db: pg.Client;
let pool: pg.Pool;
let ada: TestBrowser;
let bob: TestBrowser;
let newcomer: TestBrowser;

const { send, member } = productApi(() => system.url);

const cookieOf = (browser: TestBrowser) => sessionCookie(browser, system.url);
/** The member's session, presented to either replica (they share the sessions table and its secret). */
const asMember = (browser: TestBrowser) => withSession(browser, system.url);

async function begin(client: Client, base: string, length: number, headers: Record<string, string> = {}, body?: Uint8Array): Promise<Response> {
  return client.request(`${base}${RESUMABLE_UPLOAD.path}`, {
    method: 'POST',
    headers: { ...TUS, 'upload-length': String(length), 'upload-metadata': `filename ${Buffer.from('crack.jpg').toString('base64')}`, ...headers, ...(body ? { 'content-type': 'application/offset+octet-stream' } : {}) },
    ...(body ? { body } : {}),
  });
}
async function created(client: Client, base: string, length: number): Promise<string> {
  const response = await begin(client, base, length);
  expect(response.status, await response.clone().text()).toBe(201);
  const location = response.headers.get('location') ?? '';
  expect(location).toMatch(new RegExp(`^${RESUMABLE_UPLOAD.path}/[0-9a-f]{32}$`));
  return location.split('/').at(-1)!;
}
const offsetOf = async (client: Client, base: string, id: string) => {
  const response = await client.request(`${base}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'HEAD', headers: TUS });
  expect(response.status).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return Number(response.headers.get('upload-offset'));
};
const patch = (client: Client, base: string, id: string, offset: number, bytes: Uint8Array) =>
  client.request(`${base}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'PATCH', headers: { ...CHUNK, 'upload-offset': String(offset) }, body: bytes });
const finish = (client: Client, base: string, id: string, body: object = {}) =>
  client.request(`${base}${RESUMABLE_UPLOAD.path}/${id}/photo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const storedParts = async (id: string) => Number((await db.query(`SELECT count(*) AS n FROM gateway.resumable_upload_parts WHERE upload_id = $1`, [id])).rows[0].n);

/**
 * Sends `bytes` as one PATCH from `offset` over a raw connection and cuts it after `cutAfter` bytes: what a phone
 * going into a tunnel does. Resolves once the connection is gone.
 */
function patchCut(base: string, cookie: string, id: string, offset: number, bytes: Buffer, cutAfter: number): Promise<void> {
  return new Promise((resolve) => {
    const url = new URL(`${base}${RESUMABLE_UPLOAD.path}/${id}`);
    const request = http.request(url, {
      method: 'PATCH',
      headers: { ...CHUNK, 'upload-offset': String(offset), 'content-length': String(bytes.byteLength), cookie },
    });
    request.on('error', () => resolve());
    request.on('close', () => resolve());
    request.write(bytes.subarray(0, cutAfter), () => setTimeout(() => request.destroy(), 300));
  });
}

beforeAll(async () => {
  const natsStream = `RESUME_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const env = { SESSION_SECRET, RATE_LIMIT_UPLOADS: '1000/1m' };
  system = await startTestSystem(env, { natsUrl: NATS_URL, natsStream });
  replica = await startTestReplica(system, env, { natsUrl: NATS_URL, natsStream });
  db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  pool = new pg.Pool({ connectionString: system.database.url, max: 2 });
  [ada, bob] = await Promise.all([member('ada@example.com', 'Ada Lovelace'), member('bob@example.com', 'Bob Builder')]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 180_000);
afterAll(async () => {
  await db?.end();
  await pool?.end();
  await replica?.stop();
  await system?.stop();
});

describe('an upload cut half-way', () => {
  it('resumes from the bytes that arrived, through the other replica, and becomes the member\'s photo once', async () => {
    const base = system.url;
    const id = await created(ada, base, CAMERA_JPEG.byteLength);
    expect(await offsetOf(ada, base, id)).toBe(0);

    // 700 KB go out, then the connection drops.
    await patchCut(base, cookieOf(ada), id, 0, CAMERA_JPEG, 700 * 1024);
    const kept = await vi.waitFor(async () => {
      const offset = await offsetOf(asMember(ada), replica.url, id);
      expect(offset).toBeGreaterThan(0);
      return offset;
    });
    expect(kept).toBeLessThanOrEqual(700 * 1024);
    // Finishing before the bytes are whole is refused and changes nothing.
    expect(await message(await finish(ada, base, id), 409)).toBe(RESUMABLE_UPLOAD.incomplete);

    // The rest, from where the other replica says it stopped.
    const rest = await patch(asMember(ada), replica.url, id, kept, CAMERA_JPEG.subarray(kept));
    expect(rest.status).toBe(204);
    expect(Number(rest.headers.get('upload-offset'))).toBe(CAMERA_JPEG.byteLength);

    const photo = await json<{ id: number; filename: string }>(await finish(asMember(ada), replica.url, id, { description: 'A crack in the tunnel', altText: 'A crack across a tiled wall' }), 201);
    // Asked again (an answer lost on the way back), the same photo; no second one.
    expect(await json(await finish(ada, base, id), 201)).toEqual(photo);
    const mine = await json<Photo[]>(await send(ada, 'GET', '/api/user/photos'));
    expect(mine.filter((p) => p.id === photo.id)).toHaveLength(1);
    expect(mine).toHaveLength(1);
    const stored = mine[0]!;
    expect(stored).toMatchObject({ status: 'pending', description: 'A crack in the tunnel', altText: 'A crack across a tiled wall' });
    // The photo is the camera's (its size survives the cleaning), and the upload's bytes are gone.
    const { rows } = await db.query(`SELECT original_name FROM photo.photos WHERE id = $1`, [photo.id]);
    expect(rows[0].original_name).toBe('crack.jpg');
    expect(await storedParts(id)).toBe(0);
  });

  it('takes the first bytes with the creation and refuses a second writer at a stale offset', async () => {
    const head = CAMERA_JPEG.subarray(0, 300 * 1024);
    const response = await begin(ada, system.url, CAMERA_JPEG.byteLength, {}, head);
    expect(response.status).toBe(201);
    expect(Number(response.headers.get('upload-offset'))).toBe(head.byteLength);
    expect(response.headers.get('upload-expires')).toBeTruthy();
    const id = response.headers.get('location')!.split('/').at(-1)!;
    const stale = await patch(ada, system.url, id, 0, CAMERA_JPEG.subarray(0, 1024));
    expect(await message(stale, 409)).toBe(RESUMABLE_UPLOAD.offsetConflict);
    expect(await offsetOf(ada, system.url, id)).toBe(head.byteLength);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'DELETE', headers: TUS })).status).toBe(204);
  });
});

describe('the same rules as POST /api/photos', () => {
  it('refuses bytes that are not an image as soon as they arrive, and forgets them', async () => {
    const text = Buffer.from('%PDF-1.7\n' + 'x'.repeat(5000));
    const id = await created(ada, system.url, text.byteLength);
    expect(await message(await patch(ada, system.url, id, 0, text), 415)).toBe(UPLOAD.refused);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'HEAD', headers: TUS })).status).toBe(404);
    expect((await db.query(`SELECT 1 FROM gateway.resumable_uploads WHERE id = $1`, [id])).rowCount).toBe(0);
  });

  it('checks the first bytes even when they come a few at a time', async () => {
    const id = await created(ada, system.url, CAMERA_JPEG.byteLength);
    expect((await patch(ada, system.url, id, 0, CAMERA_JPEG.subarray(0, 10))).status).toBe(204);
    expect((await patch(ada, system.url, id, 10, CAMERA_JPEG.subarray(10, 100))).status).toBe(204);
    expect(await offsetOf(ada, system.url, id)).toBe(100);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'DELETE', headers: TUS })).status).toBe(204);

    const fake = await created(ada, system.url, 5000);
    expect((await patch(ada, system.url, fake, 0, Buffer.from([0xff, 0xd8]))).status).toBe(204);
    expect(await message(await patch(ada, system.url, fake, 2, Buffer.alloc(200, 0x41)), 415)).toBe(UPLOAD.refused);
  });

  it('refuses a file over 10 MB, an upload without a length, and a client without the protocol version', async () => {
    expect(await message(await begin(ada, system.url, UPLOAD.maxBytes + 1), 413)).toBe(UPLOAD.refused);
    const noLength = await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}`, { method: 'POST', headers: TUS });
    expect(await message(noLength, 400)).toBe(RESUMABLE_UPLOAD.lengthRequired);
    const deferred = await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}`, { method: 'POST', headers: { ...TUS, 'upload-defer-length': '1' } });
    expect(await message(deferred, 400)).toBe(RESUMABLE_UPLOAD.lengthRequired);
    const noVersion = await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}`, { method: 'POST', headers: { 'upload-length': '100' } });
    expect(noVersion.status).toBe(412);
    expect(noVersion.headers.get('tus-resumable')).toBe(RESUMABLE_UPLOAD.tusVersion);
    expect(await message(await begin(ada, system.url, 0), 400)).toBe(UPLOAD.refused);
  });

  it('deletes an upload the photo service refuses as an image, and keeps nothing of it', async () => {
    const truncated = fixture('truncated.jpg');
    const id = await created(ada, system.url, truncated.byteLength);
    expect((await patch(ada, system.url, id, 0, truncated)).status).toBe(204);
    expect(await message(await finish(ada, system.url, id), 400)).toBe(UPLOAD.refused);
    expect(await message(await finish(ada, system.url, id), 404)).toBe(RESUMABLE_UPLOAD.notFound);
  });

  it('refuses a description over the limit before touching the upload', async () => {
    const id = await created(ada, system.url, CAMERA_JPEG.byteLength);
    expect((await patch(ada, system.url, id, 0, CAMERA_JPEG)).status).toBe(204);
    expect((await finish(ada, system.url, id, { description: 'x'.repeat(501) })).status).toBe(400);
    expect(await offsetOf(ada, system.url, id)).toBe(CAMERA_JPEG.byteLength);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'DELETE', headers: TUS })).status).toBe(204);
  });

  it(`allows ${RESUMABLE_UPLOAD.maxUnfinished} unfinished uploads a member at once`, async () => {
    const ids = [];
    for (let i = 0; i < RESUMABLE_UPLOAD.maxUnfinished; i += 1) ids.push(await created(bob, system.url, 1000));
    expect(await message(await begin(bob, system.url, 1000), 429)).toBe(RESUMABLE_UPLOAD.tooManyUnfinished);
    expect((await bob.request(`${system.url}${RESUMABLE_UPLOAD.path}/${ids[0]}`, { method: 'DELETE', headers: TUS })).status).toBe(204);
    ids[0] = await created(asMember(bob), replica.url, 1000);
    for (const id of ids) expect((await bob.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'DELETE', headers: TUS })).status).toBe(204);
  });
});

describe('expiry', () => {
  it('answers 410 once an upload is past its time, and the sweep deletes it with its bytes', async () => {
    const id = await created(ada, system.url, CAMERA_JPEG.byteLength);
    expect((await patch(ada, system.url, id, 0, CAMERA_JPEG.subarray(0, 400 * 1024))).status).toBe(204);
    expect(await storedParts(id)).toBeGreaterThan(0);
    await db.query(`UPDATE gateway.resumable_uploads SET created_at = created_at - interval '25 hours', expires_at = expires_at - interval '25 hours' WHERE id = $1`, [id]);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'HEAD', headers: TUS })).status).toBe(410);
    expect(await message(await patch(ada, system.url, id, 400 * 1024, CAMERA_JPEG.subarray(400 * 1024)), 410)).toBe(RESUMABLE_UPLOAD.expired);
    expect(await message(await finish(ada, system.url, id), 410)).toBe(RESUMABLE_UPLOAD.expired);
    expect(await new ResumableUploadRepository(pool).deleteExpired()).toBeGreaterThanOrEqual(1);
    expect(await storedParts(id)).toBe(0);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'HEAD', headers: TUS })).status).toBe(404);
  });
});

describe('who may reach an upload', () => {
  it('answers only its member: the signed out get 401, members before the terms 403, everyone else 404', async () => {
    const id = await created(ada, system.url, CAMERA_JPEG.byteLength);
    const calls: Array<[string, string, RequestInit]> = [
      ['POST', RESUMABLE_UPLOAD.path, { headers: { ...TUS, 'upload-length': '1000' } }],
      ['HEAD', `${RESUMABLE_UPLOAD.path}/${id}`, { headers: TUS }],
      ['PATCH', `${RESUMABLE_UPLOAD.path}/${id}`, { headers: { ...CHUNK, 'upload-offset': '0' }, body: CAMERA_JPEG.subarray(0, 1000) }],
      ['DELETE', `${RESUMABLE_UPLOAD.path}/${id}`, { headers: TUS }],
      ['POST', `${RESUMABLE_UPLOAD.path}/${id}/photo`, { headers: { 'content-type': 'application/json' }, body: '{}' }],
    ];
    for (const [method, path, init] of calls) {
      const signedOut = await anonymous.request(`${system.url}${path}`, { method, ...init });
      expect(signedOut.status, `${method} ${path}`).toBe(401);
      if (method !== 'HEAD') expect(((await signedOut.json()) as { message: string }).message).toBe(ERRORS.unauthorized);
      expect((await newcomer.request(`${system.url}${path}`, { method, ...init })).status, `${method} ${path}`).toBe(403);
      if (path === RESUMABLE_UPLOAD.path) continue;
      expect((await bob.request(`${system.url}${path}`, { method, ...init })).status, `${method} ${path} by another member`).toBe(404);
    }
    // Nothing the others tried changed it.
    expect(await offsetOf(ada, system.url, id)).toBe(0);
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/${id}`, { method: 'DELETE', headers: TUS })).status).toBe(204);
  });

  it('refuses an id that is not one', async () => {
    expect((await ada.request(`${system.url}${RESUMABLE_UPLOAD.path}/nope`, { method: 'PATCH', headers: { ...CHUNK, 'upload-offset': '0' }, body: 'x' })).status).toBe(400);
    expect(await message(await finish(ada, system.url, 'a'.repeat(32)), 404)).toBe(RESUMABLE_UPLOAD.notFound);
  });
});
