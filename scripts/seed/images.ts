/**
 * A handful of real photos for the seeded rows to point at, so the gallery's images load: generated cracked-concrete
 * pictures, processed by the storage service's own pipeline (upright, cleaned, WebP display, medium and thumbnail, dHash) and
 * written where and as storage writes them (the local backend, keys `local:photos/<yyyy>/<mm>/<uuid>-<kind>.<ext>`),
 * with their `storage.blobs` rows. Many photo rows share one set of blobs.
 */
import { createHash, randomUUID } from 'node:crypto';
import { createRequire } from 'node:module';
import { processPhoto } from '../../services/storage/src/media/pipeline.js';
import { LocalBlobBackend } from '../../services/storage/src/backends/local-backend.js';
import { cracksSvg, seededRandom, type CrackStyle } from '../lib/synthetic-photos.js';
import type { Client } from './db.js';

const sharp = createRequire(new URL('../../services/storage/package.json', import.meta.url))('sharp') as typeof import('sharp');

export interface StoredBlob {
  key: string;
  etag: string;
  size: number;
  contentType: string;
}

/** One processed photo's blobs and facts, as the photo service records them from storage's answer. */
export interface ImageSet {
  original: StoredBlob;
  display: StoredBlob;
  medium: StoredBlob;
  thumbnail: StoredBlob;
  width: number;
  height: number;
  sourceSize: number;
  contentSha256: string;
  perceptualHash: string;
}

/** Three shorter cracks, for the seed's smaller photos. */
const SEED_CRACKS: CrackStyle = {
  cracks: 3,
  steps: { min: 50, range: 50 },
  stepLength: { min: 10, range: 25 },
  stroke: { min: 2, range: 6 },
  branchChance: 0.05,
};

const SHAPES: [number, number][] = [
  [1600, 1200],
  [1200, 1600],
  [1400, 1400],
  [1920, 1080],
];

/** A concrete-like surface (tint, smooth light, grain) with a few branching cracks, as a JPEG. */
async function sourceJpeg(index: number, seed: number): Promise<Buffer> {
  const [width, height] = SHAPES[index % SHAPES.length]!;
  const random = seededRandom(seed * 7919 + index);
  const base = [110 + random() * 60, 105 + random() * 55, 100 + random() * 50];
  const pixels = Buffer.alloc(width * height * 3);
  const fx = 2 + random() * 4;
  const fy = 2 + random() * 4;
  for (let y = 0; y < height; y += 1) {
    for (let x = 0; x < width; x += 1) {
      const light = 18 * Math.sin((x / width) * fx + index) * Math.cos((y / height) * fy) + (random() - 0.5) * 28;
      const p = (y * width + x) * 3;
      for (let c = 0; c < 3; c += 1) pixels[p + c] = Math.max(0, Math.min(255, base[c]! + light));
    }
  }
  const svg = cracksSvg(random, width, height, SEED_CRACKS);
  return sharp(pixels, { raw: { width, height, channels: 3 } })
    .composite([{ input: Buffer.from(svg) }])
    .jpeg({ quality: 88 })
    .toBuffer();
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp' };

/**
 * Makes `count` photos, stores their blobs under `storageDir` (storage's STORAGE_DIR, `<DATA_DIR>/uploads`) and
 * records them in `storage.blobs` on `client`. Answers what the photo rows need, and the files written (to remove
 * them again if the seed fails).
 */
export async function storeImageSets(client: Client, storageDir: string, count: number, seed: number): Promise<{ sets: ImageSet[]; paths: string[] }> {
  const backend = new LocalBlobBackend(storageDir);
  const now = new Date();
  const month = `photos/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  const sets: ImageSet[] = [];
  const paths: string[] = [];
  const store = async (path: string, data: Buffer, contentType: string): Promise<StoredBlob> => {
    const blob = { key: `local:${path}`, etag: createHash('sha256').update(data).digest('hex').slice(0, 32), size: data.byteLength, contentType };
    // As storage does it: the row first, then the bytes.
    await client.query(`INSERT INTO "storage"."blobs" ("key", "storage_type", "size", "content_type", "etag", "created_at") VALUES ($1, 'local', $2, $3, $4, $5)`, [
      blob.key,
      blob.size,
      blob.contentType,
      blob.etag,
      now,
    ]);
    await backend.put(path, data, contentType);
    paths.push(path);
    return blob;
  };
  for (let index = 0; index < count; index += 1) {
    const source = await sourceJpeg(index, seed);
    const photo = await processPhoto(source, 'image/jpeg', [], { maxInputPixels: 100_000_000 });
    const base = `${month}/${randomUUID()}`;
    const original = await store(`${base}-original${EXTENSIONS[photo.original.contentType] ?? ''}`, photo.original.data, photo.original.contentType);
    const display = await store(`${base}-display.webp`, photo.display.data, photo.display.contentType);
    const medium = await store(`${base}-medium.webp`, photo.medium.data, photo.medium.contentType);
    const thumbnail = await store(`${base}-thumb.webp`, photo.thumbnail.data, photo.thumbnail.contentType);
    sets.push({
      original,
      display,
      medium,
      thumbnail,
      width: photo.original.width,
      height: photo.original.height,
      sourceSize: source.byteLength,
      contentSha256: photo.sha256,
      perceptualHash: photo.perceptualHash,
    });
  }
  return { sets, paths };
}

/** Removes files `storeImageSets` wrote (the seed failed, so no row points at them). */
export async function removeImageFiles(storageDir: string, paths: string[]): Promise<void> {
  const backend = new LocalBlobBackend(storageDir);
  for (const path of paths) await backend.delete({ path }).catch(() => undefined);
}
