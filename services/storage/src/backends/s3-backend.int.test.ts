import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../test/support/s3.js';
import { S3BlobBackend } from './s3-backend.js';

let s3: TestS3;
let backend: S3BlobBackend;
beforeAll(async () => {
  s3 = await startTestS3();
  backend = new S3BlobBackend({
    endPoint: '127.0.0.1',
    port: s3.port,
    useSSL: false,
    accessKey: s3.env.S3_ACCESS_KEY!,
    secretKey: s3.env.S3_SECRET_KEY!,
    bucket: 'fresh-bucket',
    region: 'us-east-1',
  });
});
afterAll(() => s3?.stop());

describe('S3BlobBackend against s3rver', () => {
  it('creates the missing bucket, then puts, gets and deletes a blob', async () => {
    const bytes = Buffer.from('s3 bytes '.repeat(10_000));
    expect(await backend.put('photos/2026/11/b-original.jpg', bytes, 'image/jpeg')).toEqual({});
    const content = await backend.get({ path: 'photos/2026/11/b-original.jpg' });
    expect(content?.size).toBe(bytes.byteLength);
    expect(await text(content!.stream)).toBe(bytes.toString());
    await backend.delete({ path: 'photos/2026/11/b-original.jpg' });
    expect(await backend.get({ path: 'photos/2026/11/b-original.jpg' })).toBeNull();
  });

  it('puts a stream of unknown length (an export) as it arrives', async () => {
    const parts = ['PK', 'export '.repeat(50_000), 'end'];
    expect(await backend.putStream('exports/e.zip', Readable.from(parts.map((part) => Buffer.from(part))), 'application/zip')).toEqual({});
    const content = await backend.get({ path: 'exports/e.zip' });
    expect(await text(content!.stream)).toBe(parts.join(''));
    await backend.delete({ path: 'exports/e.zip' });
  });

  it('answers null for a missing object and deletes a missing object without complaint', async () => {
    expect(await backend.get({ path: 'photos/none.jpg' })).toBeNull();
    await expect(backend.delete({ path: 'photos/none.jpg' })).resolves.toBeUndefined();
  });

  it('stores a blob of more than 10 MB in one PUT (s3rver has no multipart upload)', async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 7);
    await backend.put('photos/big.bin', big, 'application/octet-stream');
    expect((await backend.get({ path: 'photos/big.bin' }))?.size).toBe(big.byteLength);
    await backend.delete({ path: 'photos/big.bin' });
  });
});
