import sharp from 'sharp';
import { ImageTooLargeError, UnsupportedImageError } from './errors.js';
import { missingItemData } from './heic-extents.js';
import { HeifPrimaryImage, type HeifColourProfile } from './heic-libheif.js';
import { sourceProfile, tiffWithProfile } from './heic-profile.js';

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Decodes the primary image of a HEIC/HEIF file to upright sRGB pixels. sharp's prebuilt libvips has no HEVC
 * decoder, so this runs libheif compiled to WebAssembly (heic-libheif.ts): synchronous and memory-hungry (a 12 MP
 * photo peaks at hundreds of MB, and a WebAssembly heap never shrinks), which is why only the dedicated HEIC worker
 * thread ever calls it. libheif applies the file's rotation, mirroring and crop while decoding.
 *
 * A file whose end is missing is refused before it is decoded (heic-extents.ts), as is one that libheif decodes with
 * part of the picture missing: libheif paints a grid's missing tiles one flat colour instead of failing.
 *
 * Colour: pixels in the file's own profile (Display P3 on iPhones, from an ICC profile or an nclx description) are
 * converted to sRGB by sharp from that profile (heic-profile.ts), as it converts a JPEG that carries one.
 */
export async function decodeHeic(input: Uint8Array, maxPixels: number): Promise<RawImage> {
  const missing = missingItemData(input);
  if (missing) throw new UnsupportedImageError({ cause: new Error(`HEIF file cut short: ${missing}`) });
  let heif: HeifPrimaryImage;
  try {
    heif = await HeifPrimaryImage.open(input);
  } catch (cause) {
    throw new UnsupportedImageError({ cause });
  }
  let decoded: RawImage;
  let tiff: Buffer | undefined;
  try {
    const { width, height } = heif;
    // The header gives the size before any pixel is decoded: refuse bombs before allocating for them.
    if (width * height > maxPixels) {
      throw new ImageTooLargeError(maxPixels, { cause: new Error(`HEIF image of ${width}x${height} exceeds the pixel limit`) });
    }
    const channels = heif.hasAlpha ? 4 : 3;
    let described: HeifColourProfile | undefined;
    try {
      described = heif.colourProfile();
    } catch (cause) {
      throw new UnsupportedImageError({ cause });
    }
    const profile = await sourceProfile(described);
    // With a profile, the pixels are decoded straight into a TIFF that carries it; without, into a plain buffer.
    const target = profile ? tiffWithProfile(width, height, channels, profile) : undefined;
    const data = target?.pixels ?? Buffer.allocUnsafe(width * height * channels);
    try {
      heif.decode(channels, data);
    } catch (cause) {
      throw new UnsupportedImageError({ cause });
    }
    decoded = { data, width, height, channels };
    tiff = target?.tiff;
  } finally {
    heif.close();
  }
  const srgb = tiff ? await convertToSrgb(tiff) : decoded;
  return srgb.channels === 4 ? dropOpaqueAlpha(srgb) : srgb;
}

/**
 * Our own TIFF of decoded pixels with their ICC profile, converted to sRGB as readUpright converts an upload (a profile
 * lcms cannot read leaves the numbers as they are, as it does for a JPEG).
 */
async function convertToSrgb(tiff: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(tiff, { limitInputPixels: false })
    .toColourspace('srgb')
    .raw({ depth: 'uchar' })
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3 && info.channels !== 4) throw new Error(`unexpected ${info.channels} channels`);
  return { data, width: info.width, height: info.height, channels: info.channels };
}

/**
 * An image with alpha (rare in a photo) whose alpha is all 255 is packed to RGB in place: an opaque alpha channel
 * would only slow every later step (and make the WebP encoder store it). The write position never overtakes the read
 * position, and no second full-size buffer is allocated.
 */
function dropOpaqueAlpha(image: RawImage): RawImage {
  const { data } = image;
  for (let i = 3; i < data.length; i += 4) if (data[i] !== 255) return image;
  const pixels = image.width * image.height;
  for (let p = 0, r = 0, w = 0; p < pixels; p++, r += 4, w += 3) {
    data[w] = data[r]!;
    data[w + 1] = data[r + 1]!;
    data[w + 2] = data[r + 2]!;
  }
  return { ...image, data: data.subarray(0, pixels * 3), channels: 3 };
}
