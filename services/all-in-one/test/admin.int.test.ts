import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { IdentitySigner, createServiceClient, type Caller } from '@snapcracks/kit';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { ImagePurpose, StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

/** The little of sharp this test uses (it lives with the storage service): re-encoding a fixture. */
interface SharpImage {
  metadata(): Promise<{ width?: number }>;
  resize(width: number): SharpImage;
  jpeg(options: { quality: number }): SharpImage;
  toBuffer(): Promise<Buffer>;
}
const sharp = createRequire(import.meta.resolve('@snapcracks/storage'))('sharp') as (input: Buffer) => SharpImage;
/** pg, through the kit that depends on it: the test ages blobs as if they had been written hours ago. */
const pg = createRequire(import.meta.resolve('@snapcracks/kit'))('pg') as {
  Client: new (options: { connectionString: string }) => { connect(): Promise<void>; query(sql: string, values?: unknown[]): Promise<{ rowCount: number | null }>; end(): Promise<void> };
};
const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

interface AuditEntry {
  id: string;
  action: string;
  actorId: string;
  reason: string | null;
  createdAt: string | null;
}
interface AdminPhoto {
  id: number;
  userId: string;
  filename: string;
  status: 'pending' | 'approved' | 'rejected';
  description: string | null;
  rejectionReason: string | null;
  privacyBars: { x: number; y: number; width: number; height: number }[];
  averageRating: number;
  voteCount: number;
  thumbnailUrl: string;
  mediumUrl: string;
  displayUrl: string;
  originalUrl: string;
  user: { id: string; firstName: string | null; lastName: string | null; displayName: string | null } | null;
  reviewMarks: {
    similarRejected: { photoId: number; rejectionReason: string; distance: number; sameUploader: boolean; rejectedAt: string | null } | null;
    duplicateOf: { photoId: number; status: string } | null;
  } | null;
  auditLog: AuditEntry[];
}
interface AdminPhotoPage {
  photos: AdminPhoto[];
  total: number;
  totalPages: number;
}
interface AdminStats {
  pendingReviews: number;
  approvedToday: number;
  rejectedToday: number;
  totalPhotos: number;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let alice: TestBrowser;
let bob: TestBrowser;
let newcomer: TestBrowser;
let adminId: string;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
};
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}
const idOf = async (client: Client) => (await json<{ id: string }>(await send(client, 'GET', '/api/auth/user'))).id;

async function upload(client: Client, file: Buffer, name: string, description?: string): Promise<number> {
  const form = new FormData();
  if (description !== undefined) form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(file)]), name);
  return (await json<{ id: number }>(await client.request(api('/api/photos'), { method: 'POST', body: form }), 201)).id;
}

const list = async (name: string, query = '?limit=100') => json<AdminPhotoPage>(await send(admin, 'GET', `/api/admin/photos/${name}${query}`));
const find = async (name: string, id: number) => (await list(name)).photos.find((p) => p.id === id);
const stats = async () => json<AdminStats>(await send(admin, 'GET', '/api/admin/stats'));

/** Direct calls to the services, as a component would make them (to store blobs). */
function serviceClients() {
  const { addresses } = system.platform;
  return {
    storageAsPhoto: createServiceClient(StorageServiceClient, addresses.storage!, { signer: new IdentitySigner(TEST_IDENTITY, 'photo'), peer: 'storage', deadlineMs: 30_000 }),
    moderation: createServiceClient(ModerationServiceClient, addresses.moderation!, { signer: new IdentitySigner(TEST_IDENTITY, 'gateway'), peer: 'moderation' }),
  };
}
let services: ReturnType<typeof serviceClients>;

async function storeBlobs(purpose: ImagePurpose): Promise<string[]> {
  const stream = services.storageAsPhoto.clientStream('storeImage', { caller: null });
  await stream.send({ part: { $case: 'header', value: { purpose, bars: [] } } });
  await stream.send({ part: { $case: 'chunk', value: fixture('rotated-gps.jpg') } });
  const { image } = await stream.finish();
  return [image!.original!.key, ...(image!.display ? [image!.display.key, image!.medium!.key, image!.thumbnail!.key] : [])];
}

/** Makes blobs look `hours` old (the orphan cleanup only touches blobs older than an hour). */
async function age(keys: string[] | 'all', hours: number): Promise<void> {
  const db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  try {
    const interval = `${hours} hours`;
    if (keys === 'all') await db.query(`UPDATE storage.blobs SET created_at = now() - $1::interval`, [interval]);
    else await db.query(`UPDATE storage.blobs SET created_at = now() - $1::interval WHERE key = ANY($2)`, [interval, keys]);
  } finally {
    await db.end();
  }
}
/** Moves every rejection more than 30 days back, past the owners' time to resubmit: the rejected cleanup may take them. */
async function settleRejections(): Promise<void> {
  const db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  try {
    await db.query(`UPDATE photo.photos SET reviewed_at = reviewed_at - interval '31 days' WHERE status = 'rejected'`);
  } finally {
    await db.end();
  }
}
const onDisk = (key: string) => existsSync(join(system.platform.dataDir, 'uploads', key.slice(key.indexOf(':') + 1)));

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [admin, alice, bob] = await Promise.all([
    member('boss@example.com', 'Boss Example'),
    member('alice@example.com', 'Alice Example'),
    member('bob@example.com', 'Bob Example'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  adminId = await idOf(admin);
  services = serviceClients();
  // These members keep more photos waiting than an allowance lets them (upload-allowance.int.test.ts tests that).
  expect((await send(admin, 'PUT', '/api/admin/upload-allowance', { pendingLimit: 1000, trustedAfter: 1000, trustedPendingLimit: 1000 })).status).toBe(200);
}, 120_000);
afterAll(async () => {
  if (services) for (const client of Object.values(services)) client.close();
  await system?.stop();
});

describe('who may use the admin calls', () => {
  it('answers 401 signed out and 403 to members (with or without the terms), 2xx to admins, and changes nothing on refusal', async () => {
    const pendingId = await upload(alice, fixture('photo.webp'), 'pending.webp', 'Waiting for review');
    const toReject = await upload(alice, fixture('rotated-gps.jpg'), 'reject-me.jpg');
    expect((await send(admin, 'PATCH', `/api/admin/photos/${toReject}/status`, { status: 'rejected', rejectionReason: 'Out of focus' })).status).toBe(200);
    const orphan = await storeBlobs(ImagePurpose.IMAGE_PURPOSE_PHOTO);
    await age(orphan, 2);

    const calls: [method: string, path: string, body?: unknown][] = [
      ['GET', '/api/admin/photos/pending'],
      ['GET', '/api/admin/photos/all'],
      ['GET', '/api/admin/photos/approved-today'],
      ['GET', '/api/admin/photos/rejected-today'],
      ['GET', '/api/admin/photos/pending?page=1&limit=5'],
      ['GET', '/api/admin/photos/nonsense'],
      ['GET', '/api/admin/photos/pending?limit=0'],
      ['GET', '/api/admin/stats'],
      ['POST', '/api/admin/cleanup/orphaned'],
      ['POST', '/api/admin/cleanup/rejected'],
      ['POST', '/api/admin/cleanup/everything'],
      ['PATCH', `/api/admin/photos/${pendingId}/status`, { status: 'approved' }],
      ['PATCH', `/api/admin/photos/${pendingId}/status`, { status: 'rejected', rejectionReason: 'Nope' }],
      ['PATCH', `/api/admin/photos/${pendingId}/status`, { status: 'published' }],
      ['DELETE', `/api/admin/photos/${pendingId}`],
    ];
    const before = { all: await list('all'), files: orphan.map(onDisk) };
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['a member', alice, 403],
      ['a member without the terms', newcomer, 403],
    ] as const) {
      for (const [method, path, body] of calls) {
        const response = await send(client, method, path, body);
        expect(response.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await response.json()) as { message?: string }).message, `${who}: ${method} ${path}`).toEqual(expect.any(String));
      }
    }
    const after = { all: await list('all'), files: orphan.map(onDisk) };
    expect(after).toEqual(before);
    expect(after.files).toEqual([true, true, true, true]);
    expect(after.all.photos.find((p) => p.id === toReject)?.status).toBe('rejected');
    expect(after.all.photos.find((p) => p.id === pendingId)?.status).toBe('pending');

    // The admin: every list, the stats and unknown names; the decisions and cleanups come in their own tests below.
    for (const name of ['pending', 'all', 'approved-today', 'rejected-today']) expect((await send(admin, 'GET', `/api/admin/photos/${name}`)).status, name).toBe(200);
    expect((await send(admin, 'GET', '/api/admin/stats')).status).toBe(200);
    expect((await send(admin, 'GET', '/api/admin/photos/nonsense')).status).toBe(404);
    expect((await send(admin, 'POST', '/api/admin/cleanup/everything')).status).toBe(404);
    expect((await send(admin, 'GET', '/api/admin/photos/pending?limit=0')).status).toBe(400);
    expect((await send(admin, 'GET', '/api/admin/photos/pending?page=abc')).status).toBe(400);
    expect((await send(admin, 'PATCH', `/api/admin/photos/${pendingId}/status`, { status: 'published' })).status).toBe(400);
    expect((await send(admin, 'PATCH', `/api/admin/photos/${pendingId}/status`, { status: 'approved' })).status).toBe(200);
    expect((await send(admin, 'DELETE', `/api/admin/photos/${pendingId}`)).status).toBe(204);
  });
});

describe('the review lists', () => {
  it('show each photo with its uploader, images, rating, status, reason, bars and audit entries', async () => {
    const id = await upload(bob, fixture('rotated-gps.jpg'), 'street.jpg', 'A long crack');
    expect((await send(bob, 'POST', `/api/photos/${id}/privacy-bars`, { bars: [{ x: 10, y: 10, width: 20, height: 20 }] })).status).toBe(200);

    const pending = await find('pending', id);
    expect(pending).toMatchObject({
      id,
      status: 'pending',
      description: 'A long crack',
      rejectionReason: null,
      privacyBars: [{ x: 10, y: 10, width: 20, height: 20 }],
      averageRating: 0,
      voteCount: 0,
      thumbnailUrl: expect.stringMatching(/^\/api\/uploads\/[0-9a-f]{32}\.webp\?size=thumb&v=2$/),
      displayUrl: expect.stringContaining('size=display'),
      originalUrl: expect.stringContaining('size=original'),
      auditLog: [],
    });
    await eventually(async () => expect((await find('pending', id))?.user).toMatchObject({ firstName: 'Bob', lastName: 'Example' }));
    for (const url of [pending!.thumbnailUrl, pending!.displayUrl, pending!.originalUrl]) expect((await send(admin, 'GET', url)).status, url).toBe(200);

    const rejected = await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'rejected', rejectionReason: '  Not a crack  ' });
    expect(rejected.status).toBe(200);
    expect(await find('pending', id)).toBeUndefined();
    const today = await find('rejected-today', id);
    expect(today).toMatchObject({ status: 'rejected', rejectionReason: 'Not a crack' });
    expect(today!.auditLog).toEqual([{ id: expect.any(String), action: 'reject', actorId: adminId, reason: 'Not a crack', createdAt: expect.any(String) }]);
    expect((await find('all', id))?.auditLog).toHaveLength(1);

    const approvedId = await upload(bob, fixture('photo.webp'), 'floor.webp');
    expect((await send(admin, 'PATCH', `/api/admin/photos/${approvedId}/status`, { status: 'approved' })).status).toBe(200);
    expect((await find('approved-today', approvedId))?.auditLog.map((a) => a.action)).toEqual(['approve']);
    expect(await find('approved-today', id)).toBeUndefined();
  });

  it('pages: page and limit, with the total and the page count', async () => {
    for (let i = 0; i < 3; i++) await upload(alice, fixture('photo.webp'), `page-${i}.webp`);
    const { total } = await list('pending');
    const first = await list('pending', '?page=1&limit=2');
    const second = await list('pending', '?page=2&limit=2');
    expect(first).toMatchObject({ total, totalPages: Math.ceil(total / 2) });
    expect(first.photos).toHaveLength(2);
    expect(new Set([...first.photos, ...second.photos].map((p) => p.id)).size).toBe(first.photos.length + second.photos.length);
  });

  it('counts pending reviews, today’s decisions and every photo', async () => {
    const { total: pendingNow } = await list('pending');
    const { total: allNow } = await list('all');
    const { total: approvedNow } = await list('approved-today');
    const { total: rejectedNow } = await list('rejected-today');
    await eventually(async () => expect(await stats()).toEqual({ pendingReviews: pendingNow, approvedToday: approvedNow, rejectedToday: rejectedNow, totalPhotos: allNow }));
  });
});

describe('repeat uploads', () => {
  it('marks a re-encoded, resized copy of a rejected photo with its reason, and an exact re-upload of the own photo, deciding nothing', async () => {
    const png = fixture('photo.png');
    const original = await upload(bob, png, 'crack.png');
    expect((await send(admin, 'PATCH', `/api/admin/photos/${original}/status`, { status: 'rejected', rejectionReason: 'Not a crack, a shadow' })).status).toBe(200);

    const { width } = await sharp(png).metadata();
    const copy = await sharp(png).resize(Math.round(width! * 0.6)).jpeg({ quality: 70 }).toBuffer();
    expect(copy.equals(png)).toBe(false);
    const again = await upload(alice, copy, 'new-crack.jpg');
    const twiceA = await upload(alice, fixture('photo.webp'), 'twice.webp');
    const twiceB = await upload(alice, fixture('photo.webp'), 'twice-again.webp');

    const pending = await list('pending');
    const marked = pending.photos.find((p) => p.id === again)!;
    expect(marked.status).toBe('pending');
    expect(marked.reviewMarks).toEqual({
      similarRejected: { photoId: original, rejectionReason: 'Not a crack, a shadow', distance: expect.any(Number), sameUploader: false, rejectedAt: expect.any(String) },
      duplicateOf: null,
    });
    expect(marked.reviewMarks!.similarRejected!.distance).toBeLessThanOrEqual(6);
    expect(pending.photos.find((p) => p.id === twiceB)?.reviewMarks).toEqual({ similarRejected: null, duplicateOf: { photoId: expect.any(Number), status: 'pending' } });
    // The original of those bytes is the first upload of them (an earlier test's, or twiceA).
    expect(pending.photos.find((p) => p.id === twiceB)!.reviewMarks!.duplicateOf!.photoId).toBeLessThan(twiceA + 1);

    // The rejected photo's hash outlives it: the rejected-photos cleanup below deletes it, the mark stays.
    await settleRejections();
    expect((await send(admin, 'POST', '/api/admin/cleanup/rejected')).status).toBe(200);
    expect(await find('all', original)).toBeUndefined();
    expect((await find('pending', again))?.reviewMarks?.similarRejected).toMatchObject({ photoId: original, rejectionReason: 'Not a crack, a shadow' });
  });
});

describe('the file cleanups', () => {
  it('remove old orphaned files on every backend in use, never a photo’s, an avatar in use or a fresh one, and are audited', async () => {
    // A photo that stays, a rejected one (its files are used until the rejected cleanup), an avatar in use.
    const kept = await upload(alice, fixture('photo.webp'), 'keep.webp');
    const rejected = await upload(bob, fixture('rotated-gps.jpg'), 'rejected.jpg');
    expect((await send(admin, 'PATCH', `/api/admin/photos/${rejected}/status`, { status: 'rejected', rejectionReason: 'Duplicate' })).status).toBe(200);
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(fixture('rotated-gps.jpg'))]), 'me.jpg');
    const { user } = await json<{ user: { customProfileImage: string } }>(await alice.request(api('/api/profile/avatar'), { method: 'POST', body: form }));
    const avatarName = user.customProfileImage;
    const avatar = `local:avatars/${avatarName}`;
    // Orphans: a stored upload whose photo row never came, and an avatar that was replaced.
    const orphanPhoto = await storeBlobs(ImagePurpose.IMAGE_PURPOSE_PHOTO);
    const [orphanAvatar] = await storeBlobs(ImagePurpose.IMAGE_PURPOSE_AVATAR);
    // Everything so far is two hours old; then an upload in flight writes its blobs "a second ago".
    await age('all', 2);
    const fresh = await storeBlobs(ImagePurpose.IMAGE_PURPOSE_PHOTO);
    const keptPhoto = await find('all', kept);
    const rejectedPhoto = await find('all', rejected);
    for (const key of [...orphanPhoto, orphanAvatar!, avatar, ...fresh]) expect(onDisk(key), key).toBe(true);

    const answer = await json<{ message: string; removed: number; failed: number }>(await send(admin, 'POST', '/api/admin/cleanup/orphaned'));
    expect(answer.message).toMatch(/^Removed \d+ orphaned files \(local: \d+\); checked \d+ files older than an hour\.$/);
    // At least the four orphans of this test (the first test left three more); never anything in use.
    expect(answer.removed).toBeGreaterThanOrEqual(4);
    expect(answer.failed).toBe(0);
    for (const key of [...orphanPhoto, orphanAvatar!]) expect(onDisk(key), key).toBe(false);
    for (const key of [avatar, ...fresh]) expect(onDisk(key), key).toBe(true);
    expect((await send(anonymous, 'GET', `/uploads/${avatarName}`)).status).toBe(200);
    for (const photo of [keptPhoto!, rejectedPhoto!]) {
      for (const url of [photo.thumbnailUrl, photo.mediumUrl, photo.displayUrl, photo.originalUrl]) expect((await send(admin, 'GET', url)).status, url).toBe(200);
    }
    // Nothing of any photo anywhere was touched: every listed photo's images are still served.
    for (const photo of (await list('all')).photos) expect((await send(admin, 'GET', photo.originalUrl)).status, photo.originalUrl).toBe(200);

    // Running it again finds nothing more.
    expect(await json(await send(admin, 'POST', '/api/admin/cleanup/orphaned'))).toMatchObject({ removed: 0, failed: 0 });

    const rejectedFiles = await send(admin, 'GET', rejectedPhoto!.originalUrl);
    expect(rejectedFiles.status).toBe(200);
    // A rejection less than 30 days old may still be fixed and resubmitted by its owner: the cleanup leaves it.
    const resubmittable = await upload(bob, fixture('photo.webp'), 'fixable.webp');
    expect((await send(admin, 'PATCH', `/api/admin/photos/${resubmittable}/status`, { status: 'rejected', rejectionReason: 'Blurry' })).status).toBe(200);
    expect(await json(await send(admin, 'POST', '/api/admin/cleanup/rejected'))).toMatchObject({ removed: 0 });
    expect(await find('all', rejected)).toMatchObject({ status: 'rejected' });
    await settleRejections();
    const byRejected = await json<{ message: string; removed: number }>(await send(admin, 'POST', '/api/admin/cleanup/rejected'));
    expect(byRejected.message).toMatch(/^Deleted \d+ rejected photos? and their files\.$/);
    expect(byRejected.removed).toBeGreaterThanOrEqual(1);
    expect(await find('all', rejected)).toBeUndefined();
    expect((await send(admin, 'GET', rejectedPhoto!.originalUrl)).status).toBe(404);
    expect((await list('all')).photos.some((p) => p.status === 'rejected')).toBe(false);
    expect(await find('all', kept)).toMatchObject({ status: 'pending' });
    // Its images went with it, through the photo service's normal deletion.
    const orphanCheck = await json<{ removed: number }>(await send(admin, 'POST', '/api/admin/cleanup/orphaned'));
    expect(orphanCheck.removed).toBe(0);

    // Every cleanup is in the audit log, and so is each rejected photo's deletion.
    const admins: Caller = { userId: adminId, isAdmin: true, hasAcceptedTerms: true };
    const { actions } = await services.moderation.call.listActions({ limit: 200, photoIds: [] }, { caller: admins });
    expect(actions.filter((a) => a.action === 'cleanup_orphaned').map((a) => a.detail)).toContain(answer.message);
    expect(actions.filter((a) => a.action === 'cleanup_rejected').map((a) => a.detail)).toContain(byRejected.message);
    expect(actions.some((a) => a.action === 'delete' && a.photoId === rejected && a.actorId === adminId)).toBe(true);
  });
});
