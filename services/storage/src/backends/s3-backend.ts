import { Readable } from 'node:stream';
import { Client } from 'minio';
import type { S3Settings } from '../config.js';
import { assertSafePath, type BlobBackend, type BlobContent, type BlobRef } from './backend.js';

/** The multipart upload's part size: above the 10 MB upload limit, so every photo's blob is one PUT. */
const PART_BYTES = 64 * 1024 * 1024;

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
      partSize: PART_BYTES,
    });
  }

  async put(path: string, data: Buffer, contentType: string): Promise<{ driveFileId?: string }> {
    await this.ensureBucket();
    await this.client.putObject(this.bucket, assertSafePath(path), data, data.byteLength, { 'Content-Type': contentType });
    return {};
  }

  /**
   * Of unknown length: up to one part (64 MB) is read first, as the client's multipart upload holds one part in memory
   * anyway; a stream that ends within it goes in one PUT, a longer one as a multipart upload (S3 and MinIO have it;
   * s3rver, in tests, does not).
   */
  async putStream(path: string, data: Readable, contentType: string): Promise<{ driveFileId?: string }> {
    await this.ensureBucket();
    const name = assertSafePath(path);
    const meta = { 'Content-Type': contentType };
    const iterator = (data as AsyncIterable<Buffer | Uint8Array>)[Symbol.asyncIterator]();
    const head: Buffer[] = [];
    let size = 0;
    while (size < PART_BYTES) {
      const next = await iterator.next();
      if (next.done) {
        const whole = Buffer.concat(head);
        await this.client.putObject(this.bucket, name, whole, whole.byteLength, meta);
        return {};
      }
      const chunk = Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
      head.push(chunk);
      size += chunk.byteLength;
    }
    async function* rest(): AsyncIterable<Buffer> {
      yield* head;
      for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield Buffer.isBuffer(next.value) ? next.value : Buffer.from(next.value);
    }
    await this.client.putObject(this.bucket, name, Readable.from(rest()), undefined, meta);
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
