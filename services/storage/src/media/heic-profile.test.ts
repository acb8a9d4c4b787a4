import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { displayP3Profile, sourceProfile, tiffWithProfile } from './heic-profile.js';

const nclx = (colourPrimaries: number, transferCharacteristics: number) =>
  ({ kind: 'nclx', colourPrimaries, transferCharacteristics, matrixCoefficients: 6, fullRange: true }) as const;

/** sharp's ICC profile named `name` (srgb, p3), as it attaches it to an image. */
async function builtInProfile(name: string): Promise<Buffer> {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#808080' } }).withIccProfile(name).png().toBuffer();
  return (await sharp(png).metadata()).icc!;
}

/** width × height × channels bytes of a seeded pattern. */
function pattern(width: number, height: number, channels: number): Buffer {
  const data = Buffer.alloc(width * height * channels);
  let seed = 7;
  for (let i = 0; i < data.length; i++) data[i] = (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) >> 23;
  return data;
}

describe('sourceProfile', () => {
  it('takes an ICC profile as it is', async () => {
    const icc = Buffer.from('any ICC profile');
    expect(await sourceProfile({ kind: 'icc', icc })).toBe(icc);
  });

  it('needs nothing for sRGB: no profile, BT.709 primaries or unspecified ones', async () => {
    expect(await sourceProfile(undefined)).toBeUndefined();
    expect(await sourceProfile(nclx(1, 13))).toBeUndefined();
    expect(await sourceProfile(nclx(1, 1))).toBeUndefined();
    expect(await sourceProfile(nclx(2, 2))).toBeUndefined();
  });

  it('gives Display P3 for the P3 primaries with a standard-range transfer', async () => {
    const p3 = await builtInProfile('p3');
    for (const transfer of [13, 1, 6, 14, 15, 2]) expect(await sourceProfile(nclx(12, transfer)), `transfer ${transfer}`).toEqual(p3);
  });

  it('leaves BT.2020, HDR transfers and unknown primaries as they are', async () => {
    expect(await sourceProfile(nclx(9, 14))).toBeUndefined();
    expect(await sourceProfile(nclx(9, 16))).toBeUndefined();
    expect(await sourceProfile(nclx(12, 16))).toBeUndefined();
    expect(await sourceProfile(nclx(12, 18))).toBeUndefined();
    expect(await sourceProfile(nclx(11, 17))).toBeUndefined();
    expect(await sourceProfile(nclx(99, 13))).toBeUndefined();
  });
});

describe('tiffWithProfile', () => {
  it.each([
    [1, 1, 3],
    [7, 5, 4],
    // 3003-byte rows: 87 rows to a strip, nine strips, the last one shorter.
    [1001, 700, 3],
  ] as const)('makes a %i×%i TIFF with %i channels that sharp reads with its profile and its numbers', async (width, height, channels) => {
    const icc = await displayP3Profile();
    const { tiff, pixels } = tiffWithProfile(width, height, channels, icc);
    expect(pixels.length).toBe(width * height * channels);
    expect(pixels.buffer).toBe(tiff.buffer);
    const numbers = pattern(width, height, channels);
    numbers.copy(pixels);
    const metadata = await sharp(tiff).metadata();
    expect({ format: metadata.format, width: metadata.width, height: metadata.height, channels: metadata.channels, icc: metadata.icc }).toEqual({
      format: 'tiff',
      width,
      height,
      channels,
      icc,
    });
    const read = await sharp(tiff, { ignoreIcc: true }).raw().toBuffer();
    expect(read.equals(numbers)).toBe(true);
  });

  it('converts as sharp converts any image with that profile: back to the sRGB it was made from', async () => {
    // sRGB colours turned into Display P3 numbers by sharp (a PNG that carries the P3 profile), read as numbers.
    const srgb = pattern(64, 48, 3);
    const p3Png = await sharp(srgb, { raw: { width: 64, height: 48, channels: 3 } }).withIccProfile('p3').png().toBuffer();
    const p3Numbers = await sharp(p3Png, { ignoreIcc: true }).raw().toBuffer();
    expect(p3Numbers.equals(srgb)).toBe(false);
    const { tiff, pixels } = tiffWithProfile(64, 48, 3, await displayP3Profile());
    p3Numbers.copy(pixels);
    const converted = await sharp(tiff).toColourspace('srgb').raw().toBuffer();
    expect(converted.equals(await sharp(p3Png).toColourspace('srgb').raw().toBuffer())).toBe(true);
    // Back to the colours it was made from, but for the rounding to 8-bit P3 numbers on the way.
    let sum = 0;
    for (let i = 0; i < srgb.length; i++) sum += Math.abs(converted[i]! - srgb[i]!);
    expect(sum / srgb.length).toBeLessThan(1);
  });

  it('leaves the numbers as they are under a profile that is not one, as sharp does for any image', async () => {
    const numbers = pattern(16, 16, 3);
    const { tiff, pixels } = tiffWithProfile(16, 16, 3, Buffer.from('not an ICC profile at all, but a few bytes of text'));
    numbers.copy(pixels);
    expect((await sharp(tiff).toColourspace('srgb').raw().toBuffer()).equals(numbers)).toBe(true);
  });

  it('keeps sRGB numbers as they are under an sRGB profile', async () => {
    const numbers = pattern(32, 32, 3);
    const { tiff, pixels } = tiffWithProfile(32, 32, 3, await builtInProfile('srgb'));
    numbers.copy(pixels);
    const converted = await sharp(tiff).toColourspace('srgb').raw().toBuffer();
    let largest = 0;
    for (let i = 0; i < numbers.length; i++) largest = Math.max(largest, Math.abs(converted[i]! - numbers[i]!));
    expect(largest).toBeLessThanOrEqual(1);
  });
});
