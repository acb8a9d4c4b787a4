import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { heicDeclaredSize } from './heic-dimensions.js';
import { HeifPrimaryImage } from './heic-libheif.js';
import { fixture } from './test-images.js';

const real = (name: string) => readFileSync(new URL(`../../test/fixtures/real/${name}`, import.meta.url));

/** The primary image's size as libheif reads it (after opening the file in WebAssembly). */
async function libheifSize(input: Buffer): Promise<{ width: number; height: number }> {
  const heif = await HeifPrimaryImage.open(input);
  try {
    return { width: heif.width, height: heif.height };
  } finally {
    heif.close();
  }
}

/** `file` with the first ispe property's width and height replaced: a small file that claims a huge image. */
function withDeclaredSize(file: Buffer, width: number, height: number): Buffer {
  const copy = Buffer.from(file);
  const at = copy.indexOf('ispe', 0, 'latin1');
  copy.writeUInt32BE(width, at + 8);
  copy.writeUInt32BE(height, at + 12);
  return copy;
}

describe('heicDeclaredSize', () => {
  it.each([
    ['photo.heic', () => fixture('photo.heic')],
    ['a grid of tiles, rotated', () => real('nokia-n70-grid-irot.derived.heic')],
    ['libheif’s example', () => real('libheif-example.heic')],
  ])('reads from the header alone a size at least the primary image’s: %s', async (_name, file) => {
    const declared = heicDeclaredSize(file())!;
    const primary = await libheifSize(file());
    expect(declared.width * declared.height).toBeGreaterThanOrEqual(primary.width * primary.height);
  });

  it('finds the size a bomb claims, however small the file', () => {
    const bomb = withDeclaredSize(fixture('photo.heic'), 20_000, 20_000);
    expect(bomb.length).toBeLessThan(20_000);
    expect(heicDeclaredSize(bomb)).toEqual({ width: 20_000, height: 20_000 });
  });

  it('answers undefined for what is not a HEIF structure, and never reads past the end', () => {
    expect(heicDeclaredSize(new Uint8Array(0))).toBeUndefined();
    expect(heicDeclaredSize(fixture('photo.png'))).toBeUndefined();
    const heic = fixture('photo.heic');
    for (const length of [10, 40, 100, 200, 400]) expect(() => heicDeclaredSize(heic.subarray(0, length))).not.toThrow();
  });
});
