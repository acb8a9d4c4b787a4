import { randomUUID } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { mkdir, open, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { assertSafePath, type BlobBackend, type BlobContent, type BlobRef } from './backend.js';

const CHUNK = 64 * 1024;

/** Blobs as files under one directory. Writes are atomic (temporary file, fsync, rename); paths cannot leave the directory. */
export class LocalBlobBackend implements BlobBackend {
  readonly type = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  put(path: string, data: Buffer, contentType?: string): Promise<{ driveFileId?: string }> {
    return this.putStream(path, Readable.from([data]), contentType);
  }

  async putStream(path: string, data: Readable, _contentType?: string): Promise<{ driveFileId?: string }> {
    const file = this.file(path);
    await mkdir(dirname(file), { recursive: true });
    // Same directory, so the rename is atomic: the bytes land under a temporary name, synced, then renamed, so a reader
    // never sees part of them and a crash leaves at most a `.tmp-…` file, never a half-written blob.
    const temporary = join(dirname(file), `.tmp-${randomUUID()}`);
    try {
      await pipeline(data, createWriteStream(temporary, { flags: 'wx', mode: 0o640 }));
      const handle = await open(temporary, 'r');
      try {
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await rename(temporary, file);
    } catch (error) {
      await rm(temporary, { force: true });
      throw error;
    }
    return {};
  }

  async get(ref: BlobRef): Promise<BlobContent | null> {
    const file = this.file(ref.path);
    try {
      const info = await stat(file);
      if (!info.isFile()) return null;
      return { stream: createReadStream(file, { highWaterMark: CHUNK }), size: info.size };
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(ref: BlobRef): Promise<void> {
    try {
      await unlink(this.file(ref.path));
    } catch (error) {
      if (!isMissing(error)) throw error;
    }
  }

  private file(path: string): string {
    const file = resolve(this.root, assertSafePath(path));
    // Belt and braces: assertSafePath already refuses `..` and absolute paths.
    if (!file.startsWith(this.root + sep)) throw new Error('Blob path escapes the storage directory');
    return file;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
