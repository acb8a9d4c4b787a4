import { FailedPreconditionError } from '@snapcracks/kit';
import type { StorageConfig, StorageType } from '../config.js';
import type { BlobBackend } from './backend.js';
import { DriveBlobBackend } from './drive-backend.js';
import { LocalBlobBackend } from './local-backend.js';
import { S3BlobBackend } from './s3-backend.js';

export { assertSafePath, UnsafePathError, type BlobBackend, type BlobContent, type BlobRef } from './backend.js';
export { LocalBlobBackend } from './local-backend.js';
export { S3BlobBackend } from './s3-backend.js';
export { DriveBlobBackend } from './drive-backend.js';

export const STORAGE_TYPES: readonly StorageType[] = ['local', 's3', 'drive'];

export function isStorageType(value: string): value is StorageType {
  return (STORAGE_TYPES as readonly string[]).includes(value);
}

const NOT_CONFIGURED: Record<StorageType, string> = {
  local: 'local disk',
  s3: 'S3-compatible storage, which is not configured on the server (set S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY)',
  drive: 'Google Drive, which is not configured on the server (set GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET and GOOGLE_REFRESH_TOKEN)',
};

/**
 * The current backend, where new blobs go, and the others on demand: a blob keeps the backend it was written
 * to, so blobs written before STORAGE_TYPE changed stay readable as long as their backend is still configured.
 */
export class Backends {
  private readonly made = new Map<StorageType, BlobBackend>();

  constructor(
    private readonly config: StorageConfig,
    private readonly factories: Partial<Record<StorageType, () => BlobBackend>> = {},
  ) {}

  get currentType(): StorageType {
    return this.config.storageType;
  }

  current(): BlobBackend {
    return this.of(this.config.storageType);
  }

  /** The backend of that type; FAILED_PRECONDITION when its configuration is absent. */
  of(type: StorageType): BlobBackend {
    let backend = this.made.get(type);
    if (!backend) {
      backend = this.make(type);
      this.made.set(type, backend);
    }
    return backend;
  }

  private make(type: StorageType): BlobBackend {
    const factory = this.factories[type];
    if (factory) return factory();
    switch (type) {
      case 'local':
        return new LocalBlobBackend(this.config.localDir);
      case 's3':
        if (!this.config.s3) throw new FailedPreconditionError(`This file is stored in ${NOT_CONFIGURED.s3}`);
        return new S3BlobBackend(this.config.s3);
      case 'drive':
        if (!this.config.drive) throw new FailedPreconditionError(`This file is stored in ${NOT_CONFIGURED.drive}`);
        return new DriveBlobBackend(this.config.drive);
    }
  }
}
