import { status } from '@grpc/grpc-js';
import { StorageType } from '@snapcracks/proto/common/v1';
import type { BlobInfo } from '@snapcracks/proto/storage/v1';
import type { AuthCalls, StorageCalls } from '../cleanup.service.js';
import { serviceError } from './fake-photo-service.js';

interface FakeBlob {
  key: string;
  createdAt: Date;
}

const TYPES: Record<string, StorageType> = { local: StorageType.STORAGE_TYPE_LOCAL, s3: StorageType.STORAGE_TYPE_S3, drive: StorageType.STORAGE_TYPE_DRIVE };

/**
 * The storage service's blobs table as a cleanup sees it: oldest-first pages (creation time, then key) behind an
 * opaque token, and deletions that keep blobs created at or after `createdBefore`, as the real service does.
 * A backend named in `unavailable` refuses deletions like an unconfigured one (FAILED_PRECONDITION).
 */
export class FakeStorageService implements StorageCalls {
  readonly #blobs = new Map<string, FakeBlob>();
  readonly unavailable = new Set<string>();
  readonly deleteCalls: { keys: string[]; createdBefore: Date | undefined }[] = [];
  /** Runs after a page is listed and before the cleanup acts on it (to stage an upload in flight). */
  onList: (() => void) | undefined;

  put(key: string, createdAt: Date): void {
    this.#blobs.set(key, { key, createdAt });
  }

  keys(): string[] {
    return [...this.#blobs.keys()].sort();
  }

  listBlobs: StorageCalls['listBlobs'] = async (request) => {
    const size = request.pageSize || 100;
    const after = request.pageToken ? (JSON.parse(request.pageToken) as [number, string]) : undefined;
    const rows = [...this.#blobs.values()]
      .filter((b) => !request.createdBefore || b.createdAt < request.createdBefore)
      .sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
      .filter((b) => !after || b.createdAt.getTime() > after[0] || (b.createdAt.getTime() === after[0] && b.key > after[1]));
    const page = rows.slice(0, size);
    const last = page.at(-1);
    this.onList?.();
    return { blobs: page.map(toInfo), nextPageToken: rows.length > size && last ? JSON.stringify([last.createdAt.getTime(), last.key]) : '' };
  };

  deleteBlobs: StorageCalls['deleteBlobs'] = async (request) => {
    this.deleteCalls.push({ keys: [...request.keys], createdBefore: request.createdBefore });
    const rows = request.keys.map((key) => this.#blobs.get(key)).filter((b): b is FakeBlob => !!b && (!request.createdBefore || b.createdAt < request.createdBefore));
    for (const blob of rows) {
      const backend = blob.key.slice(0, blob.key.indexOf(':'));
      if (this.unavailable.has(backend)) throw serviceError(status.FAILED_PRECONDITION, `This file is stored in ${backend}, which is not configured on the server`);
    }
    for (const blob of rows) this.#blobs.delete(blob.key);
    return { deleted: rows.length };
  };
}

/** Which avatar names accounts use. */
export class FakeAuthService implements AuthCalls {
  readonly avatarsInUse = new Set<string>();
  readonly asked: string[][] = [];

  findReferencedAvatars: AuthCalls['findReferencedAvatars'] = async (request) => {
    this.asked.push([...request.names]);
    return { names: request.names.filter((name) => this.avatarsInUse.has(name)) };
  };
}

function toInfo(blob: FakeBlob): BlobInfo {
  const backend = blob.key.slice(0, blob.key.indexOf(':'));
  return { key: blob.key, size: 1, contentType: 'image/webp', etag: 'e', storageType: TYPES[backend] ?? StorageType.STORAGE_TYPE_UNSPECIFIED, createdAt: blob.createdAt };
}
