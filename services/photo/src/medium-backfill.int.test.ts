import { cpSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { status } from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, chunksOf, createLogger, createMemoryEventBus, createOutbox, type Caller, type Database, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices, callError } from '@snapcracks/kit/testing';
import { createStorageService } from '@snapcracks/storage';
import type { PrivacyBar } from '@snapcracks/proto/common/v1';
import { ImagePurpose, StorageServiceClient, type StoredImage } from '@snapcracks/proto/storage/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { MediumBackfill } from './medium-backfill.js';
import { PgMediumBackfillStore } from './medium-backfill.pg-repository.js';
import { PrismaPhotoRepository } from './photo.repository.js';
import { PhotoService } from './photo.service.js';
import { GrpcPhotoStorage, type PhotoStorage } from './storage.client.js';

/**
 * The medium_images migration over photos the previous release stored (an original, a display image and a thumbnail,
 * made by the real storage service), and the medium backfill that then gives each one its medium image: what a
 * running installation goes through on upgrading, on the machine's PostgreSQL.
 */

const logger = createLogger('test', 'silent');
const MIGRATIONS = fileURLToPath(new URL('../prisma/migrations', import.meta.url));
const MIGRATION_NAMES = readdirSync(MIGRATIONS).filter((name) => /^\d+_/.test(name)).sort();
/** The last migration before medium_images: the schema of the previous release. */
const BEFORE_MEDIUM = MIGRATION_NAMES[MIGRATION_NAMES.findIndex((name) => name.endsWith('_medium_images')) - 1]!;

const owner: Caller = { userId: 'owner-1', isAdmin: false, hasAcceptedTerms: true };
const other: Caller = { userId: 'other-1', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const TOP_LEFT: PrivacyBar = { x: 0, y: 0, width: 50, height: 50 };

interface SharpImage {
  metadata(): Promise<{ format?: string; width?: number; height?: number; exif?: Buffer; icc?: Buffer; xmp?: Buffer }>;
  removeAlpha(): SharpImage;
  raw(): SharpImage;
  jpeg(options: { quality: number }): SharpImage;
  withExif(exif: Record<string, Record<string, string>>): SharpImage;
  toBuffer(): Promise<Buffer>;
  toBuffer(options: { resolveWithObject: true }): Promise<{ data: Buffer; info: { width: number; height: number; channels: number } }>;
}
type Sharp = (input?: unknown, options?: unknown) => SharpImage;

let services: TestServices;
let db: Database<PrismaClient>;
let blobs: ServiceClient<StorageServiceClient>;
let asPhoto: ServiceClient<StorageServiceClient>;
let storage: GrpcPhotoStorage;
let service: PhotoService;
let sharp: Sharp;
let photoJpeg: Buffer;
const scratch = mkdtempSync(join(tmpdir(), 'photo-medium-'));

beforeAll(async () => {
  services = await startTestServices({ services: [createStorageService({ env: {} })] });
  const before = mkdtempSync(join(scratch, 'upto-'));
  for (const name of MIGRATION_NAMES.filter((n) => n <= BEFORE_MEDIUM)) cpSync(join(MIGRATIONS, name), join(before, name), { recursive: true });
  await applyMigrations({ databaseUrl: services.database.url, schema: 'photo', migrationsDir: before });
  db = services.openDatabase(PrismaClient, 'photo');
  blobs = services.client(StorageServiceClient, { as: 'gateway', of: 'storage', deadlineMs: 30_000 });
  asPhoto = services.client(StorageServiceClient, { as: 'photo', of: 'storage', deadlineMs: 30_000 });
  storage = new GrpcPhotoStorage(asPhoto);
  // sharp is storage's dependency, not ours: load it from there.
  const fromStorage = createRequire(fileURLToPath(new URL('../../storage/package.json', import.meta.url)));
  sharp = ((await import(pathToFileURL(fromStorage.resolve('sharp')).href)) as { default: Sharp }).default;
  service = new PhotoService(new PrismaPhotoRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'photo', bus: createMemoryEventBus({ logger }), logger })), storage, logger);
  // A 1600 × 1200 photo, left half red and right half blue, with EXIF that must not reach any derivative.
  const left = Buffer.alloc(1600 * 1200 * 3);
  for (let p = 0; p < 1600 * 1200; p += 1) left.set(p % 1600 < 800 ? [210, 40, 40] : [40, 60, 200], p * 3);
  photoJpeg = await sharp(left, { raw: { width: 1600, height: 1200, channels: 3 } })
    .withExif({ IFD0: { Copyright: 'Snap Cracks Test Camera', Artist: 'Fixture' } })
    .jpeg({ quality: 90 })
    .toBuffer();
}, 60_000);
afterAll(async () => {
  await services?.stop();
  rmSync(scratch, { recursive: true, force: true });
});

/** Stores an upload in the real storage service as the previous release did, keeping none of the medium image storage now makes. */
async function storedAsBefore(bars: PrivacyBar[]): Promise<StoredImage> {
  const upload = asPhoto.clientStream('storeImage', { caller: owner, deadlineMs: 60_000 });
  await upload.send({ part: { $case: 'header', value: { purpose: ImagePurpose.IMAGE_PURPOSE_PHOTO, bars } } });
  for (const chunk of chunksOf(photoJpeg, 64 * 1024)) await upload.send({ part: { $case: 'chunk', value: Buffer.from(chunk) } });
  const { image } = await upload.finish();
  await asPhoto.call.deleteBlobs({ keys: [image!.medium!.key] }, { caller: null });
  return image!;
}

/** A photo row as the previous release inserted it (its columns only), over blobs storage holds. */
async function previousReleasePhoto(options: { bars?: PrivacyBar[]; status?: 'pending' | 'approved'; withOriginal?: boolean } = {}): Promise<number> {
  const { bars = [], status: photoStatus = 'approved', withOriginal = true } = options;
  const image = await storedAsBefore(bars);
  const { rows } = await db.pool.query<{ id: number }>(
    `INSERT INTO "photo"."photos" ("user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "reviewed_at", "privacy_bars",
       "storage_type", "original_key", "original_etag", "original_size", "original_type", "display_key", "display_etag", "display_size",
       "thumbnail_key", "thumbnail_etag", "thumbnail_size", "width", "height", "image_version", "updated_at")
     VALUES ($1, md5(random()::text) || '.webp', 'crack.jpg', 'image/jpeg', $2, $3::"photo"."PhotoStatus", $4, $4, $5, 'local',
       $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, now() - interval '1 day')
     RETURNING "id"`,
    [
      owner.userId,
      photoJpeg.byteLength,
      photoStatus,
      photoStatus === 'approved' ? new Date(Date.now() - 86_400_000) : null,
      bars.length ? JSON.stringify(bars) : null,
      withOriginal ? image.original!.key : null,
      withOriginal ? image.original!.etag : null,
      withOriginal ? image.original!.size : null,
      withOriginal ? image.original!.contentType : null,
      image.display!.key,
      image.display!.etag,
      image.display!.size,
      image.thumbnail!.key,
      image.thumbnail!.etag,
      image.thumbnail!.size,
      image.width,
      image.height,
      bars.length ? 2 : 1,
    ],
  );
  return rows[0]!.id;
}

async function getBlob(key: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const message of blobs.serverStream('getBlob', { key }, { caller: null })) if (message.part?.$case === 'chunk') chunks.push(message.part.value);
  return Buffer.concat(chunks);
}

/** The pixel at (fx, fy), fractions of the width and height. */
async function pixelAt(image: Buffer, fx: number, fy: number): Promise<number[]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const i = (Math.floor(fy * info.height) * info.width + Math.floor(fx * info.width)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}
const isBlack = (rgb: number[]) => rgb.every((channel) => channel < 24);

const row = (id: number) => db.prisma.photo.findUniqueOrThrow({ where: { id } });
/** Every medium image storage holds; each must belong to a photo (no orphans left by a backfill). */
const storedMediumKeys = async () =>
  (await db.pool.query<{ key: string }>(`SELECT "key" FROM "storage"."blobs" WHERE "key" LIKE '%-medium.webp' ORDER BY "key"`)).rows.map((r) => r.key);
const photosMediumKeys = async () =>
  (await db.pool.query<{ key: string }>(`SELECT "medium_key" AS "key" FROM "photo"."photos" WHERE "medium_key" IS NOT NULL ORDER BY 1`)).rows.map((r) => r.key);
const withoutMedium = async () => (await db.pool.query(`SELECT 1 FROM "photo"."photos" WHERE "medium_key" IS NULL AND "original_key" IS NOT NULL`)).rowCount;

function backfill(storageOf: Pick<PhotoStorage, 'renderMedium' | 'deleteBlobs'> = storage, concurrency = 2) {
  return new MediumBackfill(new PgMediumBackfillStore(db.pool), storageOf, logger, { concurrency, batchSize: 3 });
}

/** Storage whose medium renders wait at a gate, counting how many are under way at once. */
function gatedStorage() {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const seen = { inFlight: 0, most: 0, started: 0, keys: [] as string[] };
  let started!: () => void;
  const firstStarted = new Promise<void>((resolve) => (started = resolve));
  const gated: Pick<PhotoStorage, 'renderMedium' | 'deleteBlobs'> = {
    async renderMedium(caller, originalKey, bars) {
      seen.inFlight += 1;
      seen.started += 1;
      seen.most = Math.max(seen.most, seen.inFlight);
      started();
      try {
        await gate;
        const medium = await storage.renderMedium(caller, originalKey, bars);
        seen.keys.push(medium.key);
        return medium;
      } finally {
        seen.inFlight -= 1;
      }
    },
    deleteBlobs: (caller, keys) => storage.deleteBlobs(caller, keys),
  };
  return { gated, open: () => open(), firstStarted, seen };
}

describe('upgrading: photos stored before there were medium images', () => {
  let plain: number;
  let barred: number;
  let pending: number;
  let originless: number;

  it('keeps them whole through the migration, each without a medium image, and lists those the backfill can do', async () => {
    plain = await previousReleasePhoto();
    barred = await previousReleasePhoto({ bars: [TOP_LEFT] });
    pending = await previousReleasePhoto({ status: 'pending' });
    originless = await previousReleasePhoto({ withOriginal: false });
    await applyMigrations({ databaseUrl: services.database.url, schema: 'photo', migrationsDir: MIGRATIONS });
    for (const id of [plain, barred, pending, originless]) expect(await row(id)).toMatchObject({ mediumKey: null, mediumEtag: null, mediumSize: null, version: 1n });
    const listed = await new PgMediumBackfillStore(db.pool).photosWithoutMedium(0, 10);
    expect(listed).toEqual([
      { id: plain, originalKey: (await row(plain)).originalKey, privacyBars: null, imageVersion: 1 },
      { id: barred, originalKey: (await row(barred)).originalKey, privacyBars: JSON.stringify([TOP_LEFT]), imageVersion: 2 },
      { id: pending, originalKey: (await row(pending)).originalKey, privacyBars: null, imageVersion: 1 },
    ]);
    expect(await new PgMediumBackfillStore(db.pool).photosWithoutMedium(barred, 1)).toEqual([expect.objectContaining({ id: pending })]);
    // The backfill's scan can read the partial index rather than the table (which a table this small never needs).
    const client = await db.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query('SET LOCAL enable_seqscan = off');
      const { rows: plan } = await client.query<{ 'QUERY PLAN': string }>(
        `EXPLAIN SELECT "id" FROM "photo"."photos" WHERE "medium_key" IS NULL AND "original_key" IS NOT NULL AND "id" > 0 ORDER BY "id" LIMIT 100`,
      );
      expect(plan.map((line) => line['QUERY PLAN']).join('\n')).toMatch(/photos_without_medium/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });

  it('answers their display image for the medium one, to whoever may see the display image', async () => {
    const approved = await row(plain);
    for (const caller of [null, other, owner, admin]) {
      expect(await service.resolveImage(caller, approved.filename, 'medium')).toEqual({
        blobKey: approved.displayKey,
        contentType: 'image/webp',
        etag: approved.displayEtag,
        size: approved.displaySize,
        public: true,
        imageVersion: 1,
        fallback: true,
      });
    }
    const hidden = await row(pending);
    for (const caller of [owner, admin]) expect(await service.resolveImage(caller, hidden.filename, 'medium')).toMatchObject({ blobKey: hidden.displayKey, public: false, fallback: true });
    for (const caller of [null, other]) await expect(service.resolveImage(caller, hidden.filename, 'medium')).rejects.toMatchObject({ kind: 'not_found' });
  });

  it('gives each its medium image from its original, bars burned in, no metadata, recorded in storage like the others', async () => {
    const events = (await outboxEvents(db.prisma, 'photo')).length;
    const before = await row(plain);
    expect(await backfill().runOnce()).toEqual({ made: 3, superseded: 0, unreadable: 0 });
    for (const id of [plain, barred, pending]) {
      const photo = await row(id);
      expect(photo.mediumKey).toMatch(/^local:photos\/\d{4}\/\d{2}\/[0-9a-f-]{36}-medium\.webp$/);
      const { rows: stored } = await db.pool.query(`SELECT "size", "content_type", "etag" FROM "storage"."blobs" WHERE "key" = $1`, [photo.mediumKey]);
      expect(stored).toEqual([{ size: photo.mediumSize, content_type: 'image/webp', etag: photo.mediumEtag }]);
      const bytes = await getBlob(photo.mediumKey!);
      expect(bytes.byteLength).toBe(photo.mediumSize);
      const meta = await sharp(bytes).metadata();
      expect([meta.format, meta.width, meta.height]).toEqual(['webp', 960, 720]);
      expect([meta.exif, meta.xmp, meta.icc]).toEqual([undefined, undefined, undefined]);
      expect(bytes.includes('Snap Cracks Test Camera')).toBe(false);
      const red = await pixelAt(bytes, 0.25, 0.25);
      if (id === barred) expect(isBlack(red)).toBe(true);
      else expect(red[0]).toBeGreaterThan(150);
      // The bar covers the top-left quarter only.
      expect(isBlack(await pixelAt(bytes, 0.25, 0.75))).toBe(false);
      expect(isBlack(await pixelAt(bytes, 0.75, 0.25))).toBe(false);
    }
    // Not an edit: the row's version and time stay, and no event is sent.
    expect(await row(plain)).toMatchObject({ version: before.version, updatedAt: before.updatedAt, imageVersion: 1, displayKey: before.displayKey });
    expect((await outboxEvents(db.prisma, 'photo')).length).toBe(events);
    const medium = await row(plain);
    expect(await service.resolveImage(null, medium.filename, 'medium')).toEqual({
      blobKey: medium.mediumKey,
      contentType: 'image/webp',
      etag: medium.mediumEtag,
      size: medium.mediumSize,
      public: true,
      imageVersion: 1,
      fallback: false,
    });
    const hidden = await row(pending);
    await expect(service.resolveImage(other, hidden.filename, 'medium')).rejects.toMatchObject({ kind: 'not_found' });
    expect(await service.resolveImage(owner, hidden.filename, 'medium')).toMatchObject({ blobKey: hidden.mediumKey, public: false, fallback: false });
    expect(await row(originless)).toMatchObject({ mediumKey: null });
  });

  it('finds nothing more to do the second time', async () => {
    const keys = await photosMediumKeys();
    expect(await backfill().runOnce()).toEqual({ made: 0, superseded: 0, unreadable: 0 });
    expect(await photosMediumKeys()).toEqual(keys);
    expect(await storedMediumKeys()).toEqual(keys);
  });
});

describe('the medium backfill', () => {
  it('goes on where a failed pass stopped, one medium image per photo', async () => {
    const ids = [await previousReleasePhoto(), await previousReleasePhoto(), await previousReleasePhoto()];
    let renders = 0;
    const flaky: Pick<PhotoStorage, 'renderMedium' | 'deleteBlobs'> = {
      async renderMedium(caller, originalKey, bars) {
        renders += 1;
        if (renders === 2) throw Object.assign(new Error('storage unavailable'), { code: status.UNAVAILABLE });
        return storage.renderMedium(caller, originalKey, bars);
      },
      deleteBlobs: (caller, keys) => storage.deleteBlobs(caller, keys),
    };
    await expect(backfill(flaky, 1).runOnce()).rejects.toThrow('storage unavailable');
    expect((await row(ids[0]!)).mediumKey).not.toBeNull();
    expect((await row(ids[1]!)).mediumKey).toBeNull();
    expect(await backfill(flaky, 1).runOnce()).toEqual({ made: 2, superseded: 0, unreadable: 0 });
    expect(await withoutMedium()).toBe(0);
    expect(await storedMediumKeys()).toEqual(await photosMediumKeys());
  });

  it('runs on one replica at a time, a bounded number of renders at once', async () => {
    const ids = [];
    for (let i = 0; i < 5; i += 1) ids.push(await previousReleasePhoto());
    const first = gatedStorage();
    const second = gatedStorage();
    const running = backfill(first.gated, 2).runOnce();
    try {
      await first.firstStarted;
      // The other replica finds the pass taken, and renders nothing.
      expect(await backfill(second.gated, 2).runOnce()).toBeNull();
    } finally {
      first.open();
      second.open();
    }
    expect(await running).toEqual({ made: 5, superseded: 0, unreadable: 0 });
    expect(first.seen).toMatchObject({ started: 5, most: 2 });
    expect(second.seen.started).toBe(0);
    for (const id of ids) expect((await row(id)).mediumKey).not.toBeNull();
    expect(await storedMediumKeys()).toEqual(await photosMediumKeys());
  });

  it('runs two replicas at once to the same end: every photo once, no image left over', async () => {
    for (let i = 0; i < 4; i += 1) await previousReleasePhoto();
    const reports = await Promise.all([backfill().runOnce(), backfill().runOnce()]);
    expect(reports.filter((report) => report !== null).reduce((made, report) => made + report!.made, 0)).toBe(4);
    expect(await withoutMedium()).toBe(0);
    expect(await storedMediumKeys()).toEqual(await photosMediumKeys());
  });

  it('leaves the display image standing in for a photo whose original cannot be read, and does not try it again', async () => {
    const id = await previousReleasePhoto();
    const photo = await row(id);
    await asPhoto.call.deleteBlobs({ keys: [photo.originalKey!] }, { caller: null });
    const runner = backfill();
    expect(await runner.runOnce()).toEqual({ made: 0, superseded: 0, unreadable: 1 });
    expect(await runner.runOnce()).toEqual({ made: 0, superseded: 0, unreadable: 0 });
    expect(await service.resolveImage(null, photo.filename, 'medium')).toMatchObject({ blobKey: photo.displayKey, fallback: true });
    await db.pool.query(`UPDATE "photo"."photos" SET "original_key" = NULL WHERE "id" = $1`, [id]);
  });

  it('drops its image when new bars came while it rendered: theirs has the new bars', async () => {
    const id = await previousReleasePhoto();
    const { gated, open, firstStarted, seen } = gatedStorage();
    const running = backfill(gated, 1).runOnce();
    let photo;
    try {
      await firstStarted;
      ({ photo } = await service.setPrivacyBars(owner, id, [TOP_LEFT]));
    } finally {
      open();
    }
    expect(await running).toEqual({ made: 0, superseded: 1, unreadable: 0 });
    const stored = await row(id);
    expect(stored).toMatchObject({ imageVersion: 2, mediumKey: photo.mediumKey });
    expect(isBlack(await pixelAt(await getBlob(stored.mediumKey!), 0.25, 0.25))).toBe(true);
    expect(seen.keys).toHaveLength(1);
    expect(await callError(getBlob(seen.keys[0]!))).toMatchObject({ code: status.NOT_FOUND });
    expect(await storedMediumKeys()).toEqual(await photosMediumKeys());
  });

  it('is written over by new bars whose images were rendered while it recorded one, and its image deleted', async () => {
    const id = await previousReleasePhoto();
    let backfilled: string | null = null;
    // New bars whose rendering overlaps a whole pass of the backfill on the same photo.
    const overlapping: PhotoStorage = {
      storeImage: (caller, chunks) => storage.storeImage(caller, chunks),
      renderMedium: (caller, key, bars) => storage.renderMedium(caller, key, bars),
      deleteBlobs: (caller, keys) => storage.deleteBlobs(caller, keys),
      async renderDerivatives(caller, key, bars) {
        const rendered = await storage.renderDerivatives(caller, key, bars);
        expect(await backfill().runOnce()).toEqual({ made: 1, superseded: 0, unreadable: 0 });
        backfilled = (await row(id)).mediumKey;
        return rendered;
      },
    };
    const barring = new PhotoService(new PrismaPhotoRepository(db.prisma, createOutbox({ prisma: db.prisma, schema: 'photo', bus: createMemoryEventBus({ logger }), logger })), overlapping, logger);
    const { photo } = await barring.setPrivacyBars(owner, id, [TOP_LEFT]);
    expect(backfilled).toMatch(/-medium\.webp$/);
    expect(photo.mediumKey).not.toBe(backfilled);
    expect(await row(id)).toMatchObject({ imageVersion: 2, mediumKey: photo.mediumKey, privacyBars: JSON.stringify([TOP_LEFT]) });
    expect(await callError(getBlob(backfilled!))).toMatchObject({ code: status.NOT_FOUND });
    expect(isBlack(await pixelAt(await getBlob(photo.mediumKey!), 0.25, 0.25))).toBe(true);
    expect(await storedMediumKeys()).toEqual(await photosMediumKeys());
  });
});
