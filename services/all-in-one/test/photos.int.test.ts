import { readFileSync, readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

/** The little of sharp this test uses: it lives with the storage service, the test only reads images with it. */
interface SharpImage {
  metadata(): Promise<{ width?: number; height?: number; exif?: Buffer; orientation?: number }>;
  removeAlpha(): SharpImage;
  raw(): SharpImage;
  jpeg(options: { quality: number }): SharpImage;
  toBuffer(): Promise<Buffer>;
  toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
}
type SharpInput = Buffer | { create: { width: number; height: number; channels: 3; background: { r: number; g: number; b: number } } };
const sharp = createRequire(import.meta.resolve('@snapcracks/storage'))('sharp') as (input: SharpInput) => SharpImage;
const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));
const UPLOAD_REFUSED = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';

interface PhotoJson {
  id: number;
  filename: string;
  status: string;
  description: string | null;
  altText: string | null;
  rejectionReason: string | null;
  privacyBars: { x: number; y: number; width: number; height: number }[];
  imageVersion: number;
  thumbnailUrl: string;
  mediumUrl: string;
  displayUrl: string;
  originalUrl: string;
  mimeType: string;
  width: number;
  height: number;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let bob: TestBrowser;
let admin: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

const api = (path: string) => `${system.url}${path}`;
type Client = Pick<TestBrowser, 'request'>;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const get = (client: Client, path: string, headers: Record<string, string> = {}) => client.request(api(path), { headers });

function upload(client: Client, file: Buffer, name: string, description?: string): Promise<Response> {
  const form = new FormData();
  if (description !== undefined) form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(file)]), name);
  return client.request(api('/api/photos'), { method: 'POST', body: form });
}

async function myPhotos(client: Client): Promise<PhotoJson[]> {
  const response = await get(client, '/api/user/photos');
  expect(response.status).toBe(200);
  return (await response.json()) as PhotoJson[];
}

async function member(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}

/** The RGB of one pixel of an image, at a fraction of its width and height. */
async function pixelAt(image: Buffer, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const x = Math.min(info.width - 1, Math.floor(fx * info.width));
  const y = Math.min(info.height - 1, Math.floor(fy * info.height));
  const offset = (y * info.width + x) * info.channels;
  return [data[offset]!, data[offset + 1]!, data[offset + 2]!];
}
const isBlack = (rgb: number[]) => rgb.every((channel) => channel < 16);

function storedFiles(): string[] {
  const root = join(system.platform.dataDir, 'uploads');
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? walk(join(dir, name)) : [join(dir, name)]));
  try {
    return walk(root);
  } catch {
    return [];
  }
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  [alice, bob, admin] = await Promise.all([
    member('alice@example.com', 'Alice Example'),
    member('bob@example.com', 'Bob Example'),
    member('boss@example.com', 'Boss Example'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('uploading', () => {
  it('refuses the signed out (401) and members who have not accepted the terms (403)', async () => {
    expect((await upload(anonymous, fixture('rotated-gps.jpg'), 'crack.jpg')).status).toBe(401);
    expect((await upload(newcomer, fixture('rotated-gps.jpg'), 'crack.jpg')).status).toBe(403);
  });

  it('stores a photo as pending, upright and without metadata, and lists it for its owner', async () => {
    const response = await upload(alice, fixture('rotated-gps.jpg'), 'IMG_0001.jpg', '  A crack across the pavement  ');
    expect(response.status).toBe(201);
    const { id, filename } = (await response.json()) as { id: number; filename: string };
    expect(filename).toMatch(/^[0-9a-f]{32}\.webp$/);
    const photo = (await myPhotos(alice)).find((p) => p.id === id)!;
    expect(photo).toMatchObject({ status: 'pending', description: 'A crack across the pavement', mimeType: 'image/jpeg', privacyBars: [] });

    const original = await get(alice, photo.originalUrl);
    expect(original.status).toBe(200);
    expect(original.headers.get('content-type')).toBe('image/jpeg');
    const bytes = Buffer.from(await original.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    // The fixture is 160 × 240 with Orientation 6: upright it is 240 wide.
    expect([meta.width, meta.height]).toEqual([240, 160]);
    expect(meta.exif).toBeUndefined();
    expect(meta.orientation).toBeUndefined();
    expect(bytes.includes(Buffer.from('GPS'))).toBe(false);

    const display = await get(alice, photo.displayUrl);
    expect(display.headers.get('content-type')).toBe('image/webp');
  });

  it('describes a photo when the description comes after the file', async () => {
    const form = new FormData();
    form.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'crack.png');
    form.append('description', 'Sent last');
    const response = await alice.request(api('/api/photos'), { method: 'POST', body: form });
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect((await myPhotos(alice)).find((p) => p.id === id)?.description).toBe('Sent last');
  });

  it('accepts HEIC from a phone', async () => {
    const response = await upload(bob, fixture('photo.heic'), 'IMG_1234.HEIC');
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    expect((await myPhotos(bob)).find((p) => p.id === id)).toMatchObject({ mimeType: 'image/heic', status: 'pending' });
  });

  it('refuses what is not really an image, a damaged image and more than 10 MB, storing nothing', async () => {
    const before = { photos: (await myPhotos(bob)).length, files: storedFiles().length };
    for (const [name, file] of [
      ['page.jpg', fixture('html.jpg')],
      ['document.jpg', fixture('pdf.jpg')],
      ['broken.jpg', fixture('truncated.jpg')],
    ] as const) {
      const response = await upload(bob, file, name);
      expect(response.status, name).toBe(400);
      expect(await response.json()).toEqual({ message: UPLOAD_REFUSED });
    }
    const tooLarge = Buffer.concat([fixture('rotated-gps.jpg'), Buffer.alloc(10 * 1024 * 1024 + 1 - fixture('rotated-gps.jpg').length)]);
    const response = await upload(bob, tooLarge, 'huge.jpg');
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ message: UPLOAD_REFUSED });
    expect((await myPhotos(bob)).length).toBe(before.photos);
    expect(storedFiles().length).toBe(before.files);
  });

  it('refuses a request without a file', async () => {
    const empty = new FormData();
    empty.append('description', 'no file');
    const response = await alice.request(api('/api/photos'), { method: 'POST', body: empty });
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message: UPLOAD_REFUSED });
  });

  it('refuses two files, storing neither', async () => {
    const before = (await myPhotos(alice)).length;
    const two = new FormData();
    two.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'a.png');
    two.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'b.png');
    const response = await alice.request(api('/api/photos'), { method: 'POST', body: two });
    expect([400, 413]).toContain(response.status);
    expect(await response.json()).toEqual({ message: UPLOAD_REFUSED });
    expect((await myPhotos(alice)).length).toBe(before);
  });

  it('refuses a body that is not multipart', async () => {
    expect((await send(alice, 'POST', '/api/photos', { photo: 'x' })).status).toBe(400);
  });

  it('refuses a description over 500 characters', async () => {
    const long = await upload(alice, fixture('photo.png'), 'a.png', 'x'.repeat(501));
    expect(long.status).toBe(400);
    expect(await long.json()).toEqual({ message: 'Description must be 500 characters or less' });
  });
});

describe('alt text', () => {
  let carol: TestBrowser;
  beforeAll(async () => {
    carol = await member('carol@example.com', 'Carol Example');
  });
  const form = (parts: [string, string | 'FILE'][]) => {
    const body = new FormData();
    for (const [name, value] of parts) {
      if (value === 'FILE') body.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'crack.png');
      else body.append(name, value);
    }
    return body;
  };
  const uploadForm = (client: Client, parts: [string, string | 'FILE'][]) => client.request(api('/api/photos'), { method: 'POST', body: form(parts) });
  const stored = async (response: Response) => {
    expect(response.status).toBe(201);
    const { id } = (await response.json()) as { id: number };
    return (await myPhotos(carol)).find((p) => p.id === id)!;
  };

  it('is stored from a field before or after the file, trimmed, blank as none', async () => {
    expect(await stored(await uploadForm(carol, [['altText', '  A crack across a blue tile '], ['photo', 'FILE']]))).toMatchObject({
      altText: 'A crack across a blue tile',
      description: null,
    });
    expect(await stored(await uploadForm(carol, [['description', 'Kerb'], ['photo', 'FILE'], ['altText', 'A grey kerb split in two']]))).toMatchObject({
      description: 'Kerb',
      altText: 'A grey kerb split in two',
    });
    expect(await stored(await uploadForm(carol, [['photo', 'FILE'], ['altText', '   ']]))).toMatchObject({ altText: null });
  });

  it('refuses an alt text that is too long or has control characters, storing nothing', async () => {
    const before = (await myPhotos(carol)).length;
    for (const [parts, message] of [
      [[['altText', 'x'.repeat(1001)], ['photo', 'FILE']], 'Alt text must be 1000 characters or less'],
      [[['photo', 'FILE'], ['altText', 'x'.repeat(1001)]], 'Alt text must be 1000 characters or less'],
      [[['photo', 'FILE'], ['altText', 'Tile\u0007']], 'altText must not contain control characters'],
    ] as [[string, string][], string][]) {
      const response = await uploadForm(carol, parts);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message });
    }
    expect(await myPhotos(carol)).toHaveLength(before);
  });

  it('is edited with the description, kept when left out, cleared with null, and shown on the cards and previews', async () => {
    const photo = await stored(await uploadForm(carol, [['photo', 'FILE'], ['description', 'Step']]));
    const edit = async (body: unknown) => {
      const response = await send(carol, 'PATCH', `/api/photos/${photo.id}`, body);
      return { status: response.status, body: (await response.json()) as PhotoJson & { message?: string } };
    };
    expect((await edit({ description: 'Step', altText: ' A cracked concrete step ' })).body).toMatchObject({ altText: 'A cracked concrete step' });
    expect((await edit({ description: 'Front step' })).body).toMatchObject({ description: 'Front step', altText: 'A cracked concrete step' });
    expect(await edit({ description: 'Front step', altText: 'x'.repeat(1001) })).toEqual({ status: 400, body: { message: 'Alt text must be 1000 characters or less' } });
    expect(await edit({ description: 'Front step', altText: 42 })).toMatchObject({ status: 400 });
    expect((await myPhotos(carol)).find((p) => p.id === photo.id)).toMatchObject({ description: 'Front step', altText: 'A cracked concrete step' });

    expect((await send(admin, 'PATCH', `/api/admin/photos/${photo.id}/status`, { status: 'approved' })).status).toBe(200);
    const gallery = (await (await get(anonymous, '/api/gallery/all-snaps?limit=50')).json()) as { photos: PhotoJson[] };
    expect(gallery.photos.find((p) => p.id === photo.id)).toMatchObject({ altText: 'A cracked concrete step', description: 'Front step' });
    const previews = (await (await get(anonymous, '/api/photos?limit=50')).json()) as PhotoJson[];
    expect(previews.find((p) => p.id === photo.id)).toMatchObject({ altText: 'A cracked concrete step', description: 'Front step' });

    expect((await edit({ description: 'Front step', altText: null })).body).toMatchObject({ altText: null });
    // The gallery's cached pages follow the edit (photo events clear them).
    await expect
      .poll(async () => ((await (await get(anonymous, '/api/gallery/all-snaps?limit=50')).json()) as { photos: PhotoJson[] }).photos.find((p) => p.id === photo.id)?.altText)
      .toBeNull();
  });
});

describe('the life of a photo', () => {
  let photo: PhotoJson;
  beforeAll(async () => {
    const response = await upload(alice, fixture('photo.png'), 'wall.png', 'Wall crack');
    const { id } = (await response.json()) as { id: number };
    photo = (await myPhotos(alice)).find((p) => p.id === id)!;
  });

  it('shows a pending photo only to its owner and admins', async () => {
    for (const size of ['thumb', 'medium', 'display', 'original']) {
      const path = `/api/uploads/${photo.filename}?size=${size}`;
      expect((await get(alice, path)).status, `owner ${size}`).toBe(200);
      expect((await get(admin, path)).status, `admin ${size}`).toBe(200);
      expect((await get(bob, path)).status, `member ${size}`).toBe(404);
      expect((await get(anonymous, path)).status, `signed out ${size}`).toBe(404);
    }
    expect((await get(anonymous, '/api/uploads/..%2F..%2Fetc%2Fpasswd')).status).toBe(404);
    expect((await get(anonymous, '/api/uploads/0123456789abcdef0123456789abcdef.webp')).status).toBe(404);
  });

  it('validates privacy bars and changes nothing on a refusal', async () => {
    for (const bars of [[{ x: 90, y: 0, width: 20, height: 10 }], [{ x: -1, y: 0, width: 5, height: 5 }], Array.from({ length: 21 }, () => ({ x: 0, y: 0, width: 5, height: 5 })), 'nope']) {
      expect((await send(alice, 'POST', `/api/photos/${photo.id}/privacy-bars`, { bars })).status).toBe(400);
    }
    expect(await (await get(alice, `/api/photos/${photo.id}/privacy-bars`)).json()).toEqual({ bars: [] });
  });

  it("refuses another member's edits and deletion, and changes nothing", async () => {
    expect([403, 404]).toContain((await send(bob, 'PATCH', `/api/photos/${photo.id}`, { description: 'mine now' })).status);
    expect([403, 404]).toContain((await send(bob, 'POST', `/api/photos/${photo.id}/privacy-bars`, { bars: [] })).status);
    expect([403, 404]).toContain((await send(bob, 'DELETE', `/api/photos/${photo.id}`)).status);
    expect((await send(anonymous, 'DELETE', `/api/photos/${photo.id}`)).status).toBe(401);
    expect((await myPhotos(alice)).find((p) => p.id === photo.id)).toMatchObject({ description: 'Wall crack', status: 'pending' });
  });

  it('edits the description with the spec messages', async () => {
    expect(await (await send(alice, 'PATCH', `/api/photos/${photo.id}`, { description: '   ' })).json()).toEqual({ message: 'Description is required' });
    expect((await send(alice, 'PATCH', `/api/photos/${photo.id}`, { description: 'y'.repeat(501) })).status).toBe(400);
    const response = await send(alice, 'PATCH', `/api/photos/${photo.id}`, { description: 'A long crack in the wall' });
    expect(response.status).toBe(200);
    expect(((await response.json()) as PhotoJson).description).toBe('A long crack in the wall');
  });

  it('burns privacy bars into every image others can fetch, but not into the owner\'s original', async () => {
    const bar = { x: 0, y: 0, width: 50, height: 50 };
    const response = await send(alice, 'POST', `/api/photos/${photo.id}/privacy-bars`, { bars: [bar] });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ bars: [bar] });
    const updated = (await myPhotos(alice)).find((p) => p.id === photo.id)!;
    expect(updated.imageVersion).toBeGreaterThan(photo.imageVersion);
    photo = updated;
    for (const size of ['thumb', 'medium', 'display']) {
      const image = Buffer.from(await (await get(alice, `/api/uploads/${photo.filename}?size=${size}`)).arrayBuffer());
      expect(isBlack(await pixelAt(image, 0.2, 0.2)), size).toBe(true);
      expect(isBlack(await pixelAt(image, 0.8, 0.8)), size).toBe(false);
    }
    const original = Buffer.from(await (await get(alice, photo.originalUrl)).arrayBuffer());
    expect(isBlack(await pixelAt(original, 0.2, 0.2))).toBe(false);
  });

  it('lets only admins decide, and only once', async () => {
    const path = `/api/admin/photos/${photo.id}/status`;
    expect((await send(anonymous, 'PATCH', path, { status: 'approved' })).status).toBe(401);
    expect((await send(bob, 'PATCH', path, { status: 'approved' })).status).toBe(403);
    expect((await send(admin, 'PATCH', path, { status: 'published' })).status).toBe(400);
    const noReason = await send(admin, 'PATCH', path, { status: 'rejected', rejectionReason: '  ' });
    expect(noReason.status).toBe(400);
    expect(await noReason.json()).toEqual({ message: 'Please provide a reason for rejection.' });
    expect((await myPhotos(alice)).find((p) => p.id === photo.id)?.status).toBe('pending');

    const approved = await send(admin, 'PATCH', path, { status: 'approved' });
    expect(approved.status).toBe(200);
    expect(await approved.json()).toMatchObject({ status: 'approved', approvedBy: expect.any(String), approvedAt: expect.any(String) });
    expect((await send(admin, 'PATCH', path, { status: 'rejected', rejectionReason: 'too late' })).status).toBe(409);
    expect((await send(admin, 'PATCH', `/api/admin/photos/999999/status`, { status: 'approved' })).status).toBe(404);
  });

  it('serves an approved photo to everyone with its bars burned in, cached for an hour by version, never its original', async () => {
    const display = await get(anonymous, photo.displayUrl);
    expect(display.status).toBe(200);
    expect(display.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    const bytes = Buffer.from(await display.arrayBuffer());
    expect(isBlack(await pixelAt(bytes, 0.2, 0.2))).toBe(true);
    expect((await get(anonymous, `/api/uploads/${photo.filename}?t=123&time=456&retry=1`)).status).toBe(200);
    expect((await get(bob, photo.originalUrl)).status).toBe(404);
    expect((await get(anonymous, photo.originalUrl)).status).toBe(404);

    const unversioned = await get(anonymous, `/api/uploads/${photo.filename}`);
    expect(unversioned.headers.get('cache-control')).toBe('public, no-cache');
    const etag = unversioned.headers.get('etag')!;
    expect(etag).toMatch(/^"[0-9a-f]+"$/);
    expect((await get(anonymous, `/api/uploads/${photo.filename}`, { 'if-none-match': etag })).status).toBe(304);
  });

  it('shows the rejection reason to the owner', async () => {
    const response = await upload(bob, fixture('photo.webp'), 'floor.webp');
    const { id } = (await response.json()) as { id: number };
    const rejected = await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'rejected', rejectionReason: 'Not a crack' });
    expect(rejected.status).toBe(200);
    expect((await myPhotos(bob)).find((p) => p.id === id)).toMatchObject({ status: 'rejected', rejectionReason: 'Not a crack' });
  });

  it('deletes a photo with its images: by its owner, or by an admin at any status', async () => {
    const files = storedFiles().length;
    expect((await send(alice, 'DELETE', `/api/photos/${photo.id}`)).status).toBe(204);
    expect((await get(anonymous, photo.displayUrl)).status).toBe(404);
    expect((await myPhotos(alice)).some((p) => p.id === photo.id)).toBe(false);
    expect(storedFiles().length).toBeLessThan(files);

    const { id } = (await (await upload(bob, fixture('photo.png'), 'x.png')).json()) as { id: number };
    expect((await send(bob, 'DELETE', `/api/admin/photos/${id}`)).status).toBe(403);
    expect((await send(admin, 'DELETE', `/api/admin/photos/${id}`)).status).toBe(204);
    expect((await myPhotos(bob)).some((p) => p.id === id)).toBe(false);
  });
});

describe('the medium image (size=medium)', () => {
  /** pg, through the kit that depends on it: the test takes a photo back to before it had a medium image. */
  const pg = createRequire(import.meta.resolve('@snapcracks/kit'))('pg') as {
    Client: new (options: { connectionString: string }) => { connect(): Promise<void>; query(sql: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>; end(): Promise<void> };
  };
  async function sql(text: string, values: unknown[]): Promise<Record<string, unknown>[]> {
    const db = new pg.Client({ connectionString: system.database.url });
    await db.connect();
    try {
      return (await db.query(text, values)).rows;
    } finally {
      await db.end();
    }
  }
  const widthOf = async (response: Response) => (await sharp(Buffer.from(await response.arrayBuffer())).metadata()).width;

  let photo: PhotoJson;
  beforeAll(async () => {
    // 2400 × 1600: the display image is 2048 px wide, the medium image 960 and the thumbnail 480.
    const large = await sharp({ create: { width: 2400, height: 1600, channels: 3, background: { r: 120, g: 110, b: 100 } } }).jpeg({ quality: 90 }).toBuffer();
    const response = await upload(alice, large, 'PXL_20261126_101010.jpg', 'A long crack');
    const { id } = (await response.json()) as { id: number };
    expect((await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' })).status).toBe(200);
    photo = (await myPhotos(alice)).find((p) => p.id === id)!;
  });

  it('is in every photo JSON: the owner’s, the gallery’s cards and the landing previews', async () => {
    expect(photo.mediumUrl).toBe(`/api/uploads/${photo.filename}?size=medium&v=${photo.imageVersion}`);
    const gallery = (await (await get(anonymous, '/api/gallery/all-snaps?limit=50')).json()) as { photos: PhotoJson[] };
    expect(gallery.photos.find((p) => p.id === photo.id)?.mediumUrl).toBe(photo.mediumUrl);
    const previews = (await (await get(anonymous, '/api/photos?limit=50')).json()) as PhotoJson[];
    expect(previews.find((p) => p.id === photo.id)?.mediumUrl).toBe(photo.mediumUrl);
  });

  it('serves the 960 px image to whoever may see the display image, cached by version', async () => {
    const medium = await get(anonymous, photo.mediumUrl);
    expect(medium.status).toBe(200);
    expect(medium.headers.get('content-type')).toBe('image/webp');
    expect(medium.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    expect(await widthOf(medium)).toBe(960);
    expect(await widthOf(await get(anonymous, photo.displayUrl))).toBe(2048);
    expect(await widthOf(await get(anonymous, photo.thumbnailUrl))).toBe(480);
  });

  it('answers the display image, revalidated each time, for a photo that has no medium image yet', async () => {
    const [saved] = await sql(`SELECT "medium_key", "medium_etag", "medium_size" FROM "photo"."photos" WHERE "id" = $1`, [photo.id]);
    await sql(`UPDATE "photo"."photos" SET "medium_key" = NULL, "medium_etag" = NULL, "medium_size" = NULL WHERE "id" = $1`, [photo.id]);
    try {
      const display = await get(anonymous, photo.displayUrl);
      const standIn = await get(anonymous, photo.mediumUrl);
      expect(standIn.status).toBe(200);
      // Not for good under its versioned URL: once the backfill has made the medium image, browsers get it.
      expect(standIn.headers.get('cache-control')).toBe('public, no-cache');
      expect(standIn.headers.get('etag')).toBe(display.headers.get('etag'));
      expect(await widthOf(standIn)).toBe(2048);
      expect((await get(anonymous, photo.mediumUrl, { 'if-none-match': display.headers.get('etag')! })).status).toBe(304);
    } finally {
      await sql(`UPDATE "photo"."photos" SET "medium_key" = $2, "medium_etag" = $3, "medium_size" = $4 WHERE "id" = $1`, [
        photo.id,
        saved!.medium_key,
        saved!.medium_etag,
        saved!.medium_size,
      ]);
    }
    const medium = await get(anonymous, photo.mediumUrl);
    expect(medium.headers.get('cache-control')).toBe('public, max-age=3600, must-revalidate');
    expect(await widthOf(medium)).toBe(960);
  });

  it('hides a pending photo’s medium image like its display image', async () => {
    const { id } = (await (await upload(alice, fixture('photo.png'), 'pending.png')).json()) as { id: number };
    const pending = (await myPhotos(alice)).find((p) => p.id === id)!;
    expect((await get(alice, pending.mediumUrl)).headers.get('cache-control')).toBe('private, max-age=3600, must-revalidate');
    expect((await get(admin, pending.mediumUrl)).status).toBe(200);
    expect((await get(bob, pending.mediumUrl)).status).toBe(404);
    expect((await get(anonymous, pending.mediumUrl)).status).toBe(404);
  });
});

describe('avatars', () => {
  it('serves a stored avatar at /uploads/{name} to anyone, cached for good, and nothing else there', async () => {
    const form = new FormData();
    form.append('avatar', new Blob([new Uint8Array(fixture('rotated-gps.jpg'))]), 'me.jpg');
    const uploaded = await alice.request(api('/api/profile/avatar'), { method: 'POST', body: form });
    expect(uploaded.status).toBe(200);
    const name = ((await uploaded.json()) as { user: { customProfileImage: string } }).user.customProfileImage;
    expect(name).toMatch(/^[0-9a-f-]{36}\.webp$/);

    const response = await get(anonymous, `/uploads/${name}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('image/webp');
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const meta = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(meta.width).toBe(meta.height);
    expect(meta.exif).toBeUndefined();
    expect((await get(anonymous, `/uploads/${name}`, { 'if-none-match': response.headers.get('etag')! })).status).toBe(304);
    expect((await get(anonymous, '/uploads/00000000-0000-0000-0000-000000000000.webp')).status).toBe(404);
    expect((await get(anonymous, '/uploads/..%2Fphotos%2Fx.webp')).status).toBe(404);
    expect((await get(anonymous, '/uploads/snapcracks-header.svg')).status).toBe(200);
  });
});
