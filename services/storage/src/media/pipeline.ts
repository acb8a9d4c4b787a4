import { createHash } from 'node:crypto';
import sharp, { type FormatEnum, type Metadata, type OverlayOptions, type Sharp } from 'sharp';
import { barsToPixels } from './bars.js';
import { DHASH_HEIGHT, DHASH_WIDTH, dHash } from './dhash.js';
import { ImageTooLargeError, UnsupportedImageError } from './errors.js';
import { decodeHeic, type RawImage } from './heic.js';
import { DERIVATIVE_EDGES, DERIVATIVE_KINDS, type DerivativeKind, type EncodedImage, type PrivacyBar, type ProcessedPhoto, type SourceMimeType } from './types.js';

// The sharp side of the media module; it runs only inside worker threads (see worker.ts).

const DISPLAY_EDGE = DERIVATIVE_EDGES.display;
/** Every avatar is this square, so the navbar, cards and profile all get the same, small file. */
const AVATAR_EDGE = 256;

// Quality/effort, measured on a 12 MP photo (see the module's bench notes): the display WebP encode is
// the longest step, and effort 2 takes half the CPU of effort 4 (~300 vs ~700 ms for 2048x1536) for
// the same size and PSNR (within 0.1 dB). mozjpeg would triple the original's encode time; Huffman
// optimisation stays on (3.5% smaller for ~200 ms that run in parallel with the display branch).
const ORIGINAL_JPEG = { quality: 90, mozjpeg: false } as const;
const ORIGINAL_WEBP = { quality: 90, effort: 2 } as const;
const ORIGINAL_PNG = { compressionLevel: 6 } as const;
const DISPLAY_WEBP = { quality: 80, effort: 2 } as const;
// Shown at about one image pixel per device pixel (cards on screens of density 2–3), where q75 looks like q80 and is a
// fifth smaller: ~140 kB for a textured 12 MP photo whose display image is ~650 kB, so a page of 9 cards stays under
// 1.5 MB (`pnpm bench:images`). Effort 4, as the thumbnail: ~70 ms at 960 px, in parallel with the display encode.
const MEDIUM_WEBP = { quality: 75, effort: 4 } as const;
const THUMBNAIL_WEBP = { quality: 75, effort: 4 } as const;
const DERIVATIVE_WEBP = { display: DISPLAY_WEBP, medium: MEDIUM_WEBP, thumbnail: THUMBNAIL_WEBP } as const;
const AVATAR_WEBP = { quality: 80, effort: 4 } as const;

export interface Limits {
  maxInputPixels: number;
}

export type PhotoOutput = ProcessedPhoto;
export type DerivativesOutput<K extends DerivativeKind = DerivativeKind> = Record<K, EncodedImage>;
export type { DerivativeKind };
export type AvatarOutput = EncodedImage & { sourceMimeType: string; /** Hex SHA-256 of the uploaded bytes. */ sha256: string };

type SharpFormat = keyof FormatEnum;

export async function processPhoto(input: Buffer, sourceMimeType: SourceMimeType, bars: PrivacyBar[], limits: Limits): Promise<PhotoOutput> {
  const sha256 = sha256Hex(input);
  // Decoded once, upright, at full size; the original and the display image are both made from these
  // pixels, in parallel (libvips runs each pipeline on its own libuv thread), and the smaller derivatives from
  // the display image's pixels.
  const upright =
    sourceMimeType === 'image/heic' || sourceMimeType === 'image/heif'
      ? await decodeHeic(input, limits.maxInputPixels)
      : await readUpright(input, limits, [FORMAT_OF[sourceMimeType]]);
  const [original, derived] = await Promise.all([encodeOriginal(upright, sourceMimeType), deriveFromUpright(upright, bars)]);
  return { original, ...derived, sourceMimeType, sha256 };
}

/**
 * Derivatives again from a stored original: all of them after the privacy bars changed, the medium image alone for a
 * photo stored before there was one (the photo service's backfill). The original is decoded once, at the size of the
 * largest one asked for, and the others are resized from those pixels.
 */
export async function renderDerivatives<K extends DerivativeKind>(original: Buffer, bars: PrivacyBar[], limits: Limits, kinds: readonly K[]): Promise<DerivativesOutput<K>> {
  const wanted = DERIVATIVE_KINDS.filter((kind): kind is K => (kinds as readonly DerivativeKind[]).includes(kind));
  const largest = wanted[0];
  if (!largest) throw new Error('No derivative asked for');
  // Resizing while decoding lets libvips shrink on load and stream, instead of holding the full image.
  const base = await readUpright(original, limits, ['jpeg', 'png', 'webp'], (image) => image.resize(fitInside(DERIVATIVE_EDGES[largest])));
  const encoded = await Promise.all(
    wanted.map(async (kind) => [kind, await encodeDerivative(kind, kind === largest ? base : await resized(base, kind), bars)] as const),
  );
  return Object.fromEntries(encoded) as DerivativesOutput<K>;
}

export async function processAvatar(input: Buffer, limits: Limits): Promise<AvatarOutput> {
  let format: SharpFormat | undefined;
  const square = await readUpright(input, limits, ['jpeg', 'png'], (image, metadata) => {
    format = metadata.format;
    // The largest centred square, scaled to 256x256 in the same libvips pipeline (shrink-on-load for large
    // JPEGs). A picture smaller than that is scaled up: avatars are shown at one size everywhere.
    return image.resize({ width: AVATAR_EDGE, height: AVATAR_EDGE, fit: 'cover', position: 'centre' });
  });
  const encoded = await encode(fromRaw(square).webp(AVATAR_WEBP), 'image/webp');
  return { ...encoded, sourceMimeType: format === 'png' ? 'image/png' : 'image/jpeg', sha256: sha256Hex(input) };
}

const FORMAT_OF: Record<'image/jpeg' | 'image/png' | 'image/webp', SharpFormat> = {
  'image/jpeg': 'jpeg',
  'image/png': 'png',
  'image/webp': 'webp',
};

/**
 * The only place uploaded bytes reach libvips. Every failure here is the input's fault (not an image,
 * wrong format, truncated, over the pixel limit) and becomes UnsupportedImageError; failures after
 * this point concern pixels we made ourselves and are bugs.
 */
async function readUpright(
  input: Buffer,
  limits: Limits,
  formats: SharpFormat[],
  shape?: (image: Sharp, metadata: Metadata) => Sharp,
): Promise<RawImage> {
  try {
    const image = sharp(input, {
      // Truncated uploads are refused, not padded with grey; 'error' would also refuse the harmless
      // "extraneous bytes before marker" warnings that many cameras' JPEGs produce.
      failOn: 'truncated',
      limitInputPixels: limits.maxInputPixels,
      autoOrient: true,
    });
    const metadata = await image.metadata();
    if (!formats.includes(metadata.format)) throw new Error(`${metadata.format} where ${formats.join('/')} was expected`);
    // The header's size, before any pixel is decoded (sharp's limitInputPixels would refuse it too, as any failure).
    if (metadata.width * metadata.height > limits.maxInputPixels) {
      throw new ImageTooLargeError(limits.maxInputPixels, { cause: new Error(`${metadata.width}x${metadata.height} exceeds the pixel limit`) });
    }
    // Pixels leave as 8-bit sRGB: an embedded ICC profile is applied here and never copied to outputs.
    const { data, info } = await (shape ? shape(image, metadata) : image)
      .toColourspace('srgb')
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (info.channels !== 3 && info.channels !== 4) throw new Error(`unexpected ${info.channels} channels`);
    return { data, width: info.width, height: info.height, channels: info.channels };
  } catch (cause) {
    if (cause instanceof ImageTooLargeError) throw cause;
    // libvips refuses an image over limitInputPixels from its header, as it reads the metadata.
    if (cause instanceof Error && /exceeds pixel limit/i.test(cause.message)) throw new ImageTooLargeError(limits.maxInputPixels, { cause });
    throw new UnsupportedImageError({ cause });
  }
}

async function encodeOriginal(upright: RawImage, sourceMimeType: SourceMimeType): Promise<EncodedImage> {
  const image = fromRaw(upright);
  switch (sourceMimeType) {
    case 'image/png':
      return encode(image.png(ORIGINAL_PNG), 'image/png');
    case 'image/webp':
      return encode(image.webp(ORIGINAL_WEBP), 'image/webp');
    default:
      // JPEG has no alpha; a transparent HEIC (rare) is shown on white, as viewers do.
      return encode((upright.channels === 4 ? image.flatten({ background: '#ffffff' }) : image).jpeg(ORIGINAL_JPEG), 'image/jpeg');
  }
}

async function deriveFromUpright(upright: RawImage, bars: PrivacyBar[]) {
  const display = await toRaw(fromRaw(upright).resize(fitInside(DISPLAY_EDGE)));
  return deriveFromDisplay(display, bars);
}

/** Medium and thumbnail are resized from the display pixels, not the full image: 4–16x fewer pixels to read. */
async function deriveFromDisplay(display: RawImage, bars: PrivacyBar[]) {
  const thumbnailPromise = resized(display, 'thumbnail');
  const [displayImage, medium, thumbnail, perceptualHash] = await Promise.all([
    encodeDerivative('display', display, bars),
    resized(display, 'medium').then((raw) => encodeDerivative('medium', raw, bars)),
    thumbnailPromise.then((raw) => encodeDerivative('thumbnail', raw, bars)),
    thumbnailPromise.then(perceptualHashOf),
  ]);
  return { display: displayImage, medium, thumbnail, perceptualHash };
}

function resized(image: RawImage, kind: DerivativeKind): Promise<RawImage> {
  return toRaw(fromRaw(image).resize(fitInside(DERIVATIVE_EDGES[kind])));
}

/** A derivative: WebP, the bars burned in at its own size, no metadata. */
function encodeDerivative(kind: DerivativeKind, image: RawImage, bars: PrivacyBar[]): Promise<EncodedImage> {
  return encode(withBars(image, bars).webp(DERIVATIVE_WEBP[kind]), 'image/webp');
}

/**
 * Bars are burned into the pixels of this size, not scaled down from a larger burned image, so that
 * resampling never lets a bar's edge blend with what it hides.
 */
function withBars(image: RawImage, bars: PrivacyBar[]): Sharp {
  const rects = barsToPixels(bars, image.width, image.height);
  if (rects.length === 0) return fromRaw(image);
  const black = image.channels === 4 ? { r: 0, g: 0, b: 0, alpha: 1 } : { r: 0, g: 0, b: 0 };
  const overlays: OverlayOptions[] = rects.map((rect) => ({
    input: { create: { width: rect.width, height: rect.height, channels: image.channels, background: black } },
    left: rect.left,
    top: rect.top,
  }));
  return fromRaw(image).composite(overlays);
}

/** dHash of the unredacted picture: bars must not make a re-upload of the same photo look new. */
async function perceptualHashOf(image: RawImage): Promise<string> {
  const grey = await fromRaw(image)
    .flatten({ background: '#ffffff' })
    .greyscale()
    .resize({ width: DHASH_WIDTH, height: DHASH_HEIGHT, fit: 'fill' })
    .extractChannel(0)
    .raw()
    .toBuffer();
  return dHash(grey);
}

function fitInside(edge: number) {
  return { width: edge, height: edge, fit: 'inside', withoutEnlargement: true } as const;
}

function fromRaw(image: RawImage): Sharp {
  // Our own pixels, already checked against the limit when they were decoded.
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: image.channels }, limitInputPixels: false });
}

async function toRaw(image: Sharp): Promise<RawImage> {
  const { data, info } = await image.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as 3 | 4 };
}

async function encode(image: Sharp, contentType: string): Promise<EncodedImage> {
  // sharp writes no metadata unless asked (no keepMetadata/withMetadata here), so outputs carry no
  // EXIF, XMP, IPTC or ICC.
  const { data, info } = await image.toBuffer({ resolveWithObject: true });
  return { data, contentType, width: info.width, height: info.height, etag: sha256Hex(data).slice(0, 32) };
}

function sha256Hex(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}
