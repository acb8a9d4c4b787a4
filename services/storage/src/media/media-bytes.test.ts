import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { imagesFromFiles, imagesToFiles } from './media-bytes.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'media-bytes-'));
  dirs.push(dir);
  return dir;
}

const image = (text: string) => ({ data: Buffer.from(text), contentType: 'image/webp', width: 2, height: 1, etag: `etag-${text}` });

describe('image bytes through files', () => {
  it('carries a photo result (images as properties) across and leaves no file behind', async () => {
    const dir = scratch();
    const photo = { original: image('original'), display: image('display'), thumbnail: image('thumbnail'), sha256: 'abc', perceptualHash: '0f' };
    const shipped = await imagesToFiles(dir, '7-output', photo);
    expect(JSON.parse(JSON.stringify(shipped)).original.data).toEqual({ file: join(dir, '7-output-original') });
    expect(readdirSync(dir).sort()).toEqual(['7-output-display', '7-output-original', '7-output-thumbnail']);

    expect(await imagesFromFiles(shipped)).toEqual(photo);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('carries an image result (an avatar) and leaves other results alone', async () => {
    const dir = scratch();
    const avatar = { ...image('avatar'), sourceMimeType: 'image/png', sha256: 'def' };
    expect(await imagesFromFiles(await imagesToFiles(dir, '8-output', avatar))).toEqual(avatar);
    expect(await imagesToFiles(dir, '9-output', 3)).toBe(3);
    const boxes = [{ x: 1, y: 2, width: 3, height: 4 }];
    expect(await imagesToFiles(dir, '10-output', boxes)).toBe(boxes);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('makes its directory again when a cleaner removed it', async () => {
    const dir = join(scratch(), 'gone');
    const avatar = { ...image('avatar'), sourceMimeType: 'image/png', sha256: 'def' };
    expect(await imagesFromFiles(await imagesToFiles(dir, '11-output', avatar))).toEqual(avatar);
  });
});
