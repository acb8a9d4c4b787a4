// heic-decode ships no types; a triple-slash reference carries ours into every program that compiles this file.
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./heic-decode.d.ts" />
import { UnsupportedImageError } from './errors.js';

export interface RawImage {
  data: Buffer;
  width: number;
  height: number;
  channels: 3 | 4;
}

/**
 * Decodes the primary image of a HEIC/HEIF file to upright RGB(A) pixels. sharp's prebuilt libvips has
 * no HEVC decoder, so this runs libheif compiled to WebAssembly: synchronous and memory-hungry (a 12 MP
 * photo peaks at hundreds of MB, and a WebAssembly heap never shrinks), which is why only the dedicated
 * HEIC worker thread ever calls it. libheif applies the file's rotation and mirroring while decoding.
 * Colour is taken as sRGB: the embedded profile (Display P3 on iPhones) is not available through
 * heic-decode.
 */
export async function decodeHeic(input: Uint8Array, maxPixels: number): Promise<RawImage> {
  // Loaded on first use so that workers that never see a HEIC never compile the 1.4 MB WebAssembly module.
  const { default: decode } = await import('heic-decode');
  let images: Awaited<ReturnType<typeof decode.all>>;
  try {
    images = await decode.all({ buffer: input });
  } catch (cause) {
    throw new UnsupportedImageError({ cause });
  }
  try {
    const primary = images[0];
    if (!primary) throw new UnsupportedImageError({ cause: new Error('HEIF file without images') });
    // The header gives the size before any pixel is decoded: refuse bombs before allocating for them.
    if (primary.width * primary.height > maxPixels) {
      throw new UnsupportedImageError({ cause: new Error(`HEIF image of ${primary.width}x${primary.height} exceeds the pixel limit`) });
    }
    let decoded;
    try {
      decoded = await primary.decode();
    } catch (cause) {
      throw new UnsupportedImageError({ cause });
    }
    const rgba = Buffer.from(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength);
    return dropOpaqueAlpha({ data: rgba, width: decoded.width, height: decoded.height, channels: 4 });
  } finally {
    images.dispose();
  }
}

/**
 * libheif always hands out RGBA. Photos are opaque, and an alpha channel that is all 255 would only
 * slow every later step (and make the WebP encoder store it), so it is packed to RGB in place: the
 * write position never overtakes the read position, and no second 12 MP buffer is allocated.
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
