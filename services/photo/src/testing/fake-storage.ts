import { randomUUID } from 'node:crypto';
import { NotFoundError, type Caller } from '@snapcracks/kit';
import type { PrivacyBar } from '@snapcracks/proto/common/v1';
import type { Derivatives, PhotoStorage, StoredBlob, StoredPhotoImage } from '../storage.client.js';

/**
 * Storage in memory: keeps which blobs exist, records the bars each render burned in, and can be told to refuse an
 * upload, fail deletions, or run a hook while rendering (to stage a concurrent change).
 */
export class FakeStorage implements PhotoStorage {
  readonly blobs = new Map<string, StoredBlob>();
  readonly renders: { originalKey: string; bars: PrivacyBar[]; only?: 'medium' }[] = [];
  readonly calls: { method: string; caller: Caller | null }[] = [];
  refuseUpload: Error | undefined;
  failDeletes = false;
  /** Answer uploads and renders without a medium image, as a storage service of the previous release does. */
  withoutMedium = false;
  /** The next medium render fails with this error. */
  failNextMedium: Error | undefined;
  onRender: (() => Promise<void>) | undefined;
  /** Bytes the last upload streamed. */
  received = 0;

  async storeImage(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredPhotoImage> {
    this.calls.push({ method: 'storeImage', caller });
    this.received = 0;
    for await (const chunk of chunks) this.received += chunk.byteLength;
    if (this.refuseUpload) throw this.refuseUpload;
    const base = `local:photos/${randomUUID()}`;
    return {
      original: this.#put(`${base}-original.jpg`, 'image/jpeg', 5000),
      display: this.#put(`${base}-display.webp`, 'image/webp', 3000),
      medium: this.withoutMedium ? null : this.#put(`${base}-medium.webp`, 'image/webp', 1200),
      thumbnail: this.#put(`${base}-thumb.webp`, 'image/webp', 500),
      width: 640,
      height: 480,
      sourceMimeType: 'image/heic',
      sourceSize: this.received,
      contentSha256: 'cd'.repeat(32),
      perceptualHash: 'fedcba9876543210',
    };
  }

  async renderDerivatives(caller: Caller, originalKey: string, bars: PrivacyBar[]): Promise<Derivatives> {
    this.calls.push({ method: 'renderDerivatives', caller });
    if (!this.blobs.has(originalKey)) throw new NotFoundError('Blob not found');
    this.renders.push({ originalKey, bars: structuredClone(bars) });
    const base = `local:photos/${randomUUID()}`;
    const rendered = {
      display: this.#put(`${base}-display.webp`, 'image/webp', 3100),
      medium: this.withoutMedium ? null : this.#put(`${base}-medium.webp`, 'image/webp', 1210),
      thumbnail: this.#put(`${base}-thumb.webp`, 'image/webp', 510),
    };
    await this.onRender?.();
    return rendered;
  }

  async renderMedium(caller: Caller | null, originalKey: string, bars: PrivacyBar[]): Promise<StoredBlob> {
    this.calls.push({ method: 'renderMedium', caller });
    const failure = this.failNextMedium;
    this.failNextMedium = undefined;
    if (failure) throw failure;
    if (!this.blobs.has(originalKey)) throw new NotFoundError('Blob not found');
    this.renders.push({ originalKey, bars: structuredClone(bars), only: 'medium' });
    const medium = this.#put(`local:photos/${randomUUID()}-medium.webp`, 'image/webp', 1220);
    await this.onRender?.();
    return medium;
  }

  async deleteBlobs(caller: Caller | null, keys: string[]): Promise<void> {
    this.calls.push({ method: 'deleteBlobs', caller });
    if (this.failDeletes) throw new Error('storage unavailable');
    for (const key of keys) this.blobs.delete(key);
  }

  keys(): string[] {
    return [...this.blobs.keys()];
  }

  #put(key: string, contentType: string, size: number): StoredBlob {
    const blob: StoredBlob = { key, size, contentType, etag: key.slice(-12), storageType: 'local', driveFileId: null };
    this.blobs.set(key, blob);
    return blob;
  }
}

/** An upload's bytes as the handler hands them over. */
export async function* bytes(...sizes: number[]): AsyncIterable<Buffer> {
  for (const size of sizes) yield Buffer.alloc(size, 1);
}
