import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LocalBlobBackend } from './local-backend.js';
import { UnsafePathError } from './backend.js';

let dir: string;
let backend: LocalBlobBackend;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'storage-local-'));
  backend = new LocalBlobBackend(join(dir, 'uploads'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('LocalBlobBackend', () => {
  it('puts, gets and deletes a blob under its directory', async () => {
    expect(await backend.put('photos/2026/11/a-display.webp', Buffer.from('hello bytes'), 'image/webp')).toEqual({});
    expect(await readFile(join(dir, 'uploads/photos/2026/11/a-display.webp'), 'utf8')).toBe('hello bytes');
    const content = await backend.get({ path: 'photos/2026/11/a-display.webp' });
    expect(content?.size).toBe(11);
    expect(await text(content!.stream)).toBe('hello bytes');
    await backend.delete({ path: 'photos/2026/11/a-display.webp' });
    expect(await backend.get({ path: 'photos/2026/11/a-display.webp' })).toBeNull();
  });

  it('replaces atomically and leaves no temporary files', async () => {
    await backend.put('avatars/x.webp', Buffer.from('one'), 'image/webp');
    await backend.put('avatars/x.webp', Buffer.from('two'), 'image/webp');
    expect(await readdir(join(dir, 'uploads/avatars'))).toEqual(['x.webp']);
    expect(await text((await backend.get({ path: 'avatars/x.webp' }))!.stream)).toBe('two');
  });

  it('answers null for missing bytes and deletes missing bytes without complaint', async () => {
    expect(await backend.get({ path: 'photos/none.jpg' })).toBeNull();
    await expect(backend.delete({ path: 'photos/none.jpg' })).resolves.toBeUndefined();
  });

  it('refuses paths that could leave the directory', async () => {
    for (const path of ['../escape.jpg', 'photos/../../escape.jpg', '/etc/passwd', 'photos//x.jpg', 'photos/.hidden', 'a\\b.jpg', '']) {
      await expect(backend.put(path, Buffer.from('x'), 'image/jpeg')).rejects.toThrow(UnsafePathError);
      await expect(backend.get({ path })).rejects.toThrow(UnsafePathError);
      await expect(backend.delete({ path })).rejects.toThrow(UnsafePathError);
    }
    expect(await readdir(dir)).toEqual([]);
  });
});
