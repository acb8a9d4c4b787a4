import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FAKE_CLIENT, FAKE_REFRESH_TOKEN, startFakeGoogle, type FakeGoogle } from '../../test/support/fake-google.js';
import { DriveBlobBackend } from './drive-backend.js';

let google: FakeGoogle;
let backend: DriveBlobBackend;
beforeAll(async () => {
  google = await startFakeGoogle();
  backend = new DriveBlobBackend({
    clientId: FAKE_CLIENT.id,
    clientSecret: FAKE_CLIENT.secret,
    refreshToken: FAKE_REFRESH_TOKEN,
    folderId: 'folder-123',
    apiRootUrl: `${google.url}/`,
    authUrl: `${google.url}/oauth/auth`,
    tokenUrl: `${google.url}/oauth/token`,
  });
});
afterAll(() => google?.close());

describe('DriveBlobBackend against a fake Drive v3', () => {
  it('uploads with a multipart request in the folder, reads the file by id and deletes it', async () => {
    const bytes = Buffer.from([0xff, 0xd8, 0xff, 0, 1, 2, 3, 13, 10, 45, 45]);
    const { driveFileId } = await backend.put('photos/2026/11/c-original.jpg', bytes, 'image/jpeg');
    expect(driveFileId).toMatch(/^file-/);
    const file = google.files.get(driveFileId!);
    expect(file).toMatchObject({ name: 'photos_2026_11_c-original.jpg', mimeType: 'image/jpeg', parents: ['folder-123'], appProperties: { snapcracksPath: 'photos/2026/11/c-original.jpg' } });
    expect(file!.data.equals(bytes)).toBe(true);
    // The refresh token bought the access token every Drive call carried.
    expect(google.requests.some((r) => r.path === '/oauth/token' && r.form?.get('grant_type') === 'refresh_token')).toBe(true);

    const content = await backend.get({ path: 'photos/2026/11/c-original.jpg', driveFileId });
    expect(content?.size).toBe(bytes.byteLength);
    expect(Buffer.from(await text(content!.stream), 'latin1').length).toBeGreaterThan(0);

    await backend.delete({ path: 'photos/2026/11/c-original.jpg', driveFileId });
    expect(google.files.has(driveFileId!)).toBe(false);
    expect(await backend.get({ path: 'photos/2026/11/c-original.jpg', driveFileId })).toBeNull();
    await expect(backend.delete({ path: 'photos/2026/11/c-original.jpg', driveFileId })).resolves.toBeUndefined();
  });

  it('reads bytes exactly', async () => {
    const bytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => i % 251));
    const { driveFileId } = await backend.put('photos/exact.bin', bytes, 'application/octet-stream');
    const content = await backend.get({ path: 'photos/exact.bin', driveFileId });
    const chunks: Buffer[] = [];
    for await (const chunk of content!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(bytes)).toBe(true);
  });

  it('uploads a stream of unknown length (an export) as it arrives', async () => {
    const parts = [Buffer.from('PK'), Buffer.alloc(200_000, 3), Buffer.from('end')];
    const { driveFileId } = await backend.putStream('exports/e.zip', Readable.from(parts), 'application/zip');
    const content = await backend.get({ path: 'exports/e.zip', driveFileId });
    const chunks: Buffer[] = [];
    for await (const chunk of content!.stream) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).equals(Buffer.concat(parts))).toBe(true);
  });

  it('finds and deletes a file whose id was never recorded, by its path', async () => {
    await backend.put('photos/2026/11/orphan.jpg', Buffer.from('orphan'), 'image/jpeg');
    expect(await text((await backend.get({ path: 'photos/2026/11/orphan.jpg' }))!.stream)).toBe('orphan');
    await backend.delete({ path: 'photos/2026/11/orphan.jpg' });
    expect([...google.files.values()].some((f) => f.name.includes('orphan'))).toBe(false);
  });
});
