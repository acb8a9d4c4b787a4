import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunksOf, createLogger, openDatabase, type Caller, type Database, type ServiceClient } from '@snapcracks/kit';
import { createTestDatabase, startTestServices, type TestDatabase, callError } from '@snapcracks/kit/testing';
import { StorageType } from '@snapcracks/proto/common/v1';
import { Derivative, ImagePurpose, StorageServiceClient, type BlobInfo, type StoreImageResponse } from '@snapcracks/proto/storage/v1';
import { FAKE_CLIENT, GOOD_CODE, REFRESH_TOKEN_FROM_CODE, startFakeGoogle, type FakeGoogle } from '../test/support/fake-google.js';
import { makeJpeg } from '../test/support/images.js';
import { startTestS3, type TestS3 } from '../test/support/s3.js';
import { PrismaClient } from './generated/prisma/client.js';
import { createStorageService } from './index.js';

const REFUSED = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';
const logger = createLogger('test', (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent');
const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member-1', isAdmin: false, hasAcceptedTerms: true };

let database: TestDatabase;
let db: Database<PrismaClient>;
let s3: TestS3;
let google: FakeGoogle;
let jpeg: Buffer;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  // One database for every storage instance below; each start applies the migrations (again: a no-op).
  database = await createTestDatabase('storage');
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'storage', logger });
  [s3, google, jpeg] = await Promise.all([startTestS3(), startFakeGoogle(), makeJpeg(64, 48)]);
});
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await db?.close();
  await s3?.stop();
  await google?.close();
  await database?.drop();
});

type Client = ServiceClient<StorageServiceClient>;
interface Instance {
  dataDir: string;
  as: Record<'photo' | 'gateway' | 'moderation' | 'auth' | 'vote', Client>;
  stop(): Promise<void>;
}

async function startStorage(env: Record<string, string>, dataDir?: string): Promise<Instance> {
  const services = await startTestServices({ services: [createStorageService({ env })], database, dataDir });
  cleanups.push(services.stop);
  const client = (as: string) => services.client(StorageServiceClient, { as, deadlineMs: 20_000 });
  const as = { photo: client('photo'), gateway: client('gateway'), moderation: client('moderation'), auth: client('auth'), vote: client('vote') };
  return { dataDir: services.dataDir, as, stop: services.stop };
}

async function storeImage(client: Client, bytes: Buffer, purpose = ImagePurpose.IMAGE_PURPOSE_PHOTO, bars = [] as { x: number; y: number; width: number; height: number }[]): Promise<StoreImageResponse> {
  const upload = client.clientStream('storeImage', { caller: null });
  try {
    await upload.send({ part: { $case: 'header', value: { purpose, bars } } });
    for (const chunk of chunksOf(bytes, 64 * 1024)) await upload.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
  } catch {
    // The server answered before we finished (a refusal); finish() reports it.
  }
  return upload.finish();
}

async function getBlob(client: Client, key: string): Promise<{ info: BlobInfo; data: Buffer; largestChunk: number }> {
  let info: BlobInfo | undefined;
  const chunks: Buffer[] = [];
  for await (const message of client.serverStream('getBlob', { key }, { caller: null })) {
    if (message.part?.$case === 'info') info = message.part.value;
    else if (message.part?.$case === 'chunk') chunks.push(message.part.value);
  }
  if (!info) throw new Error('no info');
  return { info, data: Buffer.concat(chunks), largestChunk: Math.max(0, ...chunks.map((c) => c.byteLength)) };
}

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const rowCount = () => db.prisma.blob.count();
async function filesUnder(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir, { recursive: true, withFileTypes: true })).filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
  } catch {
    return [];
  }
}
const backends = [
  { name: 'local', prefix: 'local:', storageType: StorageType.STORAGE_TYPE_LOCAL, env: () => ({}) },
  { name: 'minio', prefix: 's3:', storageType: StorageType.STORAGE_TYPE_S3, env: () => ({ STORAGE_TYPE: 'minio', ...s3.env }) },
  { name: 'drive', prefix: 'drive:', storageType: StorageType.STORAGE_TYPE_DRIVE, env: () => ({ STORAGE_TYPE: 'drive', ...google.env }) },
] as const;

describe.each(backends)('the storage service with STORAGE_TYPE=$name over gRPC', (backend) => {
  let storage: Instance;
  beforeAll(async () => {
    storage = await startStorage(backend.env());
  });
  afterAll(() => storage.stop());

  it('stores a photo with its derivatives and streams each back', async () => {
    const { image } = await storeImage(storage.as.photo, jpeg, ImagePurpose.IMAGE_PURPOSE_PHOTO, [{ x: 10, y: 10, width: 20, height: 20 }]);
    expect(image).toMatchObject({ width: 64, height: 48, sourceMimeType: 'image/jpeg', sourceSize: jpeg.byteLength, contentSha256: sha256(jpeg) });
    expect(image!.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
    const month = `${new Date().getUTCFullYear()}/${String(new Date().getUTCMonth() + 1).padStart(2, '0')}`;
    expect(image!.original!.key).toMatch(new RegExp(`^${backend.prefix}photos/${month}/[0-9a-f-]{36}-original\\.jpg$`));
    expect(image!.display!.key).toMatch(/-display\.webp$/);
    expect(image!.medium!.key).toMatch(/-medium\.webp$/);
    expect(image!.thumbnail!.key).toMatch(/-thumb\.webp$/);
    for (const info of [image!.original!, image!.display!, image!.medium!, image!.thumbnail!]) {
      expect(info.storageType).toBe(backend.storageType);
      if (backend.name === 'drive') expect(info.driveFileId).toMatch(/^file-/);
      else expect(info.driveFileId).toBeUndefined();
      const blob = await getBlob(storage.as.gateway, info.key);
      expect(blob.info).toEqual(info);
      expect(blob.data.byteLength).toBe(info.size);
      expect(sha256(blob.data).startsWith(info.etag)).toBe(true);
    }
    const original = await getBlob(storage.as.gateway, image!.original!.key);
    expect(original.data.subarray(0, 3)).toEqual(Buffer.from([0xff, 0xd8, 0xff]));
  });

  it('deletes blobs, bytes and rows, idempotently', async () => {
    const { image } = await storeImage(storage.as.photo, jpeg, ImagePurpose.IMAGE_PURPOSE_AVATAR);
    expect(image!.original!.key).toMatch(new RegExp(`^${backend.prefix}avatars/[0-9a-f-]{36}\\.webp$`));
    expect(image!.display).toBeUndefined();
    const key = image!.original!.key;
    expect((await getBlob(storage.as.gateway, key)).data.byteLength).toBe(image!.original!.size);
    const filesBefore = google.files.size;
    expect(await storage.as.moderation.call.deleteBlobs({ keys: [key, `${backend.prefix}avatars/never-stored.webp`] }, { caller: null })).toEqual({ deleted: 1 });
    expect(await db.prisma.blob.findUnique({ where: { key } })).toBeNull();
    const error = await callError(getBlob(storage.as.gateway, key));
    expect(error.code).toBe(status.NOT_FOUND);
    if (backend.name === 'drive') expect(google.files.size).toBe(filesBefore - 1);
    if (backend.name === 'local') expect((await filesUnder(join(storage.dataDir, 'uploads'))).some((f) => f.endsWith(key.slice('local:'.length)))).toBe(false);
    expect(await storage.as.photo.call.deleteBlobs({ keys: [key] }, { caller: null })).toEqual({ deleted: 0 });
  });

  it('deletes, with a cut-off, only the blobs created before it: a blob written since is kept, bytes and row', async () => {
    const { image } = await storeImage(storage.as.photo, jpeg);
    const keys = [image!.original!.key, image!.display!.key, image!.thumbnail!.key];
    // The original is two hours old; its derivatives were (as far as the table says) written a moment ago.
    await db.prisma.blob.update({ where: { key: keys[0]! }, data: { createdAt: new Date(Date.now() - 2 * 60 * 60 * 1000) } });
    const filesBefore = google.files.size;
    const cutoff = new Date(Date.now() - 60 * 60 * 1000);
    expect(await storage.as.moderation.call.deleteBlobs({ keys, createdBefore: cutoff }, { caller: null })).toEqual({ deleted: 1 });
    expect((await callError(getBlob(storage.as.gateway, keys[0]!))).code).toBe(status.NOT_FOUND);
    for (const key of keys.slice(1)) expect((await getBlob(storage.as.gateway, key)).data.byteLength).toBeGreaterThan(0);
    if (backend.name === 'drive') expect(google.files.size).toBe(filesBefore - 1);
    if (backend.name === 'local') {
      const files = await filesUnder(join(storage.dataDir, 'uploads'));
      expect(files.some((f) => f.endsWith(keys[0]!.slice('local:'.length)))).toBe(false);
      for (const key of keys.slice(1)) expect(files.some((f) => f.endsWith(key.slice('local:'.length))), key).toBe(true);
    }
    // Listing with the same cut-off shows the old blob no more, and never the fresh ones.
    const listed = await storage.as.moderation.call.listBlobs({ pageToken: '', pageSize: 1000, createdBefore: cutoff }, { caller: null });
    expect(listed.blobs.map((b) => b.key).filter((key) => keys.includes(key))).toEqual([]);
    expect(await storage.as.moderation.call.deleteBlobs({ keys: keys.slice(1) }, { caller: null })).toEqual({ deleted: 2 });
  });

  it('renders new derivatives of a stored original: all three, or the medium image alone', async () => {
    const { image } = await storeImage(storage.as.photo, jpeg);
    const bars = [{ x: 0, y: 0, width: 50, height: 50 }];
    const { display, medium, thumbnail } = await storage.as.photo.call.renderDerivatives({ originalKey: image!.original!.key, bars, derivatives: [] }, { caller: null });
    expect(display!.key).not.toBe(image!.display!.key);
    expect(display!.key.startsWith(backend.prefix)).toBe(true);
    for (const info of [display!, medium!, thumbnail!]) {
      expect(info.contentType).toBe('image/webp');
      expect((await getBlob(storage.as.gateway, info.key)).data.byteLength).toBe(info.size);
    }
    expect(medium!.key).toMatch(/-medium\.webp$/);

    const alone = await storage.as.photo.call.renderDerivatives(
      { originalKey: image!.original!.key, bars, derivatives: [Derivative.DERIVATIVE_MEDIUM] },
      { caller: null },
    );
    expect(alone.display).toBeUndefined();
    expect(alone.thumbnail).toBeUndefined();
    expect(alone.medium!.key).toMatch(new RegExp(`^${backend.prefix}photos/.*-medium\\.webp$`));
    const row = await db.prisma.blob.findUnique({ where: { key: alone.medium!.key } });
    expect(row).toMatchObject({ size: alone.medium!.size, contentType: 'image/webp', etag: alone.medium!.etag });
    expect((await getBlob(storage.as.gateway, alone.medium!.key)).data.byteLength).toBe(alone.medium!.size);
    expect(await storage.as.photo.call.deleteBlobs({ keys: [display!.key, medium!.key, thumbnail!.key, alone.medium!.key] }, { caller: null })).toEqual({ deleted: 4 });
    const unknown = storage.as.photo.call.renderDerivatives({ originalKey: image!.original!.key, bars, derivatives: [99 as Derivative] }, { caller: null });
    expect(await callError(unknown)).toMatchObject({ code: status.INVALID_ARGUMENT });
  });
});

describe('refusals', () => {
  let storage: Instance;
  beforeAll(async () => {
    storage = await startStorage({});
  });
  afterAll(() => storage.stop());

  it('refuses a file that is not an image, storing nothing', async () => {
    const before = await rowCount();
    const error = await callError(storeImage(storage.as.photo, Buffer.from('%PDF-1.7 this is not an image at all '.repeat(50))));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    const tiny = await callError(storeImage(storage.as.photo, Buffer.from('hi')));
    expect(tiny).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    expect(await rowCount()).toBe(before);
    expect(await filesUnder(join(storage.dataDir, 'uploads'))).toEqual([]);
  });

  it('refuses 10 MB and one byte, storing nothing', async () => {
    const before = await rowCount();
    const big = Buffer.alloc(10 * 1024 * 1024 + 1);
    jpeg.copy(big);
    const error = await callError(storeImage(storage.as.photo, big));
    expect(error).toMatchObject({ code: status.INVALID_ARGUMENT, details: REFUSED });
    expect(await rowCount()).toBe(before);
    expect(await filesUnder(join(storage.dataDir, 'uploads'))).toEqual([]);
  });

  it('answers NOT_FOUND for an unknown key and refuses callers other than the allowed components', async () => {
    expect(await callError(getBlob(storage.as.gateway, 'local:photos/nothing.jpg'))).toMatchObject({ code: status.NOT_FOUND });
    expect(await callError(getBlob(storage.as.photo, 'local:photos/nothing.jpg'))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storeImage(storage.as.gateway, jpeg))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.vote.call.deleteBlobs({ keys: [] }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.photo.call.listBlobs({ pageToken: '', pageSize: 10 }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    // Auth reaches storage for avatars alone: nothing of a photo's.
    expect(await callError(storeImage(storage.as.auth, jpeg))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.auth.call.deleteBlobs({ keys: [] }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.auth.call.renderDerivatives({ originalKey: 'local:photos/x.jpg', bars: [], derivatives: [] }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storeImage(storage.as.photo, jpeg, ImagePurpose.IMAGE_PURPOSE_UNSPECIFIED))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await callError(storeImage(storage.as.photo, jpeg, ImagePurpose.IMAGE_PURPOSE_PHOTO, [{ x: -5, y: 0, width: 10, height: 10 }]))).toMatchObject({ code: status.INVALID_ARGUMENT });
  });

  it("stores a member's export from the gateway alone, which may delete exports and nothing else", async () => {
    const exportId = '0d5e2f3a-4b6c-4d7e-8f90-abcdef012345';
    const storeExport = async (client: Client, bytes: Buffer) => {
      const upload = client.clientStream('storeExport', { caller: null });
      try {
        await upload.send({ part: { $case: 'header', value: { exportId } } });
        for (const chunk of chunksOf(bytes, 64 * 1024)) await upload.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
      } catch {
        // A refusal; finish() reports it.
      }
      return upload.finish();
    };
    const zip = Buffer.concat([Buffer.from('PK'), Buffer.alloc(200 * 1024, 7)]);
    const { blob } = await storeExport(storage.as.gateway, zip);
    expect(blob).toMatchObject({ key: `local:exports/${exportId}.zip`, size: zip.byteLength, contentType: 'application/zip' });
    const read: Buffer[] = [];
    for await (const message of storage.as.gateway.serverStream('getBlob', { key: blob!.key }, { caller: null })) if (message.part?.$case === 'chunk') read.push(Buffer.from(message.part.value));
    expect(Buffer.concat(read).equals(zip)).toBe(true);
    expect(await callError(storeExport(storage.as.photo, zip))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.gateway.call.deleteBlobs({ keys: [blob!.key, 'local:photos/x.jpg'] }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await storage.as.gateway.call.deleteBlobs({ keys: [blob!.key] }, { caller: null })).toEqual({ deleted: 1 });
  });

  it('answers FAILED_PRECONDITION for a blob whose backend is not configured', async () => {
    await db.prisma.blob.create({ data: { key: 's3:photos/elsewhere.jpg', storageType: 's3', size: 1, contentType: 'image/jpeg', etag: 'x' } });
    const error = await callError(getBlob(storage.as.gateway, 's3:photos/elsewhere.jpg'));
    expect(error.code).toBe(status.FAILED_PRECONDITION);
    expect(error.details).toMatch(/S3-compatible storage, which is not configured on the server/);
    await db.prisma.blob.delete({ where: { key: 's3:photos/elsewhere.jpg' } });
  });
});

describe('StoreAvatar and DeleteAvatar', () => {
  let storage: Instance;
  beforeAll(async () => {
    storage = await startStorage({});
  });
  afterAll(() => storage.stop());

  async function storeAvatar(client: Client, bytes: Buffer, caller: Caller | null = member) {
    const upload = client.clientStream('storeAvatar', { caller });
    try {
      for (const chunk of chunksOf(bytes, 64 * 1024)) await upload.send({ chunk: Buffer.from(chunk) });
    } catch {
      // Refused early; finish() reports it.
    }
    return upload.finish();
  }

  it('stores a member\'s JPEG as a 256 px WebP at avatars/<uuid>.webp, and deletes it by name', async () => {
    const stored = await storeAvatar(storage.as.auth, jpeg);
    expect(stored.name).toMatch(/^[0-9a-f-]{36}\.webp$/);
    expect(stored).toMatchObject({ sourceMimeType: 'image/jpeg', avatar: { key: `local:avatars/${stored.name}`, contentType: 'image/webp' } });
    const { data } = await getBlob(storage.as.gateway, `avatars/${stored.name}`);
    const sharp = (await import('sharp')).default;
    expect(await sharp(data).metadata()).toMatchObject({ format: 'webp', width: 256, height: 256 });
    expect(await storage.as.auth.call.deleteAvatar({ name: stored.name }, { caller: null })).toEqual({ deleted: true });
    expect(await storage.as.auth.call.deleteAvatar({ name: stored.name }, { caller: null })).toEqual({ deleted: false });
    expect(await callError(getBlob(storage.as.gateway, `avatars/${stored.name}`))).toMatchObject({ code: status.NOT_FOUND });
  });

  it('refuses what is not a JPEG or PNG, more than 5 MB, other callers and odd names, storing nothing', async () => {
    const before = await rowCount();
    const refused = { code: status.INVALID_ARGUMENT, details: 'Only JPG, JPEG or PNG images up to 5MB are accepted' };
    expect(await callError(storeAvatar(storage.as.auth, Buffer.from('<html>not an image</html>'.repeat(20))))).toMatchObject(refused);
    const webp = await (await import('sharp')).default({ create: { width: 8, height: 8, channels: 3, background: '#888' } }).webp().toBuffer();
    expect(await callError(storeAvatar(storage.as.auth, webp))).toMatchObject(refused);
    const big = Buffer.alloc(5 * 1024 * 1024 + 1);
    jpeg.copy(big);
    expect(await callError(storeAvatar(storage.as.auth, big))).toMatchObject(refused);
    // Only auth, which points the account at the avatar, stores and deletes one (the gateway asks auth).
    for (const other of [storage.as.gateway, storage.as.photo]) expect(await callError(storeAvatar(other, jpeg))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storeAvatar(storage.as.auth, jpeg, null))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(storage.as.auth.call.deleteAvatar({ name: '../photos/x.jpg' }, { caller: null }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    expect(await callError(storage.as.gateway.call.deleteAvatar({ name: 'x.webp' }, { caller: null }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await rowCount()).toBe(before);
  });
});

describe('changing STORAGE_TYPE', () => {
  it('keeps a photo stored locally readable after a restart with STORAGE_TYPE=minio, and deletes it from its own backend', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'storage-restart-'));
    cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
    const first = await startStorage({}, dataDir);
    const { image } = await storeImage(first.as.photo, jpeg);
    const localKey = image!.original!.key;
    expect(localKey.startsWith('local:')).toBe(true);
    const before = await getBlob(first.as.gateway, localKey);
    await first.stop();

    const second = await startStorage({ STORAGE_TYPE: 'minio', ...s3.env }, dataDir);
    const after = await getBlob(second.as.gateway, localKey);
    expect(after.data.equals(before.data)).toBe(true);
    expect(after.info.storageType).toBe(StorageType.STORAGE_TYPE_LOCAL);
    const { image: newer } = await storeImage(second.as.photo, jpeg);
    expect(newer!.original!.key.startsWith('s3:')).toBe(true);

    const keys = [image!.original!.key, image!.display!.key, image!.medium!.key, image!.thumbnail!.key];
    expect(await second.as.moderation.call.deleteBlobs({ keys }, { caller: null })).toEqual({ deleted: 4 });
    expect(await filesUnder(join(dataDir, 'uploads'))).toEqual([]);
    await second.stop();
  });
});

describe('ListBlobs', () => {
  it('lists oldest first, a page at a time, with a created-before filter', async () => {
    const storage = await startStorage({});
    await db.prisma.blob.deleteMany();
    const base = Date.parse('2026-01-01T00:00:00Z');
    await db.prisma.blob.createMany({
      data: Array.from({ length: 5 }, (_, i) => ({ key: `local:photos/list-${i}.jpg`, storageType: 'local', size: i, contentType: 'image/jpeg', etag: `e${i}`, createdAt: new Date(base + (i < 3 ? 0 : i) * 1000) })),
    });
    const seen: string[] = [];
    let pageToken = '';
    do {
      const page = await storage.as.moderation.call.listBlobs({ pageToken, pageSize: 2 }, { caller: null });
      expect(page.blobs.length).toBeLessThanOrEqual(2);
      seen.push(...page.blobs.map((b) => b.key));
      pageToken = page.nextPageToken;
    } while (pageToken);
    expect(seen).toEqual([0, 1, 2, 3, 4].map((i) => `local:photos/list-${i}.jpg`));
    const older = await storage.as.moderation.call.listBlobs({ pageToken: '', pageSize: 10, createdBefore: new Date(base + 3500) }, { caller: null });
    expect(older.blobs.map((b) => b.key)).toEqual([0, 1, 2, 3].map((i) => `local:photos/list-${i}.jpg`));
    expect(await callError(storage.as.moderation.call.listBlobs({ pageToken: 'garbage', pageSize: 2 }, { caller: null }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    await db.prisma.blob.deleteMany();
    await storage.stop();
  });
});

describe('Google Drive authorization', () => {
  const redirectUri = 'https://snapcracks.example/api/google-drive/callback';

  it('gives an admin the consent URL and exchanges the code for a refresh token', async () => {
    const storage = await startStorage({ ...google.env, GOOGLE_REFRESH_TOKEN: '' });
    const { authUrl } = await storage.as.gateway.call.getDriveAuthUrl({ redirectUri }, { caller: admin });
    const url = new URL(authUrl);
    expect(`${url.origin}${url.pathname}`).toBe(`${google.url}/oauth/auth`);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: FAKE_CLIENT.id,
      redirect_uri: redirectUri,
      access_type: 'offline',
      prompt: 'consent',
      response_type: 'code',
      scope: 'https://www.googleapis.com/auth/drive.file',
    });
    expect(await storage.as.gateway.call.exchangeDriveCode({ code: GOOD_CODE, redirectUri }, { caller: admin })).toEqual({ refreshToken: REFRESH_TOKEN_FROM_CODE });
    const exchange = google.requests.findLast((r) => r.form?.get('grant_type') === 'authorization_code');
    expect(exchange?.form?.get('redirect_uri')).toBe(redirectUri);
    expect(await callError(storage.as.gateway.call.exchangeDriveCode({ code: 'wrong', redirectUri }, { caller: admin }))).toMatchObject({ code: status.INVALID_ARGUMENT });
    await storage.stop();
  });

  it('is for admins through the gateway only', async () => {
    const storage = await startStorage(google.env);
    expect(await callError(storage.as.gateway.call.getDriveAuthUrl({ redirectUri }, { caller: member }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.gateway.call.getDriveAuthUrl({ redirectUri }, { caller: null }))).toMatchObject({ code: status.UNAUTHENTICATED });
    expect(await callError(storage.as.photo.call.getDriveAuthUrl({ redirectUri }, { caller: admin }))).toMatchObject({ code: status.PERMISSION_DENIED });
    expect(await callError(storage.as.gateway.call.exchangeDriveCode({ code: GOOD_CODE, redirectUri }, { caller: member }))).toMatchObject({ code: status.PERMISSION_DENIED });
    await storage.stop();
  });

  it('says Drive is not configured without a client id and secret', async () => {
    const storage = await startStorage({});
    expect(await callError(storage.as.gateway.call.getDriveAuthUrl({ redirectUri }, { caller: admin }))).toMatchObject({
      code: status.FAILED_PRECONDITION,
      details: 'Google Drive is not configured on the server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET',
    });
    expect(await callError(storage.as.gateway.call.exchangeDriveCode({ code: GOOD_CODE, redirectUri }, { caller: admin }))).toMatchObject({ code: status.FAILED_PRECONDITION });
    await storage.stop();
  });
});
