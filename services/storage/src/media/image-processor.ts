import { UPLOAD } from '@snapcracks/http-contract';

import { performance } from 'node:perf_hooks';
import { instruments, onEveryProvider } from '@snapcracks/kit';
import { FaceDetectionUnavailableError, ImageTooLargeError, UnsupportedImageError } from './errors.js';
import { faceBoxesToBars } from './face-bars.js';
import { IMAGE_WORK_NICENESS } from './background-priority.js';
import { FairQueue } from './fair-queue.js';
import { heicDeclaredSize } from './heic-dimensions.js';
import { DEFAULT_MAX_INPUT_PIXELS, DEFAULT_MAX_QUEUED, DEFAULT_MAX_QUEUED_PER_MEMBER } from './image-limits.js';
import type { MediaPoolName } from './media-pools.js';
import { startMediaProcess, type MediaProcess } from './media-process.js';
import type { MediaOutputs, MediaResult, MediaTask } from './protocol.js';
import { sniffImageType } from '@snapcracks/kit';
import type { DerivativeKind, EncodedImage, PrivacyBar, ProcessedPhoto } from './types.js';

export interface ImageProcessorOptions {
  /** Images processed at once, each on its own worker thread. Default 2. */
  maxThreads?: number;
  /**
   * Larger images (width × height) are refused from their header, before they are decoded (ImageTooLargeError).
   * Default DEFAULT_MAX_INPUT_PIXELS: a full-size decode costs 3–4 bytes a pixel several times over, 10–13 for HEIC.
   */
  maxInputPixels?: number;
  /** Images waiting for a media thread at most, everyone's together; one more is refused (ImageQueueFullError). Default 32. */
  maxQueued?: number;
  /** Images one member may have waiting at most (default 4), so that no member fills the queue for the others. */
  maxQueuedPerMember?: number;
  /** Larger uploads are refused unread. Default 10 MiB, what the refusal message promises. */
  maxInputBytes?: number;
  /** The media process's niceness (Linux CPU priority, 0–19). Default IMAGE_WORK_NICENESS. */
  niceness?: number;
}

/**
 * The storage service's only way to touch image bytes. All decoding and encoding happens on worker
 * threads of the media process (media-process.ts), at background priority, so a 12 MP photo never stalls
 * the event loop that answers gRPC nor takes the cores from it; this thread only sniffs a few bytes and
 * hands the upload over.
 */
export class ImageProcessor {
  private readonly media: MediaProcess;
  // Members' images wait for a media thread in turns (fair-queue.ts): one member's burst never makes another's
  // photo wait behind all of it, background work (a backfill: no member) waits behind every member's, and a full
  // queue refuses at once. `member` below is the member the work is for, undefined for background work.
  private readonly queue: FairQueue;
  // HEIC photos wait for one another here, not while holding one of the shared slots: two HEIC uploads
  // must not stall every JPEG behind the one HEIC thread.
  private readonly heicQueue: FairQueue;
  private readonly maxInputPixels: number;
  private readonly maxInputBytes: number;

  constructor(options: ImageProcessorOptions = {}) {
    const maxThreads = options.maxThreads ?? 2;
    if (!Number.isInteger(maxThreads) || maxThreads < 1) throw new RangeError('maxThreads must be a positive integer');
    this.maxInputPixels = options.maxInputPixels ?? DEFAULT_MAX_INPUT_PIXELS;
    this.maxInputBytes = options.maxInputBytes ?? UPLOAD.maxBytes;
    const bounds = { maxWaiting: options.maxQueued ?? DEFAULT_MAX_QUEUED, maxWaitingPerMember: options.maxQueuedPerMember ?? DEFAULT_MAX_QUEUED_PER_MEMBER };
    // With two threads or more, one member holds all but one of them at most: another member's photo starts at once
    // instead of waiting for the end of a large one (a task cannot be interrupted).
    this.queue = new FairQueue({ slots: maxThreads, maxRunningPerMember: Math.max(1, maxThreads - 1), ...bounds });
    this.heicQueue = new FairQueue({ slots: 1, ...bounds });
    this.media = startMediaProcess({ maxThreads, niceness: options.niceness ?? IMAGE_WORK_NICENESS });
    processors.add(this);
  }

  /** Images waiting for a media thread (snapcracks.image.queue.depth). */
  get queued(): number {
    return this.queue.waiting + this.heicQueue.waiting;
  }

  /** The media process's id while it runs (for tests and diagnostics). */
  get mediaProcessId(): number | undefined {
    return this.media.pid;
  }

  async processPhoto(input: Buffer, bars: PrivacyBar[] = [], member?: string): Promise<ProcessedPhoto> {
    const sourceMimeType = this.accept(input, ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']);
    const heic = sourceMimeType === 'image/heic' || sourceMimeType === 'image/heif';
    if (heic) this.refuseLargeHeic(input);
    const task = { kind: 'photo', input, sourceMimeType, bars, maxInputPixels: this.maxInputPixels } as const;
    const photo = heic ? await this.heicQueue.run(member, () => this.run('heic', task, member)) : await this.run('images', task, member);
    return {
      ...photo,
      original: asBuffers(photo.original),
      display: asBuffers(photo.display),
      medium: asBuffers(photo.medium),
      thumbnail: asBuffers(photo.thumbnail),
    };
  }

  /** The derivatives `kinds` of a stored original with `bars` burned in, from one decode of it. */
  async renderDerivatives<K extends DerivativeKind>(original: Buffer, bars: PrivacyBar[], kinds: readonly K[], member?: string): Promise<Record<K, EncodedImage>> {
    // Stored originals are always JPEG, PNG or WebP (processPhoto re-encodes HEIC to JPEG).
    this.accept(original, ['image/jpeg', 'image/png', 'image/webp']);
    if (kinds.length === 0) throw new RangeError('No derivative asked for');
    const result = await this.run('images', { kind: 'derivatives', input: original, bars, derivatives: [...kinds], maxInputPixels: this.maxInputPixels }, member);
    const rendered: Partial<Record<K, EncodedImage>> = {};
    for (const kind of kinds) {
      const image = result[kind];
      if (!image) throw new Error(`The media process answered without the ${kind} image`);
      rendered[kind] = asBuffers(image);
    }
    return rendered as Record<K, EncodedImage>;
  }

  async processAvatar(input: Buffer, member?: string): Promise<EncodedImage & { sourceMimeType: string; sha256: string }> {
    this.accept(input, ['image/jpeg', 'image/png']);
    return asBuffers(await this.run('images', { kind: 'avatar', input, maxInputPixels: this.maxInputPixels }, member));
  }

  /**
   * Faces in an avatar this processor made (a 256 px WebP), or undefined when the detector did not answer within
   * `timeoutMs` (a cold thread loads the model first), failed, or is busy: the count is a hint, never worth failing
   * or stalling an upload for.
   */
  async countFaces(avatar: Buffer, timeoutMs = 3_000): Promise<number | undefined> {
    try {
      const result = await timed('faces', this.media.run('faces', { kind: 'faces', input: avatar, maxInputPixels: this.maxInputPixels }, timeoutMs));
      return result.ok ? result.value : undefined;
    } catch {
      return undefined;
    }
  }

  /**
   * Privacy bars over the faces in a photo (JPEG, PNG or WebP), for a member who asked for them and is waiting:
   * unlike the avatar hint, a detector that does not answer within `timeoutMs` (a cold thread first loads
   * the model, ~3 s), fails or is busy is an error the member is told about (FaceDetectionUnavailableError).
   */
  async suggestFaceBars(image: Buffer, timeoutMs = 15_000): Promise<PrivacyBar[]> {
    this.accept(image, ['image/jpeg', 'image/png', 'image/webp']);
    let result: MediaResult<'face-boxes'>;
    try {
      result = await timed('face-boxes', this.media.run('faces', { kind: 'face-boxes', input: image, maxInputPixels: this.maxInputPixels }, timeoutMs));
    } catch (error) {
      throw new FaceDetectionUnavailableError({ cause: error });
    }
    // The worker answers "unsupported" for bytes that do not decode (sharp failed on them).
    if (!result.ok) throw new UnsupportedImageError({ cause: new Error(result.cause) });
    return faceBoxesToBars(result.value);
  }

  async close(): Promise<void> {
    processors.delete(this);
    await this.media.close();
  }

  private accept<T extends string>(input: Buffer, types: readonly T[]): T {
    const type = sniffImageType(input);
    if (input.byteLength > this.maxInputBytes || !type || !(types as readonly string[]).includes(type)) {
      throw new UnsupportedImageError();
    }
    return type as T;
  }

  /**
   * A HEIC file whose header declares an image over the pixel limit is refused here, before it is queued for or
   * copied into the HEIC decoder: a few kB can declare hundreds of megapixels, and the decoder's memory only grows.
   */
  private refuseLargeHeic(input: Buffer): void {
    const declared = heicDeclaredSize(input);
    if (declared && declared.width * declared.height > this.maxInputPixels) {
      throw new ImageTooLargeError(this.maxInputPixels, { cause: new Error(`the HEIF file declares a ${declared.width}x${declared.height} image, over the pixel limit`) });
    }
  }

  private async run<K extends MediaTask['kind']>(pool: MediaPoolName, task: MediaTask & { kind: K }, member: string | undefined): Promise<MediaOutputs[K]> {
    // Timed once it holds a slot: the wait before shows in the queue depth.
    const result = await this.queue.run(member, () => timed(pool === 'heic' ? 'heic' : task.kind, this.media.run<K>(pool, task)));
    if (!result.ok && result.tooLarge) throw new ImageTooLargeError(this.maxInputPixels, { cause: new Error(result.cause) });
    if (!result.ok) throw new UnsupportedImageError({ cause: new Error(result.cause) });
    return result.value;
  }
}

const processors = new Set<ImageProcessor>();

onEveryProvider((meter) => {
  meter
    .createObservableGauge('snapcracks.image.queue.depth', { description: 'Images waiting for a media thread', unit: '{image}' })
    .addCallback((result) => {
      let queued = 0;
      for (const processor of processors) queued += processor.queued;
      result.observe(queued, STORAGE);
    });
});

const STORAGE = { component: 'storage' };
const KINDS = new Map<string, { component: string; kind: string }>();

/** Records how long `work` took on a media thread, by kind: photo, heic (a HEIC photo), derivatives, avatar, faces, face-boxes. */
function timed<T>(kind: string, work: Promise<T>): Promise<T> {
  const startedAt = performance.now();
  let attributes = KINDS.get(kind);
  if (!attributes) KINDS.set(kind, (attributes = { component: 'storage', kind }));
  const record = () => instruments().imageProcessing.record((performance.now() - startedAt) / 1000, attributes);
  return work.finally(record);
}

/** Buffers arrive from the media process as plain Uint8Arrays; wrap them again without copying. */
function asBuffers<T extends EncodedImage>(image: T): T {
  const { data } = image;
  return { ...image, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
}
