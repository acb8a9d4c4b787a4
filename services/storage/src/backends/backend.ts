import type { Readable } from 'node:stream';
import type { StorageType } from '../config.js';

/** Where a stored blob's bytes are: its path, and for Drive the file id Drive gave it. */
export interface BlobRef {
  path: string;
  driveFileId?: string | null | undefined;
}

export interface BlobContent {
  /** The bytes, streamed from the backend; destroy it when you stop reading early. */
  stream: Readable;
  /** Byte count as the backend reports it (Drive may not). */
  size: number | undefined;
}

/**
 * One place bytes can live. Paths are relative, `/`-separated, and chosen by the service (never by a user).
 * Every method may throw on an unreachable backend; `get` answers null and `delete` succeeds for missing bytes.
 */
export interface BlobBackend {
  readonly type: StorageType;
  put(path: string, data: Buffer, contentType: string): Promise<{ driveFileId?: string }>;
  /**
   * The same for bytes that arrive as a stream of unknown length (a member's export, up to 2 GB): never held whole. A
   * failure of the stream fails the write, and nothing is left under the path.
   */
  putStream(path: string, data: Readable, contentType: string): Promise<{ driveFileId?: string }>;
  get(ref: BlobRef): Promise<BlobContent | null>;
  delete(ref: BlobRef): Promise<void>;
}

const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/** Refuses anything but plain relative paths (`photos/2026/11/x.webp`): no `..`, no absolute paths, no odd characters. */
export function assertSafePath(path: string): string {
  const segments = path.split('/');
  if (path.length > 512 || segments.some((segment) => !SEGMENT.test(segment) || segment.includes('..'))) {
    throw new UnsafePathError(path);
  }
  return path;
}

export class UnsafePathError extends Error {
  constructor(path: string) {
    super(`Unsafe blob path: ${JSON.stringify(path.slice(0, 100))}`);
    this.name = 'UnsafePathError';
  }
}
