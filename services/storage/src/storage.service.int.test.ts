import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, InvalidArgumentError, openDatabase, UnavailableError, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { makeJpeg } from '../test/support/images.js';
import { PrismaClient } from './generated/prisma/client.js';
import { Backends, LocalBlobBackend, type BlobBackend } from './backends/index.js';
import { BlobRepository } from './blob.repository.js';
import { DriveAuthorization } from './drive-authorization.js';
import { ImageProcessor, ImageQueueFullError, type DerivativeKind, type EncodedImage } from './media/index.js';
import { StorageService, type ImageWork } from './storage.service.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let dir: string;

beforeAll(async () => {
  database = await createTestDatabase('storage_service');
  await applyMigrations({ databaseUrl: database.url, schema: 'storage', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'storage', logger });
  dir = await mkdtemp(join(tmpdir(), 'storage-service-'));
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
  await rm(dir, { recursive: true, force: true });
});

const encoded = (contentType: string) => ({ data: Buffer.from(`bytes of ${contentType}`), contentType, width: 4, height: 3, etag: `etag of ${contentType}` });
const images: ImageWork = {
  processPhoto: async () => ({
    original: encoded('image/jpeg'),
    display: encoded('image/webp'),
    medium: encoded('image/webp'),
    thumbnail: encoded('image/webp'),
    sourceMimeType: 'image/jpeg',
    sha256: 'ignored',
    perceptualHash: '0123456789abcdef',
  }),
  renderDerivatives: async <K extends DerivativeKind>(_original: Buffer, _bars: unknown, kinds: readonly K[]) =>
    Object.fromEntries(kinds.map((kind) => [kind, encoded('image/webp')])) as Record<K, EncodedImage>,
  processAvatar: async () => ({ ...encoded('image/webp'), sourceMimeType: 'image/png', sha256: 'ignored' }),
};

async function* once(data: Buffer): AsyncIterable<Buffer> {
  yield data;
}

describe('StorageService storing parts', () => {
  it('writes the row before the bytes, and removes every part (bytes and rows) when one part fails', async () => {
    const local = new LocalBlobBackend(join(dir, 'uploads'));
    const rowsSeenAtPut: boolean[] = [];
    const flaky: BlobBackend = {
      type: 'local',
      async put(path, data, contentType) {
        rowsSeenAtPut.push((await db.prisma.blob.findUnique({ where: { key: `local:${path}` } })) !== null);
        if (path.endsWith('-thumb.webp')) throw new Error('disk full');
        return local.put(path, data, contentType);
      },
      putStream: (path, data, contentType) => local.putStream(path, data, contentType),
      get: (ref) => local.get(ref),
      delete: (ref) => local.delete(ref),
    };
    const config = { storageType: 'local' as const, localDir: join(dir, 'uploads'), imageWorkers: 1, imageNiceness: 0, imageMaxPixels: 50_000_000, imageQueue: { max: 32, perMember: 4 } };
    const service = new StorageService(new BlobRepository(db.prisma), new Backends(config, { local: () => flaky }), images, new DriveAuthorization(undefined), logger);

    await expect(service.storeImage('photo', [], once(await makeJpeg()))).rejects.toThrow(UnavailableError);
    expect(rowsSeenAtPut).toEqual([true, true, true, true]);
    expect(await db.prisma.blob.count()).toBe(0);
    const files = await readdir(join(dir, 'uploads'), { recursive: true, withFileTypes: true }).catch(() => []);
    expect(files.filter((f) => f.isFile())).toEqual([]);
  });
});

describe('StorageService and the image limits', () => {
  const service = (work: ImageWork) =>
    new StorageService(new BlobRepository(db.prisma), new Backends({ storageType: 'local', localDir: join(dir, 'limits'), imageWorkers: 1, imageNiceness: 0, imageMaxPixels: 1_000_000, imageQueue: { max: 1, perMember: 1 } }), work, new DriveAuthorization(undefined), logger);

  it('refuses a photo over the pixel limit with INVALID_ARGUMENT saying the limit, and stores nothing', async () => {
    const processor = new ImageProcessor({ maxInputPixels: 1_000_000, maxThreads: 1 });
    try {
      const before = await db.prisma.blob.count();
      const refusal = service(processor).storeImage('photo', [], once(await makeJpeg(1001, 1000)), 'member-1');
      await expect(refusal).rejects.toBeInstanceOf(InvalidArgumentError);
      await expect(refusal).rejects.toThrow('Photos of up to 1 megapixels are accepted. Please upload a smaller version of this photo.');
      expect(await db.prisma.blob.count()).toBe(before);
    } finally {
      await processor.close();
    }
  });

  it('answers UNAVAILABLE with the queue’s message when the image queue is full, and passes on whose work it is', async () => {
    const members: (string | undefined)[] = [];
    const full: ImageWork = {
      ...images,
      processPhoto: async (_input, _bars, member) => {
        members.push(member);
        throw new ImageQueueFullError('all');
      },
    };
    const refusal = service(full).storeImage('photo', [], once(await makeJpeg()), 'member-2');
    await expect(refusal).rejects.toBeInstanceOf(UnavailableError);
    await expect(refusal).rejects.toThrow(new ImageQueueFullError('all').message);
    expect(members).toEqual(['member-2']);
  });
});

describe('StorageService storing a member’s export', () => {
  const uploads = () => join(dir, 'exports-test');
  const service = () =>
    new StorageService(new BlobRepository(db.prisma), new Backends({ storageType: 'local', localDir: uploads(), imageWorkers: 1, imageNiceness: 0, imageMaxPixels: 1_000_000, imageQueue: { max: 1, perMember: 1 } }), images, new DriveAuthorization(undefined), logger);
  const id = '5f0c3a4e-1b2d-4c5e-8f90-0123456789ab';
  async function* pieces(...parts: string[]): AsyncIterable<Buffer> {
    for (const part of parts) yield Buffer.from(part);
  }
  async function* failing(): AsyncIterable<Buffer> {
    yield Buffer.from('first part');
    throw new Error('the gateway went away');
  }
  const bytesOf = async (key: string) => {
    const { content } = await service().open(key);
    const chunks: Buffer[] = [];
    for await (const chunk of content.stream) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString();
  };

  it('streams the bytes to exports/<id>.zip, then records their size and etag; a second attempt replaces the first', async () => {
    const blob = await service().storeExport(id, pieces('PK', 'zip bytes'));
    expect(blob).toMatchObject({ key: `local:exports/${id}.zip`, size: 11, contentType: 'application/zip', storageType: 'local' });
    expect(blob.etag).toMatch(/^[0-9a-f]{32}$/);
    expect(await bytesOf(blob.key)).toBe('PKzip bytes');
    const again = await service().storeExport(id, pieces('PK again'));
    expect(again.size).toBe(8);
    expect(await bytesOf(again.key)).toBe('PK again');
    expect(await db.prisma.blob.count({ where: { key: { startsWith: 'local:exports/' } } })).toBe(1);
    expect(await service().deleteBlobs([again.key])).toBe(1);
  });

  it('refuses more than the limit and a stream that fails, leaving neither row nor bytes', async () => {
    await expect(service().storeExport(id, pieces('12345', '67890'), 8)).rejects.toThrow(InvalidArgumentError);
    await expect(service().storeExport(id, failing())).rejects.toThrow(UnavailableError);
    await expect(service().storeExport('../photos/x', pieces('x'))).rejects.toThrow(InvalidArgumentError);
    expect(await db.prisma.blob.count({ where: { key: { startsWith: 'local:exports/' } } })).toBe(0);
    const files = await readdir(uploads(), { recursive: true, withFileTypes: true }).catch(() => []);
    expect(files.filter((f) => f.isFile())).toEqual([]);
  });
});
