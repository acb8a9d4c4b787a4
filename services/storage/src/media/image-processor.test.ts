import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ImageTooLargeError, UnsupportedImageError, hammingDistance, type ProcessedPhoto } from './index.js';
import { decompressionBomb, fixture, generatedPhoto, isBlack, metadataLeftIn, pixel, testProcessor } from './test-images.js';

// These tests go through the real media process and its worker pool: they prove that both load from vitest.
const processor = testProcessor();
afterAll(() => processor.close());

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

const REFUSAL = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';

async function expectRefused(promise: Promise<unknown>): Promise<UnsupportedImageError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(UnsupportedImageError);
  expect((error as Error).message).toBe(REFUSAL);
  return error as UnsupportedImageError;
}

async function expectClean(photo: ProcessedPhoto): Promise<void> {
  for (const image of [photo.original, photo.display, photo.medium, photo.thumbnail]) {
    expect(await metadataLeftIn(image.data)).toEqual([]);
  }
}

describe('ImageProcessor.processPhoto', { timeout: 30_000 }, () => {
  const formats = [
    ['rotated-gps.jpg', 'image/jpeg', 'jpeg', 'image/jpeg'],
    ['photo.png', 'image/png', 'png', 'image/png'],
    ['photo.webp', 'image/webp', 'webp', 'image/webp'],
    ['photo.heic', 'image/heic', 'jpeg', 'image/jpeg'],
  ] as const;

  it.each(formats)('%s: strips every piece of metadata from every output', async (name, source, originalFormat, originalType) => {
    const input = fixture(name);
    expect((await metadataLeftIn(input)).length).toBeGreaterThan(0);
    const photo = await processor.processPhoto(input);
    expect(photo.sourceMimeType).toBe(source);
    expect(photo.original.contentType).toBe(originalType);
    expect((await sharp(photo.original.data).metadata()).format).toBe(originalFormat);
    for (const derived of [photo.display, photo.medium, photo.thumbnail]) {
      expect(derived.contentType).toBe('image/webp');
      expect((await sharp(derived.data).metadata()).format).toBe('webp');
    }
    await expectClean(photo);
  });

  it('returns an EXIF-rotated JPEG upright', async () => {
    // Stored 160x240 with Orientation 6; upright it is 240x160, red top-left, green top-right, blue below.
    const photo = await processor.processPhoto(fixture('rotated-gps.jpg'));
    for (const image of [photo.original, photo.display, photo.medium, photo.thumbnail]) {
      expect([image.width, image.height]).toEqual([240, 160]);
      const meta = await sharp(image.data).metadata();
      expect([meta.width, meta.height]).toEqual([240, 160]);
      expect(await pixel(image.data, 10, 10)).toSatisfy(([r, g, b]: number[]) => r! > 200 && g! < 60 && b! < 60);
      expect(await pixel(image.data, 90, 10)).toSatisfy(([r, g, b]: number[]) => r! < 60 && g! > 200 && b! < 60);
      expect(await pixel(image.data, 50, 90)).toSatisfy(([r, g, b]: number[]) => r! < 60 && g! < 60 && b! > 200);
    }
  });

  it('decodes HEIC, and it hashes like the same scene in PNG', async () => {
    const [heic, png] = await Promise.all([processor.processPhoto(fixture('photo.heic')), processor.processPhoto(fixture('photo.png'))]);
    expect([heic.original.width, heic.original.height]).toEqual([320, 240]);
    expect([heic.display.width, heic.display.height]).toEqual([320, 240]);
    expect(hammingDistance(heic.perceptualHash, png.perceptualHash)).toBeLessThanOrEqual(6);
  });

  it('burns privacy bars into display, medium and thumbnail only, in upright coordinates, clamped to the image', async () => {
    const bars = [
      { x: 0, y: 0, width: 25, height: 25 }, // the red corner
      { x: 90, y: 80, width: 50, height: 50 }, // runs off the bottom-right edge
    ];
    const photo = await processor.processPhoto(fixture('rotated-gps.jpg'), bars);
    for (const image of [photo.display, photo.medium, photo.thumbnail]) {
      expect(isBlack(await pixel(image.data, 1, 1))).toBe(true);
      expect(isBlack(await pixel(image.data, 12, 12))).toBe(true);
      expect(isBlack(await pixel(image.data, 24, 24))).toBe(true);
      expect(isBlack(await pixel(image.data, 99, 99))).toBe(true);
      expect(isBlack(await pixel(image.data, 40, 10))).toBe(false);
      expect(isBlack(await pixel(image.data, 50, 90))).toBe(false);
    }
    expect(isBlack(await pixel(photo.original.data, 12, 12))).toBe(false);
    expect(isBlack(await pixel(photo.original.data, 99, 99))).toBe(false);
    // Bars do not change which picture this is.
    const plain = await processor.processPhoto(fixture('rotated-gps.jpg'));
    expect(photo.perceptualHash).toBe(plain.perceptualHash);
  });

  it('keeps long edges within 2048 (display), 960 (medium) and 480 (thumbnail) and never enlarges', async () => {
    const wide = await processor.processPhoto(await generatedPhoto(3000, 1000));
    expect([wide.original.width, wide.original.height]).toEqual([3000, 1000]);
    expect([wide.display.width, wide.display.height]).toEqual([2048, 683]);
    expect([wide.medium.width, wide.medium.height]).toEqual([960, 320]);
    expect([wide.thumbnail.width, wide.thumbnail.height]).toEqual([480, 160]);
    const tall = await processor.processPhoto(await generatedPhoto(600, 2400, 'png'));
    expect([tall.display.width, tall.display.height]).toEqual([512, 2048]);
    expect([tall.medium.width, tall.medium.height]).toEqual([240, 960]);
    expect([tall.thumbnail.width, tall.thumbnail.height]).toEqual([120, 480]);
    const between = await processor.processPhoto(await generatedPhoto(1200, 900));
    expect([between.display.width, between.display.height, between.medium.width, between.medium.height]).toEqual([1200, 900, 960, 720]);
    const small = await processor.processPhoto(fixture('photo.webp'));
    expect([small.display.width, small.display.height, small.medium.width, small.medium.height, small.thumbnail.width, small.thumbnail.height]).toEqual([
      320, 240, 320, 240, 320, 240,
    ]);
    for (const photo of [wide, tall, between, small]) {
      for (const image of [photo.original, photo.display, photo.medium, photo.thumbnail]) {
        const meta = await sharp(image.data).metadata();
        expect([meta.width, meta.height]).toEqual([image.width, image.height]);
      }
    }
  });

  it('converts colours from an embedded ICC profile to sRGB, then drops the profile', async () => {
    const srgb = { r: 200, g: 60, b: 60 };
    const input = await sharp({ create: { width: 64, height: 64, channels: 3, background: srgb } }).withIccProfile('p3').jpeg({ quality: 95 }).toBuffer();
    expect((await sharp(input).metadata()).icc).toBeDefined();
    // The file's own numbers are P3, not sRGB: showing them as they are would get the colour wrong.
    const { data: stored } = await sharp(input, { ignoreIcc: true }).raw().toBuffer({ resolveWithObject: true });
    expect(Math.abs(stored[0]! - srgb.r)).toBeGreaterThan(5);
    const photo = await processor.processPhoto(input);
    for (const image of [photo.original, photo.display, photo.medium, photo.thumbnail]) {
      expect((await sharp(image.data).metadata()).icc).toBeUndefined();
      const [r, g, b] = await pixel(image.data, 50, 50);
      expect(Math.max(Math.abs(r - srgb.r), Math.abs(g - srgb.g), Math.abs(b - srgb.b))).toBeLessThanOrEqual(4);
    }
  });

  it('keeps transparency in PNG originals', async () => {
    const input = await sharp({ create: { width: 64, height: 48, channels: 4, background: { r: 40, g: 80, b: 120, alpha: 0.5 } } }).png().toBuffer();
    const photo = await processor.processPhoto(input);
    expect((await sharp(photo.original.data).metadata()).hasAlpha).toBe(true);
  });

  it('reports the SHA-256 of the uploaded bytes, and an ETag of the bytes of each image', async () => {
    const photo = await processor.processPhoto(fixture('photo.png'));
    expect(photo.sha256).toBe(sha256(fixture('photo.png')));
    for (const image of [photo.original, photo.display, photo.medium, photo.thumbnail]) expect(image.etag).toBe(sha256(image.data).slice(0, 32));
  });

  it('gives a resized, re-encoded copy a nearby perceptual hash and a different picture a distant one', async () => {
    const original = fixture('photo.png');
    const copy = await sharp(original).resize(200).jpeg({ quality: 60 }).toBuffer();
    const [a, b, other] = await Promise.all([original, copy, fixture('photo.webp')].map((input) => processor.processPhoto(input)));
    expect(a!.perceptualHash).toMatch(/^[0-9a-f]{16}$/);
    expect(hammingDistance(a!.perceptualHash, b!.perceptualHash)).toBeLessThanOrEqual(6);
    expect(hammingDistance(a!.perceptualHash, other!.perceptualHash)).toBeGreaterThan(20);
  });

  it('refuses files that are not images whatever their name', async () => {
    await expectRefused(processor.processPhoto(fixture('html.jpg')));
    await expectRefused(processor.processPhoto(fixture('pdf.jpg')));
    await expectRefused(processor.processPhoto(Buffer.alloc(0)));
    await expectRefused(processor.processPhoto(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')));
  });

  it('refuses a truncated JPEG', async () => {
    const error = await expectRefused(processor.processPhoto(fixture('truncated.jpg')));
    expect(String((error.cause as Error).message)).toMatch(/premature end/i);
  });

  it('refuses a decompression bomb before decoding it', async () => {
    const bomb = decompressionBomb(20_000, 20_000);
    expect(bomb.length).toBeLessThan(100_000);
    const error = await processor.processPhoto(bomb).catch((refusal: unknown) => refusal);
    expect(error).toBeInstanceOf(ImageTooLargeError);
    expect(String(((error as Error).cause as Error).message)).toMatch(/pixel limit/i);
  });

  it('refuses an image over maxInputPixels with a message naming the limit, a HEIC from its header before decoding it', async () => {
    const strict = testProcessor({ maxInputPixels: 2_000_000, maxThreads: 1 });
    try {
      const png = await strict.processPhoto(await generatedPhoto(2000, 1001, 'png')).catch((error: unknown) => error);
      expect(png).toBeInstanceOf(ImageTooLargeError);
      expect((png as Error).message).toBe('Photos of up to 2 megapixels are accepted. Please upload a smaller version of this photo.');
      expect(((png as Error).cause as Error).message).toMatch(/pixel limit/);
      // Its own size is fine.
      expect((await strict.processPhoto(await generatedPhoto(2000, 1000))).original.width).toBe(2000);
    } finally {
      await strict.close();
    }
    const tiny = testProcessor({ maxInputPixels: 320 * 240 - 1, maxThreads: 1 });
    try {
      const heic = await tiny.processPhoto(fixture('photo.heic')).catch((error: unknown) => error);
      expect(heic).toBeInstanceOf(ImageTooLargeError);
      // Refused on this thread, from the header: never queued for the decoder, whose own check says "exceeds".
      expect(((heic as Error).cause as Error).message).toBe('the HEIF file declares a 320x240 image, over the pixel limit');
    } finally {
      await tiny.close();
    }
  });

  it('refuses uploads over 10 MiB unread', async () => {
    const huge = Buffer.concat([fixture('rotated-gps.jpg'), Buffer.alloc(10 * 1024 * 1024)]);
    await expectRefused(processor.processPhoto(huge));
  });

  it('leaves the event loop free while it works', async () => {
    const input = await generatedPhoto(3000, 2000);
    // Something for the loop to do meanwhile, as the gRPC server would have.
    const timer = setInterval(() => undefined, 5);
    const before = performance.eventLoopUtilization();
    try {
      await Promise.all([processor.processPhoto(input), processor.processPhoto(fixture('photo.heic'))]);
    } finally {
      clearInterval(timer);
    }
    // Utilisation, not wall-clock gaps: on a busy machine the OS may stall this thread for a while, but it
    // is then idle (waiting), not busy decoding.
    expect(performance.eventLoopUtilization(before).utilization).toBeLessThan(0.5);
  });
});

describe('ImageProcessor.renderDerivatives', { timeout: 30_000 }, () => {
  it('re-renders display, medium and thumbnail from a stored original with new bars', async () => {
    const photo = await processor.processPhoto(fixture('rotated-gps.jpg'));
    const rendered = await processor.renderDerivatives(photo.original.data, [{ x: 75, y: 0, width: 25, height: 25 }], ['display', 'medium', 'thumbnail']);
    expect(Object.keys(rendered).sort()).toEqual(['display', 'medium', 'thumbnail']);
    for (const image of [rendered.display, rendered.medium, rendered.thumbnail]) {
      expect(image.contentType).toBe('image/webp');
      expect([image.width, image.height]).toEqual([240, 160]);
      expect(isBlack(await pixel(image.data, 90, 10))).toBe(true);
      expect(isBlack(await pixel(image.data, 10, 10))).toBe(false);
      expect(await metadataLeftIn(image.data)).toEqual([]);
    }
  });

  it('renders the medium image alone, 960 px on its long edge, with the bars burned in at its own size and no metadata', async () => {
    const input = await generatedPhoto(4000, 3000);
    const stored = await processor.processPhoto(input);
    const bars = [{ x: 10, y: 20, width: 30, height: 40 }];
    const rendered = await processor.renderDerivatives(stored.original.data, bars, ['medium']);
    expect(Object.keys(rendered)).toEqual(['medium']);
    const { medium } = rendered;
    expect([medium.contentType, medium.width, medium.height]).toEqual(['image/webp', 960, 720]);
    const meta = await sharp(medium.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 960, 720]);
    expect(await metadataLeftIn(medium.data)).toEqual([]);
    expect(medium.etag).toBe(sha256(medium.data).slice(0, 32));
    // The bar covers 10–40 % across and 20–60 % down, to its edges; around it is the photo (percentages of the image).
    for (const [x, y] of [[10.1, 20.1], [25, 40], [39.9, 59.9]] as const) expect(isBlack(await pixel(medium.data, x, y)), `${x},${y}`).toBe(true);
    for (const [x, y] of [[9, 40], [41, 40], [25, 19], [25, 61]] as const) expect(isBlack(await pixel(medium.data, x, y)), `${x},${y}`).toBe(false);
  });

  it('makes the same medium image from the original as an upload makes from its display image', async () => {
    const input = await generatedPhoto(3000, 2000);
    const bars = [{ x: 50, y: 50, width: 20, height: 20 }];
    const uploaded = await processor.processPhoto(input, bars);
    const { medium } = await processor.renderDerivatives(uploaded.original.data, bars, ['medium']);
    expect([medium.width, medium.height]).toEqual([uploaded.medium.width, uploaded.medium.height]);
    for (const [x, y] of [[55, 55], [65, 65], [10, 10], [90, 90]] as const) {
      expect(isBlack(await pixel(medium.data, x, y)), `${x},${y}`).toBe(isBlack(await pixel(uploaded.medium.data, x, y)));
    }
  });

  it('refuses what is not a stored original', async () => {
    await expectRefused(processor.renderDerivatives(fixture('photo.heic'), [], ['display', 'medium', 'thumbnail']));
    await expectRefused(processor.renderDerivatives(fixture('html.jpg'), [], ['medium']));
  });
});

describe('ImageProcessor.processAvatar', { timeout: 30_000 }, () => {
  it('centre-crops to a 256 px square WebP without metadata', async () => {
    const input = await generatedPhoto(1200, 800);
    const avatar = await processor.processAvatar(input);
    expect([avatar.width, avatar.height, avatar.contentType, avatar.sourceMimeType]).toEqual([256, 256, 'image/webp', 'image/jpeg']);
    expect([avatar.sha256, avatar.etag]).toEqual([sha256(input), sha256(avatar.data).slice(0, 32)]);
    const meta = await sharp(avatar.data).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', 256, 256]);
  });

  it('turns a rotated photo upright, strips its metadata and brings a small picture to 256 px', async () => {
    const avatar = await processor.processAvatar(fixture('rotated-gps.jpg'));
    expect([avatar.width, avatar.height]).toEqual([256, 256]);
    expect(await metadataLeftIn(avatar.data)).toEqual([]);
    // The centre square of the upright 240x160 picture (x 40..200), scaled by 1.6: red left of x 80 in the
    // top half (scaled 128), green right of it, blue below.
    expect(await pixel(avatar.data, 20, 20)).toSatisfy(([r, g]: number[]) => r! > 200 && g! < 60);
    expect(await pixel(avatar.data, 200, 20)).toSatisfy(([r, g]: number[]) => r! < 60 && g! > 200);
    expect(await pixel(avatar.data, 128, 220)).toSatisfy(([r, g, b]: number[]) => r! < 60 && g! < 60 && b! > 200);
    const png = await processor.processAvatar(fixture('photo.png'));
    expect(png.sourceMimeType).toBe('image/png');
  });

  it('accepts only JPEG and PNG', async () => {
    await expectRefused(processor.processAvatar(fixture('photo.webp')));
    await expectRefused(processor.processAvatar(fixture('photo.heic')));
    await expectRefused(processor.processAvatar(fixture('html.jpg')));
    await expectRefused(processor.processAvatar(fixture('truncated.jpg')));
  });
});

describe('ImageProcessor.countFaces', { timeout: 60_000 }, () => {
  // face-api's own demo photograph (shipped in its npm package): people facing the camera.
  const portrait = () => readFileSync(createRequire(import.meta.url).resolve('@vladmandic/face-api/demo/sample2.jpg'));

  it('finds the faces in an avatar, and none in a picture of a crack, well within a second once warm', async () => {
    const faces = await processor.processAvatar(portrait());
    expect(await processor.countFaces(faces.data, 30_000)).toBeGreaterThan(0);
    const crack = await processor.processAvatar(await generatedPhoto(800, 600));
    const started = performance.now();
    expect(await processor.countFaces(crack.data)).toBe(0);
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('answers undefined rather than failing when the detector cannot answer', async () => {
    expect(await processor.countFaces(Buffer.from('not an image'))).toBeUndefined();
    expect(await processor.countFaces((await processor.processAvatar(portrait())).data, 0)).toBeUndefined();
  });
});

describe('the worker under tsx, as `pnpm start` and the production image run it', () => {
  let output: string;
  beforeAll(async () => {
    const module = new URL('./index.ts', import.meta.url).href;
    const input = fileURLToPath(new URL('../../test/fixtures/rotated-gps.jpg', import.meta.url));
    const script = `
      import { readFileSync } from 'node:fs';
      const { ImageProcessor } = await import(${JSON.stringify(module)});
      const processor = new ImageProcessor({ niceness: 0 }); // as testProcessor(), see test-images.ts
      const photo = await processor.processPhoto(readFileSync(${JSON.stringify(input)}));
      await processor.close();
      console.log(JSON.stringify({ width: photo.original.width, height: photo.original.height, type: photo.display.contentType }));`;
    const root = fileURLToPath(new URL('../../../..', import.meta.url));
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { cwd: root });
    output = stdout;
  }, 30_000);

  it('processes a photo', () => {
    expect(JSON.parse(output)).toEqual({ width: 240, height: 160, type: 'image/webp' });
  });
});
