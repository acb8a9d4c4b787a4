import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HeifPrimaryImage } from './heic-libheif.js';
import { DERIVATIVE_EDGES, DERIVATIVE_KINDS, UnsupportedImageError, type EncodedImage, type ProcessedPhoto } from './index.js';
import { fixture, testProcessor } from './test-images.js';

// Files that cameras and phones wrote (test/fixtures/real/README.md says where each comes from and under which
// licence), through the whole media pipeline as an upload takes them: the media process, its worker pool and the
// HEIC thread. Each must come out upright at every size, in sRGB, with nothing of its metadata left and its colours
// kept. The time and the media process's peak memory for each are printed at the end (measured, not asserted).

const REFUSAL = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';
const REAL = new URL('../../test/fixtures/real/', import.meta.url);

/**
 * Clockwise turn from the pixels as a file stores them to the upright picture. sharp reads JPEG and WebP pixels as
 * stored (no autoOrient) and turns them explicitly, so the product's own EXIF handling is checked against it.
 */
type Turn = 0 | 90 | 180 | 270;

interface RealPhoto {
  file: string;
  path: string;
  source: 'image/jpeg' | 'image/webp' | 'image/heic' | 'image/heif';
  /** The cleaned original's type: JPEG for JPEG and HEIC, WebP for WebP. */
  original: 'image/jpeg' | 'image/webp';
  /** The upright size, which the original has and every derivative has the shape of. */
  upright: [number, number];
  /** For JPEG and WebP: the turn the picture needs (sharp cannot read HEVC, so HEIC has none). */
  turn?: Turn;
  /** A fixture (sRGB once sharp converts it) that shows the same picture: its colours are what this one must keep. */
  sameAs?: string;
  /** Its colour profile is not sRGB and changes its colours visibly: the outputs must carry the converted colours. */
  wideGamut?: boolean;
  /** Text from its metadata (camera, software, profile) that no output may carry. */
  markers: string[];
  /**
   * The share of the reference's chroma every output keeps (0.95 unless given). Chroma subsampling (4:2:0 in JPEG and
   * lossy WebP) alone costs a picture of thin coloured strokes some of it.
   */
  chromaKept?: number;
}

const real = (file: string, photo: Omit<RealPhoto, 'file' | 'path'>): RealPhoto => ({ file, path: fileURLToPath(new URL(file, REAL)), ...photo });

const PHOTOS: RealPhoto[] = [
  real('iphone-4s-orientation-6-gps.jpg', {
    source: 'image/jpeg',
    original: 'image/jpeg',
    upright: [102, 205],
    turn: 90,
    markers: ['iPhone 4S', 'Apple', 'GPano', 'Exiv2'],
  }),
  real('iphone-4s-orientation-8-gps.derived.jpg', {
    source: 'image/jpeg',
    original: 'image/jpeg',
    upright: [102, 205],
    turn: 270,
    markers: ['iPhone 4S', 'Apple', 'GPano'],
  }),
  real('nikon-d2h-gps-xmp.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [500, 375], turn: 0, markers: ['NIKON D2H', 'Opanda'] }),
  real('nokia-n70-iptc.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [640, 480], turn: 0, markers: ['N70-1', 'Nokia'] }),
  real('canon-eos-rebel-t6-adobe-rgb.jpg', {
    source: 'image/jpeg',
    original: 'image/jpeg',
    upright: [2000, 1072],
    turn: 0,
    wideGamut: true,
    markers: ['Canon EOS Rebel T6', 'Lightroom', 'crs:'],
  }),
  real('canon-eos-rebel-t6-adobe-rgb.derived.webp', {
    source: 'image/webp',
    original: 'image/webp',
    upright: [2000, 1072],
    turn: 0,
    wideGamut: true,
    markers: ['Canon EOS Rebel T6', 'Lightroom', 'crs:'],
  }),
  real('canon-powershot-s40-makernotes.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [480, 360], turn: 0, markers: ['PowerShot S40'] }),
  // Read as sRGB, Display P3 numbers look washed out (P3's primaries lie outside sRGB's, so the same numbers mean more
  // saturated colours): until HEIC profiles were applied, this file kept 84 % of its source's chroma.
  real('canon-powershot-s40-display-p3.derived.heic', {
    source: 'image/heic',
    original: 'image/jpeg',
    upright: [480, 360],
    sameAs: 'canon-powershot-s40-makernotes.jpg',
    wideGamut: true,
    markers: ['PowerShot S40'],
  }),
  // The same numbers described by an nclx colour box (P3 primaries, sRGB's transfer) instead of an ICC profile.
  real('canon-powershot-s40-display-p3-nclx.derived.heic', {
    source: 'image/heic',
    original: 'image/jpeg',
    upright: [480, 360],
    sameAs: 'canon-powershot-s40-makernotes.jpg',
    wideGamut: true,
    markers: [],
  }),
  real('casio-qv-r51-portrait.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [300, 400], turn: 0, markers: ['QV-R51', 'PrintIM'] }),
  real('nintendo-3ds-mpo.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [640, 480], turn: 0, markers: ['Nintendo 3DS', 'MPF\0'] }),
  real('progressive-big-icc.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [425, 250], turn: 0, wideGamut: true, markers: [] }),
  // Thin red lettering on black: 4:2:0 subsampling of its sRGB pixels alone takes 8 % of their chroma (JPEG q90), 14 % (WebP q80).
  real('photoshop-cmyk.jpg', { source: 'image/jpeg', original: 'image/jpeg', upright: [100, 100], turn: 0, chromaKept: 0.8, markers: ['Photoshop CS', 'Adobe'] }),
  real('libheif-example.heic', { source: 'image/heic', original: 'image/jpeg', upright: [1280, 854], markers: [] }),
  // Stored 480×640 as a 2×2 grid of HEVC tiles with irot 1, as iPhones store a photo: upright it is the Nokia photo.
  real('nokia-n70-grid-irot.derived.heic', { source: 'image/heic', original: 'image/jpeg', upright: [640, 480], sameAs: 'nokia-n70-iptc.jpg', markers: [] }),
];

// Real iPhone HEICs exist in Debian's exiv2 sources, but under the GPL, so they are not in our fixtures; given a
// directory holding them (exiv2-0.27.6/test/data, see the fixtures' README), they run too.
const GPL_DIR = process.env.REAL_PHOTOS_GPL_DIR;
const GPL_PHOTOS: RealPhoto[] = [
  // iPhone XR, 4032×3024 as a grid of 512 px tiles, irot 270 (held upright), Display P3, GPS.
  { file: '2021-02-13-1929.heic', source: 'image/heic', original: 'image/jpeg', upright: [3024, 4032], wideGamut: true, markers: ['iPhone XR', 'Display P3'] },
  // iPhone XR, 4032×3024 grid, landscape, Display P3. Before HEIC profiles were applied it came out with 18 % less
  // chroma than a P3-aware decode, up to 67 levels off per channel.
  { file: 'IMG_3578.heic', source: 'image/heic', original: 'image/jpeg', upright: [4032, 3024], wideGamut: true, markers: ['iPhone XR', 'Display P3'] },
]
  .map((photo) => ({ ...photo, path: join(GPL_DIR ?? '', photo.file) }) as RealPhoto)
  .filter((photo) => GPL_DIR !== undefined && existsSync(photo.path));

/** Strings that mean a metadata block survived, in any of the formats we write. */
const METADATA_MARKERS = ['Exif\0\0', 'http://ns.adobe.com/', 'Photoshop 3.0', 'ICC_PROFILE', '8BIM', 'XML:com.adobe.xmp'];

// One thread, so the memory measured is one photo's (the product runs two, IMAGE_WORKERS).
const processor = testProcessor({ maxThreads: 1 });
afterAll(() => processor.close());

interface Measurement {
  file: string;
  bytes: number;
  ms: number;
  /** Peak resident memory of the media process while it worked, above what it held before; MiB. */
  peakMiB: number | undefined;
  sizes: string;
}
const measurements: Measurement[] = [];

beforeAll(async () => {
  // Start the worker threads and compile the HEIC decoder first, so the times below are a warm product's.
  await processor.processPhoto(fixture('rotated-gps.jpg'));
  await processor.processPhoto(fixture('photo.heic'));
}, 60_000);

afterAll(() => {
  const rows = measurements.map(
    (m) =>
      `${m.file.padEnd(50)} ${`${(m.bytes / 1024).toFixed(0)} kB`.padStart(8)} ${`${m.ms.toFixed(0)} ms`.padStart(8)} ${
        m.peakMiB === undefined ? '       ?' : `${m.peakMiB.toFixed(0)} MiB`.padStart(8)
      }  ${m.sizes}`,
  );
  console.log(
    [
      'Real photos through the media process (one thread, warm): time to the processed photo, and the media process peak RSS above its RSS before',
      `${'file'.padEnd(50)} ${'input'.padStart(8)} ${'time'.padStart(8)} ${'peak RSS'.padStart(8)}  outputs (original, ${DERIVATIVE_KINDS.join(', ')})`,
      ...rows,
    ].join('\n'),
  );
});

function statusKiB(pid: number, field: 'VmRSS' | 'VmHWM'): number | undefined {
  try {
    const match = readFileSync(`/proc/${pid}/status`, 'utf8').match(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm'));
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Processes `input`, measuring the time and the media process's peak RSS (Linux /proc; undefined elsewhere). */
async function processMeasured(photo: RealPhoto, input: Buffer): Promise<ProcessedPhoto> {
  const pid = processor.mediaProcessId;
  const before = pid === undefined ? undefined : statusKiB(pid, 'VmRSS');
  // Writing 5 to clear_refs resets the process's high-water mark (VmHWM) to its current RSS; sampling backs it up.
  let hwmReset = false;
  if (pid !== undefined) {
    try {
      writeFileSync(`/proc/${pid}/clear_refs`, '5');
      hwmReset = true;
    } catch {
      hwmReset = false;
    }
  }
  let sampled = before ?? 0;
  const sampler = setInterval(() => {
    const now = pid === undefined ? undefined : statusKiB(pid, 'VmRSS');
    if (now !== undefined && now > sampled) sampled = now;
  }, 5);
  const started = performance.now();
  let processed: ProcessedPhoto;
  try {
    processed = await processor.processPhoto(input);
  } finally {
    clearInterval(sampler);
  }
  const ms = performance.now() - started;
  const hwm = hwmReset && pid !== undefined ? (statusKiB(pid, 'VmHWM') ?? 0) : 0;
  const images: EncodedImage[] = [processed.original, ...DERIVATIVE_KINDS.map((kind) => processed[kind])];
  measurements.push({
    file: photo.file,
    bytes: input.length,
    ms,
    peakMiB: before === undefined ? undefined : (Math.max(sampled, hwm) - before) / 1024,
    sizes: images.map((image) => `${image.width}×${image.height} ${(image.data.length / 1024).toFixed(0)} kB`).join(', '),
  });
  return processed;
}

/** The size `width`×`height` takes inside a square of side `edge`, never enlarged (as sharp rounds it). */
function fitInside([width, height]: [number, number], edge: number): [number, number] {
  const scale = Math.min(1, edge / Math.max(width, height));
  return [Math.round(width * scale), Math.round(height * scale)];
}

/**
 * A small RGB rendering, for comparing pictures whatever their size (`options` as sharp's constructor takes them).
 * Decoded whole before it is shrunk: JPEG's shrink-on-load would average a detailed picture differently from a WebP.
 */
async function thumbnailPixels(input: Buffer, turn: Turn | undefined, options: { ignoreIcc?: boolean } = {}): Promise<Buffer> {
  const image = sharp(input, options);
  const { data, info } = await (turn === undefined ? image : image.rotate(turn)).toColourspace('srgb').removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return sharp(data, { raw: info }).resize(32, 32, { fit: 'fill' }).raw().toBuffer();
}

/** A HEIC's own numbers read as if they were sRGB, as thumbnailPixels renders: libheif's pixels, their profile ignored. */
async function heicThumbnailIgnoringProfile(input: Buffer): Promise<Buffer> {
  const heif = await HeifPrimaryImage.open(input);
  try {
    const { width, height } = heif;
    const data = Buffer.alloc(width * height * 3);
    heif.decode(3, data);
    return await sharp(data, { raw: { width, height, channels: 3 } }).resize(32, 32, { fit: 'fill' }).raw().toBuffer();
  } finally {
    heif.close();
  }
}

/** Mean absolute difference per channel (0–255). */
function meanDifference(a: Buffer, b: Buffer): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += Math.abs(a[i]! - b[i]!);
  return sum / a.length;
}

/** Mean chroma (max − min of R, G, B; 0–255): how colourful the picture is. A washed-out copy has less. */
function meanChroma(pixels: Buffer): number {
  let sum = 0;
  for (let i = 0; i < pixels.length; i += 3) sum += Math.max(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!) - Math.min(pixels[i]!, pixels[i + 1]!, pixels[i + 2]!);
  return sum / (pixels.length / 3);
}

function realPhotoTests(photo: RealPhoto): void {
  let input: Buffer;
  let processed: ProcessedPhoto;
  const outputs = () =>
    [['original', processed.original] as const, ...DERIVATIVE_KINDS.map((kind) => [kind, processed[kind]] as const)] satisfies ReadonlyArray<
      readonly [string, EncodedImage]
    >;

  beforeAll(async () => {
    input = readFileSync(photo.path);
    processed = await processMeasured(photo, input);
  }, 60_000);

  it(`is read as ${photo.source} and stored as ${photo.original} with ${DERIVATIVE_KINDS.join(', ')} images in WebP`, async () => {
    expect(processed.sourceMimeType).toBe(photo.source);
    expect(processed.original.contentType).toBe(photo.original);
    expect((await sharp(processed.original.data).metadata()).format).toBe(photo.original === 'image/jpeg' ? 'jpeg' : 'webp');
    for (const kind of DERIVATIVE_KINDS) {
      expect(processed[kind].contentType, kind).toBe('image/webp');
      expect((await sharp(processed[kind].data).metadata()).format, kind).toBe('webp');
    }
  });

  it(`comes out upright (${photo.upright.join('×')}) at every size`, async () => {
    expect([processed.original.width, processed.original.height], 'original').toEqual(photo.upright);
    for (const kind of DERIVATIVE_KINDS) {
      const [width, height] = fitInside(photo.upright, DERIVATIVE_EDGES[kind]);
      expect(Math.abs(processed[kind].width - width), `${kind} ${processed[kind].width}×${processed[kind].height}`).toBeLessThanOrEqual(1);
      expect(Math.abs(processed[kind].height - height), `${kind} ${processed[kind].width}×${processed[kind].height}`).toBeLessThanOrEqual(1);
    }
    for (const [name, image] of outputs()) {
      const meta = await sharp(image.data).metadata();
      expect([meta.width, meta.height], `${name}: the file's own size is the size reported`).toEqual([image.width, image.height]);
    }
    if (photo.turn === undefined) return;
    // Not only the shape: the picture is the stored one turned the right way, not the opposite one (6 versus 8).
    const right = await thumbnailPixels(input, photo.turn);
    const wrong = await thumbnailPixels(input, ((photo.turn + 180) % 360) as Turn);
    for (const [name, image] of outputs()) {
      const pixels = await thumbnailPixels(image.data, undefined);
      const [toRight, toWrong] = [meanDifference(pixels, right), meanDifference(pixels, wrong)];
      expect(toRight, `${name}: ${toRight.toFixed(1)} from the picture turned ${photo.turn}°`).toBeLessThan(8);
      if (photo.turn % 180 !== 0) expect(toRight, `${name}: closer to ${photo.turn}° than to the opposite turn (${toWrong.toFixed(1)})`).toBeLessThan(toWrong / 2);
    }
  });

  it('is sRGB with no EXIF, GPS, XMP, IPTC or ICC left in any output', async () => {
    for (const [name, image] of outputs()) {
      const meta = await sharp(image.data).metadata();
      expect(meta.space, name).toBe('srgb');
      expect(meta.channels, name).toBe(3);
      expect({ exif: meta.exif, xmp: meta.xmp, iptc: meta.iptc, icc: meta.icc, orientation: meta.orientation }, name).toEqual({
        exif: undefined,
        xmp: undefined,
        iptc: undefined,
        icc: undefined,
        orientation: undefined,
      });
      const left = [...METADATA_MARKERS, ...photo.markers].filter((marker) => image.data.includes(marker));
      expect(left, `${name} still contains`).toEqual([]);
    }
  });

  it('keeps its colours: converted from its profile, not washed out', async () => {
    const reference = photo.sameAs
      ? await thumbnailPixels(readFileSync(new URL(photo.sameAs, REAL)), 0)
      : photo.turn !== undefined
        ? await thumbnailPixels(input, photo.turn)
        : undefined;
    // The numbers in the file read as if they were sRGB (sharp cannot read HEVC: libheif's pixels for a HEIC).
    const asIfSrgb = photo.wideGamut
      ? photo.source === 'image/heic' || photo.source === 'image/heif'
        ? await heicThumbnailIgnoringProfile(input)
        : await thumbnailPixels(input, photo.turn, { ignoreIcc: true })
      : undefined;
    for (const [name, image] of outputs()) {
      const pixels = await thumbnailPixels(image.data, undefined);
      if (!reference) {
        // HEIC with nothing to compare with: at least a colour photo, not grey, black or white.
        expect(meanChroma(pixels), `${name}: mean chroma`).toBeGreaterThan(15);
        // A wide-gamut one more colourful than its numbers read as sRGB (P3 numbers taken as sRGB look washed out).
        if (asIfSrgb) expect(meanChroma(pixels), `${name}: mean chroma, its numbers' as sRGB ${meanChroma(asIfSrgb).toFixed(1)}`).toBeGreaterThan(meanChroma(asIfSrgb) * 1.1);
        continue;
      }
      const [chroma, referenceChroma] = [meanChroma(pixels), meanChroma(reference)];
      expect(chroma, `${name}: mean chroma ${chroma.toFixed(1)}, the reference's ${referenceChroma.toFixed(1)}`).toBeGreaterThanOrEqual(referenceChroma * (photo.chromaKept ?? 0.95));
      const difference = meanDifference(pixels, reference);
      expect(difference, `${name}: mean difference from the reference`).toBeLessThan(photo.sameAs ? 2 : 3);
      if (asIfSrgb) {
        // The numbers in the file read as if they were sRGB are further away: the profile was applied.
        expect(difference, `${name}: nearer the converted colours than the file's own numbers (${meanDifference(pixels, asIfSrgb).toFixed(2)})`).toBeLessThan(
          meanDifference(pixels, asIfSrgb),
        );
      }
    }
  });
}

describe('real photos from cameras and phones', { timeout: 60_000 }, () => {
  for (const photo of PHOTOS) describe(photo.file, () => realPhotoTests(photo));
});

describe.runIf(GPL_PHOTOS.length > 0)(`real iPhone HEICs from ${GPL_DIR} (GPL, not in the repository)`, { timeout: 120_000 }, () => {
  for (const photo of GPL_PHOTOS) describe(photo.file, () => realPhotoTests(photo));
});

/** Answers what processPhoto threw, or undefined when it stored the photo. */
function refusalOf(input: Buffer): Promise<unknown> {
  return processor.processPhoto(input).then(
    () => undefined,
    (caught: unknown) => caught,
  );
}

describe('real photos cut off in transfer', { timeout: 60_000 }, () => {
  // Cut at 40 %: inside the first of the MPO's two pictures (a cut after the first one leaves a whole JPEG).
  it.each([
    'nikon-d2h-gps-xmp.jpg',
    'nintendo-3ds-mpo.jpg',
    'canon-eos-rebel-t6-adobe-rgb.derived.webp',
    'canon-powershot-s40-display-p3.derived.heic',
    'canon-powershot-s40-display-p3-nclx.derived.heic',
  ])(
    '%s, 40 % of it, is refused with the upload message',
    async (file) => {
      const whole = readFileSync(new URL(file, REAL));
      const error = await refusalOf(whole.subarray(0, Math.floor(whole.length * 0.4)));
      expect(error).toBeInstanceOf(UnsupportedImageError);
      expect((error as Error).message).toBe(REFUSAL);
    },
  );

  // A grid HEIC (every iPhone photo) whose end is missing: libheif decodes grids leniently, painting a tile whose data
  // lies past the end of the file one flat colour (green here; grey for an iPhone XR file cut in half), so such uploads
  // used to be stored with blank tiles. The last tiles go at 60 %, the last one alone at 90 %, its last byte at the end.
  it.each([60, 90])('a grid HEIC, %i %% of it (its last tiles missing), is refused with the upload message', async (percent) => {
    const whole = readFileSync(new URL('nokia-n70-grid-irot.derived.heic', REAL));
    const error = await refusalOf(whole.subarray(0, Math.floor((whole.length * percent) / 100)));
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toBe(REFUSAL);
  });

  it('a grid HEIC without its last byte is refused with the upload message', async () => {
    const whole = readFileSync(new URL('nokia-n70-grid-irot.derived.heic', REAL));
    const error = await refusalOf(whole.subarray(0, whole.length - 1));
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toBe(REFUSAL);
  });

  it.runIf(GPL_PHOTOS.length > 0)('a real iPhone HEIC cut in half is refused with the upload message', async () => {
    const whole = readFileSync(GPL_PHOTOS[0]!.path);
    const error = await refusalOf(whole.subarray(0, Math.floor(whole.length / 2)));
    expect(error).toBeInstanceOf(UnsupportedImageError);
    expect((error as Error).message).toBe(REFUSAL);
  });
});
