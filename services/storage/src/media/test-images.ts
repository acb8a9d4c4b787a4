// Helpers for the media tests: fixtures, images generated on the fly, and pixel probes.
import { readFileSync } from 'node:fs';
import { crc32, deflateSync } from 'node:zlib';
import sharp from 'sharp';
import { ImageProcessor, type ImageProcessorOptions } from './image-processor.js';

export function fixture(name: string): Buffer {
  return readFileSync(new URL(`../../test/fixtures/${name}`, import.meta.url));
}

/** Strings that the fixtures' EXIF, XMP and IPTC contain; none may survive in any output. */
const METADATA_MARKERS = ['Exif\0\0', 'GPS', 'Snap Cracks Test Camera', 'Fixture', 'http://ns.adobe.com/xap', 'Photoshop 3.0', 'Berlin', 'ICC_PROFILE'];

/**
 * The markers found in an image's metadata, and what sharp reports of it. The markers are looked for outside the
 * compressed picture: a noisy picture's bytes hold a short string such as "GPS" by chance (a 960 px WebP of noise did).
 */
export async function metadataLeftIn(image: Buffer): Promise<string[]> {
  const outside = outsideThePicture(image);
  const found = METADATA_MARKERS.filter((marker) => outside.includes(marker));
  const meta = await sharp(image).metadata();
  for (const key of ['exif', 'xmp', 'iptc', 'icc'] as const) if (meta[key]) found.push(key);
  if (meta.orientation !== undefined && meta.orientation !== 1) found.push(`orientation ${meta.orientation}`);
  return found;
}

/**
 * An image's bytes without its compressed picture data: a JPEG's segments before the scan, a WebP's chunks but the
 * picture's (VP8, VP8L, ALPH), a PNG's chunks but IDAT. Other formats whole.
 */
function outsideThePicture(image: Buffer): Buffer {
  const parts: Buffer[] = [];
  if (image[0] === 0xff && image[1] === 0xd8) {
    for (let at = 2; at + 4 <= image.length && image[at] === 0xff; ) {
      const marker = image[at + 1]!;
      if (marker === 0xda) break; // Start of scan: the picture follows.
      const end = at + 2 + image.readUInt16BE(at + 2);
      parts.push(image.subarray(at, end));
      at = end;
    }
    return Buffer.concat(parts);
  }
  if (image.toString('latin1', 0, 4) === 'RIFF' && image.toString('latin1', 8, 12) === 'WEBP') {
    for (let at = 12; at + 8 <= image.length; ) {
      const type = image.toString('latin1', at, at + 4);
      const end = at + 8 + image.readUInt32LE(at + 4) + (image.readUInt32LE(at + 4) % 2);
      parts.push(['VP8 ', 'VP8L', 'ALPH'].includes(type) ? image.subarray(at, at + 8) : image.subarray(at, end));
      at = end;
    }
    return Buffer.concat(parts);
  }
  if (image.readUInt32BE(0) === 0x89504e47) {
    for (let at = 8; at + 12 <= image.length; ) {
      const end = at + 12 + image.readUInt32BE(at);
      parts.push(image.toString('latin1', at + 4, at + 8) === 'IDAT' ? image.subarray(at, at + 8) : image.subarray(at, end));
      at = end;
    }
    return Buffer.concat(parts);
  }
  return image;
}

export async function pixel(image: Buffer, xPercent: number, yPercent: number): Promise<[number, number, number]> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const x = Math.min(info.width - 1, Math.floor((xPercent / 100) * info.width));
  const y = Math.min(info.height - 1, Math.floor((yPercent / 100) * info.height));
  const at = (y * info.width + x) * info.channels;
  return [data[at]!, data[at + 1]!, data[at + 2]!];
}

export function isBlack([r, g, b]: [number, number, number]): boolean {
  return r < 16 && g < 16 && b < 16;
}

/** A detailed picture (noise over a gradient), the kind that costs an encoder real work. */
export async function generatedPhoto(width: number, height: number, format: 'jpeg' | 'png' = 'jpeg', quality = 90): Promise<Buffer> {
  const noise = await sharp({ create: { width, height, channels: 3, background: '#000', noise: { type: 'gaussian', mean: 128, sigma: 40 } } })
    .blur(1.2)
    .raw()
    .toBuffer({ resolveWithObject: true });
  const image = sharp(noise.data, { raw: noise.info }).linear([0.8, 0.9, 1], [20, 10, 0]);
  return format === 'jpeg' ? image.jpeg({ quality }).toBuffer() : image.png().toBuffer();
}

/**
 * A valid PNG of width×height 1-bit pixels: a few tens of kB on disk that would need 3 bytes per pixel
 * (1.2 GB for 20000×20000) once decoded.
 */
export function decompressionBomb(width: number, height: number): Buffer {
  const row = 1 + Math.ceil(width / 8);
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([1, 0, 0, 0, 0], 8); // bit depth 1, greyscale, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', deflateSync(Buffer.alloc(row * height), { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * An ImageProcessor for the tests of what image work produces. Its media process runs at niceness 0: at the
 * product's 19 it gets almost no CPU while another test file keeps both cores busy, and in a CI run tests that take
 * 4 s alone passed 30 s. What the priority does is tested in background-priority.test.ts.
 */
export function testProcessor(options: ImageProcessorOptions = {}): ImageProcessor {
  return new ImageProcessor({ niceness: 0, ...options });
}
