import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, UnavailableError, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { makeJpeg } from '../test/support/images.js';
import { PrismaClient } from './generated/prisma/client.js';
import { Backends, LocalBlobBackend, type BlobBackend } from './backends/index.js';
import { BlobRepository } from './blob.repository.js';
import { DriveAuthorization } from './drive-authorization.js';
import type { DerivativeKind, EncodedImage } from './media/index.js';
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
      get: (ref) => local.get(ref),
      delete: (ref) => local.delete(ref),
    };
    const config = { storageType: 'local' as const, localDir: join(dir, 'uploads'), imageWorkers: 1, imageNiceness: 10 };
    const service = new StorageService(new BlobRepository(db.prisma), new Backends(config, { local: () => flaky }), images, new DriveAuthorization(undefined), logger);

    await expect(service.storeImage('photo', [], once(await makeJpeg()))).rejects.toThrow(UnavailableError);
    expect(rowsSeenAtPut).toEqual([true, true, true, true]);
    expect(await db.prisma.blob.count()).toBe(0);
    const files = await readdir(join(dir, 'uploads'), { recursive: true, withFileTypes: true }).catch(() => []);
    expect(files.filter((f) => f.isFile())).toEqual([]);
  });
});
