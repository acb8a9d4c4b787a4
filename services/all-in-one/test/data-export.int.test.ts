import { readFileSync } from 'node:fs';
import pg from 'pg';
import yauzl from 'yauzl';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { DATA_EXPORT, ERRORS, type ContactForm, type DataExport, type Photo, type ReportPage, type User } from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { type Client, anonymous, json, message, productApi } from './api-client.js';

/**
 * Issue 22, "Their data": a member's zip of their account, checked file by file against what the API tells them, and
 * who may reach it.
 */

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let db: pg.Client;
let admin: TestBrowser;
let ada: TestBrowser;
let bob: TestBrowser;
let newcomer: TestBrowser;
let disabled: TestBrowser;
let adaId: string;
let bobId: string;
/** Ada's photos: approved, rejected with a reason, pending with bars and alt text. */
let photos: { approved: number; rejected: number; barred: number };
let bobPhotos: number[];
let contactMessage: ContactForm;

const api = (path: string) => `${system.url}${path}`;
const { send, member, idOf } = productApi(() => system.url);
const eventually = <T>(check: () => Promise<T>, timeout = 30_000) => vi.waitFor(check, { timeout, interval: 200 });

async function upload(client: TestBrowser, fields: Record<string, string>, file = 'rotated-gps.jpg'): Promise<number> {
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) form.append(name, value);
  form.append('photo', new Blob([new Uint8Array(fixture(file))]), file);
  return (await json<{ id: number }>(await client.request(api('/api/photos'), { method: 'POST', body: form }), 201)).id;
}
const review = async (id: number, status: 'approved' | 'rejected', rejectionReason?: string) =>
  json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status, ...(rejectionReason ? { rejectionReason } : {}) }));
const latest = async (client: Client) => json<DataExport | null>(await send(client, 'GET', '/api/user/data-export'));
const bytesOf = async (client: Client, path: string) => {
  const response = await client.request(api(path), {});
  expect(response.status, path).toBe(200);
  return Buffer.from(await response.arrayBuffer());
};

/** Every entry of a zip, by name. */
function unzip(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error || !file) return reject(error ?? new Error('no zip'));
      const entries = new Map<string, Buffer>();
      file.on('error', reject);
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) => {
        file.openReadStream(entry, (streamError, stream) => {
          if (streamError || !stream) return reject(streamError ?? new Error('no stream'));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', reject);
          stream.on('end', () => {
            entries.set(entry.fileName, Buffer.concat(chunks));
            file.readEntry();
          });
        });
      });
      file.readEntry();
    });
  });
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'admin@example.com' });
  db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  [admin, ada, bob] = await Promise.all([member('admin@example.com', 'Ann Admin'), member('ada@example.com', 'Ada Lovelace'), member('bob@example.com', 'Bob Builder')]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  disabled = await member('gone@example.com', 'Gone Member');
  [adaId, bobId] = await Promise.all([idOf(ada), idOf(bob)]);
  await json(await send(admin, 'PATCH', `/api/admin/users/${await idOf(disabled)}`, { isEnabled: false }));

  // Ada's account: a photo at each status, one with bars and alt text.
  photos = {
    approved: await upload(ada, { description: 'A crack in the pavement' }),
    rejected: await upload(ada, { description: 'Blurry crack' }),
    barred: await upload(ada, { description: 'A crack by a car', altText: 'A long crack running past a parked car' }),
  };
  await review(photos.approved, 'approved');
  await review(photos.rejected, 'rejected', 'The crack is out of focus.');
  await json(await send(ada, 'POST', `/api/photos/${photos.barred}/privacy-bars`, { bars: [{ x: 10, y: 20, width: 30, height: 15 }] }));
  // Bob's approved photos, which Ada rates and reports.
  bobPhotos = [await upload(bob, { description: 'Bob’s first crack' }), await upload(bob, { description: 'Bob’s second crack' })];
  for (const id of bobPhotos) await review(id, 'approved');
  await eventually(async () => json(await send(ada, 'POST', `/api/photos/${bobPhotos[0]}/vote`, { rating: 4 })));
  await eventually(async () => json(await send(ada, 'POST', `/api/photos/${bobPhotos[1]}/vote`, { rating: 2 })));
  await json(await send(ada, 'POST', `/api/photos/${bobPhotos[1]}/reports`, { category: 'spam', note: 'Posted twice' }), 201);
  contactMessage = await json<ContactForm>(await send(ada, 'POST', '/api/contact', { name: 'Ada', email: 'ada@example.com', subject: 'My data', message: 'Can I have a copy?' }), 201);
}, 180_000);
afterAll(async () => {
  await db?.end();
  await system?.stop();
});

describe('who may reach a data export', () => {
  const ROUTES: Array<[string, string]> = [
    ['POST', '/api/user/data-export'],
    ['GET', '/api/user/data-export'],
    ['GET', '/api/user/data-export/download'],
    ['DELETE', '/api/user/data-export'],
  ];

  it.each(ROUTES)('%s %s: 401 signed out, 403 before the terms and for a disabled account', async (method, path) => {
    expect(await message(await send(anonymous, method, path), 401)).toBe(ERRORS.unauthorized);
    expect(await message(await send(newcomer, method, path), 403)).toBe(ERRORS.termsRequired);
    expect(await message(await send(disabled, method, path), 403)).toBe(ERRORS.disabled);
  });
});

describe("a member's copy of their data", () => {
  let ready: DataExport;
  let entries: Map<string, Buffer>;

  it('is made in the background, with progress, and only its member sees it', async () => {
    expect(await latest(ada)).toBeNull();
    const queued = await json<DataExport>(await send(ada, 'POST', '/api/user/data-export'), 202);
    expect(queued).toMatchObject({ status: 'queued', progress: 0, downloadUrl: null });
    const seen: number[] = [];
    ready = await eventually(async () => {
      const now = (await latest(ada))!;
      seen.push(now.progress);
      expect(now.status).toBe('ready');
      return now;
    });
    expect(ready).toMatchObject({ id: queued.id, progress: 100, error: null, step: null, downloadUrl: '/api/user/data-export/download' });
    expect(ready.size).toBeGreaterThan(0);
    expect(Date.parse(ready.expiresAt!) - Date.parse(ready.finishedAt!)).toBe(DATA_EXPORT.keepHours * 3600_000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    // Bob has none, and cannot download Ada's.
    expect(await latest(bob)).toBeNull();
    expect(await message(await send(bob, 'GET', '/api/user/data-export/download'), 404)).toBe(DATA_EXPORT.notReady);
  });

  it('downloads as a zip attachment whose every file matches the account', async () => {
    const response = await send(ada, 'GET', '/api/user/data-export/download');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/zip');
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="snapcracks-export-${ready.finishedAt!.slice(0, 10)}.zip"`);
    const zip = Buffer.from(await response.arrayBuffer());
    expect(zip.byteLength).toBe(ready.size);
    entries = await unzip(zip);
    const parse = <T>(name: string) => JSON.parse(entries.get(name)!.toString('utf8')) as T;

    expect(entries.get('README.txt')!.toString()).toContain(`Account ${adaId}`);
    expect(parse<User>('account.json')).toEqual(await json<User>(await send(ada, 'GET', '/api/auth/user')));

    // Photos: each as GET /api/user/photos answers it, with its files.
    const listed = await json<Photo[]>(await send(ada, 'GET', '/api/user/photos'));
    const exported = parse<Array<Photo & { files: Record<string, string> }>>('photos.json');
    expect(exported.map(({ files: _files, ...photo }) => photo)).toEqual(listed);
    expect(exported.map((photo) => photo.id).sort()).toEqual(Object.values(photos).sort());
    const byId = new Map(exported.map((photo) => [photo.id, photo]));
    expect(byId.get(photos.rejected)).toMatchObject({ status: 'rejected', rejectionReason: 'The crack is out of focus.' });
    expect(byId.get(photos.barred)).toMatchObject({ status: 'pending', altText: 'A long crack running past a parked car', privacyBars: [{ x: 10, y: 20, width: 30, height: 15 }] });
    expect(byId.get(photos.approved)).toMatchObject({ status: 'approved', description: 'A crack in the pavement' });
    for (const photo of exported) {
      expect(photo.files).toEqual({
        original: `photos/${photo.id}/original.jpg`,
        display: `photos/${photo.id}/display.webp`,
        medium: `photos/${photo.id}/medium.webp`,
        thumbnail: `photos/${photo.id}/thumbnail.webp`,
      });
      // The original: metadata stripped, the very bytes its owner downloads.
      const original = entries.get(photo.files.original!)!;
      expect(original.equals(await bytesOf(ada, `/api/uploads/${photo.filename}?size=original`))).toBe(true);
      expect(original.includes(Buffer.from('GPS'))).toBe(false);
      for (const [name, size] of [['display', 'display'], ['medium', 'medium'], ['thumbnail', 'thumb']] as const) {
        expect(entries.get(photo.files[name]!)!.equals(await bytesOf(ada, `/api/uploads/${photo.filename}?size=${size}`)), `${photo.id} ${name}`).toBe(true);
      }
    }

    // Votes, as the member reads each one, and whether it counts.
    const votes = parse<Array<{ photoId: number; rating: number; counts: boolean; voided: boolean; suspended: boolean; castAt: string }>>('votes.json');
    expect(votes.map(({ photoId, rating, counts }) => ({ photoId, rating, counts })).sort((a, b) => a.photoId - b.photoId)).toEqual([
      { photoId: bobPhotos[0], rating: 4, counts: true },
      { photoId: bobPhotos[1], rating: 2, counts: true },
    ]);
    for (const vote of votes) expect((await json<{ rating: number }>(await send(ada, 'GET', `/api/photos/${vote.photoId}/vote`))).rating).toBe(vote.rating);

    expect(parse('reports.json')).toEqual((await json<ReportPage>(await send(ada, 'GET', '/api/user/reports'))).reports);
    expect(parse('contact-messages.json')).toEqual([contactMessage]);

    // Nothing else, and nothing of Bob's.
    const expected = ['README.txt', 'account.json', 'photos.json', 'votes.json', 'reports.json', 'contact-messages.json', ...exported.flatMap((photo) => Object.values(photo.files))];
    expect([...entries.keys()].sort()).toEqual(expected.sort());
    expect(entries.get('account.json')!.toString()).not.toContain(bobId);
  });

  it('is kept in storage under exports/, where no cleanup takes it for an orphan', async () => {
    const { rows } = await db.query<{ key: string }>(`SELECT key FROM storage.blobs WHERE key LIKE '%:exports/%'`);
    expect(rows.map((row) => row.key)).toEqual([`local:exports/${ready.id}.zip`]);
    await db.query(`UPDATE storage.blobs SET created_at = now() - interval '2 hours' WHERE key = $1`, [rows[0]!.key]);
    await json(await send(admin, 'POST', '/api/admin/cleanup/orphaned'));
    expect((await db.query(`SELECT 1 FROM storage.blobs WHERE key = $1`, [rows[0]!.key])).rowCount).toBe(1);
  });

  it('is one at a time (409) and at most 3 a day (429)', async () => {
    // Bob's copy is being made elsewhere (another replica's, with a fresh heartbeat).
    await db.query(`INSERT INTO gateway.data_exports (id, user_id, status, runner, updated_at) VALUES (gen_random_uuid(), $1, 'running', 'elsewhere', now())`, [bobId]);
    expect(await message(await send(bob, 'POST', '/api/user/data-export'), 409)).toBe(DATA_EXPORT.inProgress);
    expect(await message(await send(bob, 'DELETE', '/api/user/data-export'), 409)).toBe(DATA_EXPORT.inProgress);
    expect((await latest(bob))!.status).toBe('running');
    await db.query(`DELETE FROM gateway.data_exports WHERE user_id = $1`, [bobId]);

    // Ada asked twice more today.
    await db.query(`INSERT INTO gateway.data_exports (id, user_id, status, error) VALUES (gen_random_uuid(), $1, 'failed', 'x'), (gen_random_uuid(), $1, 'failed', 'x')`, [adaId]);
    expect(await message(await send(ada, 'POST', '/api/user/data-export'), 429)).toBe(DATA_EXPORT.tooMany);
    await db.query(`DELETE FROM gateway.data_exports WHERE user_id = $1 AND status = 'failed'`, [adaId]);
  });

  it('expires: past its time it is gone, its file deleted, and a new one can be asked for', async () => {
    await db.query(`UPDATE gateway.data_exports SET expires_at = now() - interval '1 second' WHERE id = $1`, [ready.id]);
    expect(await latest(ada)).toMatchObject({ id: ready.id, status: 'expired', downloadUrl: null });
    expect(await message(await send(ada, 'GET', '/api/user/data-export/download'), 404)).toBe(DATA_EXPORT.notReady);
    await eventually(async () => {
      const { rows } = await db.query<{ status: string; blob_key: string | null }>(`SELECT status, blob_key FROM gateway.data_exports WHERE id = $1`, [ready.id]);
      expect(rows[0]).toEqual({ status: 'expired', blob_key: null });
    });
    expect((await db.query(`SELECT 1 FROM storage.blobs WHERE key LIKE '%:exports/%'`)).rowCount).toBe(0);
    // A new copy, discarded at once once ready.
    const again = await json<DataExport>(await send(ada, 'POST', '/api/user/data-export'), 202);
    await eventually(async () => expect((await latest(ada))!.status).toBe('ready'));
    expect((await send(ada, 'DELETE', '/api/user/data-export')).status).toBe(204);
    expect(await latest(ada)).toMatchObject({ id: again.id, status: 'expired' });
    expect((await db.query(`SELECT 1 FROM storage.blobs WHERE key LIKE '%:exports/%'`)).rowCount).toBe(0);
  });
});
