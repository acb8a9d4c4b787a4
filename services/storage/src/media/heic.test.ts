import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UnsupportedImageError } from './errors.js';
import { decodeHeic, type RawImage } from './heic.js';
import { HeifPrimaryImage } from './heic-libheif.js';
import { fixture } from './test-images.js';

const real = (name: string) => readFileSync(new URL(`../../test/fixtures/real/${name}`, import.meta.url));

/** The mean absolute difference per channel between two pictures of the same size (0–255). */
function meanDifference(a: RawImage, b: RawImage): number {
  expect([a.width, a.height, a.channels]).toEqual([b.width, b.height, b.channels]);
  let sum = 0;
  for (let i = 0; i < a.data.length; i++) sum += Math.abs(a.data[i]! - b.data[i]!);
  return sum / a.data.length;
}

/** libheif's own numbers, without any profile applied. */
async function numbersOf(input: Buffer): Promise<RawImage> {
  const heif = await HeifPrimaryImage.open(input);
  try {
    const { width, height } = heif;
    const data = Buffer.alloc(width * height * 3);
    heif.decode(3, data);
    return { data, width, height, channels: 3 };
  } finally {
    heif.close();
  }
}

async function refusal(input: Buffer, maxPixels = 100_000_000): Promise<unknown> {
  return decodeHeic(input, maxPixels).then(
    () => undefined,
    (error: unknown) => error,
  );
}

describe('decodeHeic', () => {
  it('decodes a HEIC without a colour profile to its own numbers, as RGB', async () => {
    const decoded = await decodeHeic(fixture('photo.heic'), 100_000_000);
    expect([decoded.width, decoded.height, decoded.channels, decoded.data.length]).toEqual([320, 240, 3, 320 * 240 * 3]);
    expect(meanDifference(decoded, await numbersOf(fixture('photo.heic')))).toBe(0);
  });

  it('converts Display P3 to sRGB, from an ICC profile or an nclx colour box alike, to the colours of the sRGB source', async () => {
    const { data, info } = await sharp(real('canon-powershot-s40-makernotes.jpg')).raw().toBuffer({ resolveWithObject: true });
    const source: RawImage = { data, width: info.width, height: info.height, channels: 3 };
    const icc = await decodeHeic(real('canon-powershot-s40-display-p3.derived.heic'), 100_000_000);
    const nclx = await decodeHeic(real('canon-powershot-s40-display-p3-nclx.derived.heic'), 100_000_000);
    // Both coded from the same P3 numbers (heif-enc -q 90, the ICC one with the camera's EXIF besides).
    expect(meanDifference(icc, nclx)).toBeLessThan(0.5);
    // HEVC at q90 costs about a level on average; read as sRGB, the P3 numbers are four times further off.
    expect(meanDifference(icc, source)).toBeLessThan(1.6);
    expect(meanDifference(nclx, source)).toBeLessThan(1.6);
    const asSrgb = await numbersOf(real('canon-powershot-s40-display-p3.derived.heic'));
    expect(meanDifference(asSrgb, source)).toBeGreaterThan(3.5);
  });

  it('refuses a grid HEIC whose last tile is cut short, before decoding it', async () => {
    const whole = real('nokia-n70-grid-irot.derived.heic');
    const error = await refusal(whole.subarray(0, whole.length - 1));
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect(((error as Error).cause as Error).message).toBe(`HEIF file cut short: item 5's data ends at byte ${whole.length}, past the file's end (${whole.length - 1})`);
  });

  it('refuses a whole grid HEIC that libheif decodes with a tile left blank', async () => {
    // The last tile's data (its last 6778 bytes) starts with the length of its first NAL unit: 0 leaves the tile without
    // its coded picture, inside a file whose every item lies where iloc says.
    const broken = Buffer.from(real('nokia-n70-grid-irot.derived.heic'));
    broken.writeUInt32BE(0, broken.length - 6778);
    const error = await refusal(broken);
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect(((error as Error).cause as Error).message).toBe('decoded with part of the picture missing (end of data)');
  });

  it('refuses a picture larger than the pixel limit before decoding it, and what libheif cannot read', async () => {
    const tooLarge = await refusal(fixture('photo.heic'), 320 * 240 - 1);
    expect(tooLarge).toBeInstanceOf(UnsupportedImageError);
    expect(((tooLarge as Error).cause as Error).message).toBe('HEIF image of 320x240 exceeds the pixel limit');
    expect(await refusal(fixture('photo.png'))).toBeInstanceOf(UnsupportedImageError);
  });

  it('frees what it took from WebAssembly memory: the same file over and over needs no more of it', async () => {
    const input = real('libheif-example.heic');
    await decodeHeic(input, 100_000_000);
    const { HEAPU8 } = await import('libheif-js/wasm-bundle').then((module) => module.default);
    const before = HEAPU8.length;
    for (let i = 0; i < 10; i++) await decodeHeic(input, 100_000_000);
    await refusal(input.subarray(0, input.length - 1));
    const { HEAPU8: after } = await import('libheif-js/wasm-bundle').then((module) => module.default);
    expect(after.length).toBe(before);
  });
});
