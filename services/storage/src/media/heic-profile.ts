import sharp from 'sharp';
import type { HeifColourProfile } from './heic-libheif.js';

// A HEIC's pixels come out of libheif in the file's own colour space: Display P3 for every iPhone photo since the 7.
// Taken as sRGB they would look washed out (P3's primaries lie outside sRGB's, so the same numbers mean more saturated
// colours). sharp takes raw pixels as sRGB and has no way to be told their profile, but it converts any image that
// carries one, as it does an uploaded JPEG: so pixels with a profile go to sharp as an uncompressed TIFF that carries it.

/** nclx colour primaries (ISO/IEC 23091-2, as in HEVC): BT.709, which sRGB shares, and "unspecified". */
const SRGB_PRIMARIES = new Set([1, 2]);
/** SMPTE EG 432-1: the P3 primaries with a D65 white, those of Display P3. */
const P3_D65_PRIMARIES = 12;
/**
 * Transfer characteristics of standard-range pictures: sRGB's (13) and the BT.709 family (1, 6, 14, 15), and
 * "unspecified" (2). The BT.709 curves differ from sRGB's by a few levels in the shadows, far less than P3's primaries
 * differ from sRGB's, so they are read with sRGB's curve, as browsers show such video.
 */
const SDR_TRANSFERS = new Set([1, 2, 6, 13, 14, 15]);

/**
 * The ICC profile the decoded pixels are in, or undefined when they are sRGB already or in a space this cannot name.
 * An ICC profile is taken as it is (sharp converts from any that lcms reads, and keeps the numbers of one it cannot).
 * nclx names a space by numbers: BT.709/sRGB needs nothing, Display P3 gets libvips' built-in Display P3 profile. Others
 * stay as they are, read as sRGB: BT.2020 (wide-gamut, rare in a still photo; libvips has no profile for it) and HDR
 * transfers (PQ 16, HLG 18), which would need tone mapping, not a profile.
 */
export async function sourceProfile(profile: HeifColourProfile | undefined): Promise<Buffer | undefined> {
  if (!profile) return undefined;
  if (profile.kind === 'icc') return profile.icc;
  if (SRGB_PRIMARIES.has(profile.colourPrimaries)) return undefined;
  if (profile.colourPrimaries === P3_D65_PRIMARIES && SDR_TRANSFERS.has(profile.transferCharacteristics)) return displayP3Profile();
  return undefined;
}

let displayP3: Promise<Buffer> | undefined;

/** libvips' built-in Display P3 profile (`p3`, as `withIccProfile('p3')` attaches it), read once per thread. */
export function displayP3Profile(): Promise<Buffer> {
  displayP3 ??= sharp({ create: { width: 1, height: 1, channels: 3, background: '#000000' } })
    .withIccProfile('p3')
    .png()
    .toBuffer()
    .then(async (png) => {
      const { icc } = await sharp(png).metadata();
      if (!icc) throw new Error('libvips attached no Display P3 profile');
      return icc;
    });
  return displayP3;
}

/** An uncompressed TIFF being filled: write the pixels into `pixels`, a view of `tiff`. */
export interface TiffWithProfile {
  tiff: Buffer;
  /** width × height × channels bytes, interleaved 8-bit RGB or RGBA, rows top to bottom. */
  pixels: Buffer;
}

// TIFF 6.0 tags and field types.
const SHORT = 3;
const LONG = 4;
const UNDEFINED = 7;
/** Rows per strip: strips of about 256 kB, which libtiff reads one at a time. */
const STRIP_BYTES = 256 * 1024;

/**
 * An uncompressed little-endian TIFF of `width` × `height` RGB(A) pixels carrying `icc`, its pixels still to be written:
 * they are decoded straight into it, so handing them to sharp with their profile costs no copy of the picture.
 */
export function tiffWithProfile(width: number, height: number, channels: 3 | 4, icc: Uint8Array): TiffWithProfile {
  const rowBytes = width * channels;
  const rowsPerStrip = Math.max(1, Math.min(height, Math.floor(STRIP_BYTES / rowBytes)));
  const strips = Math.ceil(height / rowsPerStrip);
  // Where each strip starts: known once the values before the pixels are laid out.
  const stripOffsets = new Array<number>(strips).fill(0);
  const entries: Array<[tag: number, type: number, values: number[] | Uint8Array]> = [
    [256, LONG, [width]], // ImageWidth
    [257, LONG, [height]], // ImageLength
    [258, SHORT, new Array<number>(channels).fill(8)], // BitsPerSample
    [259, SHORT, [1]], // Compression: none
    [262, SHORT, [2]], // PhotometricInterpretation: RGB
    [273, LONG, stripOffsets], // StripOffsets
    [277, SHORT, [channels]], // SamplesPerPixel
    [278, LONG, [rowsPerStrip]], // RowsPerStrip
    [279, LONG, Array.from({ length: strips }, (_, i) => Math.min(rowsPerStrip, height - i * rowsPerStrip) * rowBytes)], // StripByteCounts
    [284, SHORT, [1]], // PlanarConfiguration: interleaved
    ...(channels === 4 ? [[338, SHORT, [2]] as [number, number, number[]]] : []), // ExtraSamples: unassociated alpha
    [34675, UNDEFINED, icc], // ICC profile
  ];
  const sizeOf = (type: number, values: number[] | Uint8Array) => values.length * (type === LONG ? 4 : type === SHORT ? 2 : 1);

  // Header, then the directory, then the values that do not fit in a directory entry's 4 bytes, then the pixels.
  const directoryEnd = 8 + 2 + entries.length * 12 + 4;
  let outside = directoryEnd;
  const placed = entries.map(([, type, values]) => {
    const size = sizeOf(type, values);
    if (size <= 4) return undefined;
    const at = outside;
    outside += size + (size % 2); // values start on a word boundary
    return at;
  });
  const pixelsOffset = Math.ceil(outside / 16) * 16;
  for (let i = 0; i < strips; i++) stripOffsets[i] = pixelsOffset + i * rowsPerStrip * rowBytes;

  const tiff = Buffer.allocUnsafe(pixelsOffset + rowBytes * height);
  tiff.fill(0, 0, pixelsOffset);
  tiff.write('II', 0, 'latin1');
  tiff.writeUInt16LE(42, 2);
  tiff.writeUInt32LE(8, 4);
  tiff.writeUInt16LE(entries.length, 8);
  entries.forEach(([tag, type, values], i) => {
    const entry = 10 + i * 12;
    tiff.writeUInt16LE(tag, entry);
    tiff.writeUInt16LE(type, entry + 2);
    tiff.writeUInt32LE(values.length, entry + 4);
    const at = placed[i] ?? entry + 8;
    if (placed[i] !== undefined) tiff.writeUInt32LE(at, entry + 8);
    if (type === UNDEFINED) tiff.set(values, at);
    else values.forEach((value, j) => (type === LONG ? tiff.writeUInt32LE(value, at + j * 4) : tiff.writeUInt16LE(value, at + j * 2)));
  });
  // The next directory's offset (none) stays 0.
  return { tiff, pixels: tiff.subarray(pixelsOffset) };
}
