/** The image types uploads may be, decided by their bytes. */
export type SourceMimeType = 'image/jpeg' | 'image/png' | 'image/heic' | 'image/heif' | 'image/webp';

/** Enough of a file's start to tell its type: the ftyp box of a HEIF file lists its brands within this. */
export const IMAGE_TYPE_SNIFF_BYTES = 64;

// Brands that mean the primary image is HEVC-coded (what iPhones write), and the generic HEIF brands.
// AVIF also carries `mif1`, so a file is HEIF only when no AV1 brand is present: sharp could decode
// AVIF, but our HEIC decoder (libheif-js, HEVC only) cannot, and we do not accept AVIF.
const HEVC_BRANDS = new Set(['heic', 'heix', 'hevc', 'hevx', 'heim', 'heis']);
const HEIF_BRANDS = new Set(['mif1', 'msf1']);
const AV1_BRANDS = new Set(['avif', 'avis']);

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * The image type by magic bytes only: names and declared content types are whatever the client chose.
 * Returns null for anything else, including formats sharp could decode (SVG, TIFF, GIF, AVIF), so that
 * only the decoders we mean to expose ever see uploaded bytes.
 */
export function sniffImageType(head: Uint8Array): SourceMimeType | null {
  if (startsWith(head, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (startsWith(head, 0, PNG_SIGNATURE)) return 'image/png';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'image/webp';
  if (ascii(head, 4, 8) === 'ftyp') return sniffIsoBmff(head);
  return null;
}

function sniffIsoBmff(head: Uint8Array): SourceMimeType | null {
  const boxSize = readUint32(head, 0);
  // The ftyp box holds the major brand (8..12), a minor version (12..16), then compatible brands.
  if (boxSize === undefined || boxSize < 16) return null;
  const end = Math.min(boxSize, head.length);
  const brands = [ascii(head, 8, 12)];
  for (let offset = 16; offset + 4 <= end; offset += 4) brands.push(ascii(head, offset, offset + 4));
  if (brands.some((brand) => AV1_BRANDS.has(brand))) return null;
  if (brands.some((brand) => HEVC_BRANDS.has(brand))) return 'image/heic';
  if (brands.some((brand) => HEIF_BRANDS.has(brand))) return 'image/heif';
  return null;
}

function startsWith(bytes: Uint8Array, offset: number, expected: readonly number[]): boolean {
  return bytes.length >= offset + expected.length && expected.every((byte, i) => bytes[offset + i] === byte);
}

function ascii(bytes: Uint8Array, start: number, end: number): string {
  if (bytes.length < end) return '';
  return String.fromCharCode(...bytes.subarray(start, end));
}

function readUint32(bytes: Uint8Array, offset: number): number | undefined {
  if (bytes.length < offset + 4) return undefined;
  return new DataView(bytes.buffer, bytes.byteOffset + offset, 4).getUint32(0);
}
