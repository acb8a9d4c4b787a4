import { Client } from 'minio';
import type { S3Settings } from '../config.js';
import { assertSafePath, type BlobBackend, type BlobContent, type BlobRef } from './backend.js';

/**
 * Blobs as objects in one bucket of an S3-compatible store (MinIO, S3, s3rver in tests). The bucket is created
 * on first use when missing. The part size is above the 10 MB upload limit, so every blob is one PUT: s3rver
 * has no multipart upload, and nothing we store is larger.
 */
export class S3BlobBackend implements BlobBackend {
  readonly type = 's3' as const;
  private readonly client: Client;
  private readonly bucket: string;
  private readonly region: string;
  private bucketReady: Promise<void> | undefined;

  constructor(settings: S3Settings) {
    this.bucket = settings.bucket;
    this.region = settings.region;
    this.client = new Client({
      endPoint: settings.endPoint,
      ...(settings.port !== undefined ? { port: settings.port } : {}),
      useSSL: settings.useSSL,
      accessKey: settings.accessKey,
      secretKey: settings.secretKey,
      region: settings.region,
      pathStyle: true,
      partSize: 64 * 1024 * 1024,
    });
  }

  async put(path: string, data: Buffer, contentType: string): Promise<{ driveFileId?: string }> {
    await this.ensureBucket();
    await this.client.putObject(this.bucket, assertSafePath(path), data, data.byteLength, { 'Content-Type': contentType });
    return {};
  }

  async get(ref: BlobRef): Promise<BlobContent | null> {
    const name = assertSafePath(ref.path);
    try {
      const info = await this.client.statObject(this.bucket, name);
      const stream = await this.client.getObject(this.bucket, name);
      return { stream, size: info.size };
    } catch (error) {
      if (isNotFound(error)) return null;
      throw error;
    }
  }

  async delete(ref: BlobRef): Promise<void> {
    try {
      await this.client.removeObject(this.bucket, assertSafePath(ref.path));
    } catch (error) {
      if (!isNotFound(error)) throw error;
    }
  }

  private ensureBucket(): Promise<void> {
    this.bucketReady ??= (async () => {
      if (!(await this.client.bucketExists(this.bucket))) {
        try {
          await this.client.makeBucket(this.bucket, this.region);
        } catch (error) {
          // Another replica may have made it in the meantime.
          const code = (error as { code?: string }).code;
          if (code !== 'BucketAlreadyOwnedByYou' && code !== 'BucketAlreadyExists') throw error;
        }
      }
    })().catch((error: unknown) => {
      this.bucketReady = undefined;
      throw error;
    });
    return this.bucketReady;
  }
}

function isNotFound(error: unknown): boolean {
  const code = (error as { code?: string } | null)?.code;
  return code === 'NoSuchKey' || code === 'NotFound' || code === 'NoSuchBucket';
}
