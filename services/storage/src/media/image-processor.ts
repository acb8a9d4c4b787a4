import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { FaceDetectionUnavailableError, UnsupportedImageError } from './errors.js';
import { faceBoxesToBars } from './face-bars.js';
import { Limiter } from './limiter.js';
import type { MediaOutputs, MediaResult, MediaTask } from './protocol.js';
import { sniffImageType } from './sniff.js';
import type { EncodedImage, PrivacyBar, ProcessedPhoto } from './types.js';

export interface ImageProcessorOptions {
  /** Images processed at once, each on its own worker thread. Default 2. */
  maxThreads?: number;
  /** Larger images (width × height) are refused before they are decoded. Default 100 000 000. */
  maxInputPixels?: number;
  /** Larger uploads are refused unread. Default 10 MiB, what the refusal message promises. */
  maxInputBytes?: number;
}

const WORKER = fileURLToPath(new URL('./worker-entry.mjs', import.meta.url));

/**
 * Worker threads inherit the process's Node flags (memory limits, source maps, loaders). Flags about
 * the main script of `node -e '…'` (as the image build's import check runs) would make every worker
 * refuse to start, so those are left out.
 */
function workerExecArgv(): string[] {
  const args: string[] = [];
  for (let i = 0; i < process.execArgv.length; i++) {
    const arg = process.execArgv[i]!;
    if (['-e', '--eval', '-p', '--print', '--input-type'].includes(arg)) i++;
    else if (!arg.startsWith('--input-type=') && !arg.startsWith('--eval=') && !arg.startsWith('--print=')) args.push(arg);
  }
  return args;
}

/**
 * The storage service's only way to touch image bytes. All decoding and encoding happens on worker
 * threads, so a 12 MP photo never stalls the event loop that answers gRPC; this thread only sniffs a
 * few bytes and copies the upload once for transfer.
 */
export class ImageProcessor {
  private readonly pool: Piscina;
  // HEIC decoding is synchronous WebAssembly peaking at hundreds of MB, and a WebAssembly heap never
  // shrinks: one thread does it, one photo at a time, and exits when idle to give that memory back.
  private readonly heicPool: Piscina;
  // Face detection (TensorFlow.js on WebAssembly, ~200 MB once loaded) gets one thread of its own, which exits
  // when idle; its tasks never hold one of the shared slots.
  private readonly facePool: Piscina;
  private readonly limiter: Limiter;
  // HEIC photos wait for one another here, not while holding one of the shared slots: two HEIC uploads
  // must not stall every JPEG behind the one HEIC thread.
  private readonly heicQueue = new Limiter(1);
  private readonly maxInputPixels: number;
  private readonly maxInputBytes: number;

  constructor(options: ImageProcessorOptions = {}) {
    const maxThreads = options.maxThreads ?? 2;
    if (!Number.isInteger(maxThreads) || maxThreads < 1) throw new RangeError('maxThreads must be a positive integer');
    this.maxInputPixels = options.maxInputPixels ?? 100_000_000;
    this.maxInputBytes = options.maxInputBytes ?? 10 * 1024 * 1024;
    this.limiter = new Limiter(maxThreads);
    // One thread stays warm (loading tsx and sharp takes a few hundred ms); the others come and go.
    const execArgv = workerExecArgv();
    this.pool = new Piscina({ filename: WORKER, execArgv, minThreads: 1, maxThreads, idleTimeout: 60_000 });
    this.heicPool = new Piscina({ filename: WORKER, execArgv, minThreads: 0, maxThreads: 1, idleTimeout: 10_000 });
    this.facePool = new Piscina({ filename: WORKER, execArgv, minThreads: 0, maxThreads: 1, maxQueue: 8, idleTimeout: 60_000 });
  }

  async processPhoto(input: Buffer, bars: PrivacyBar[] = []): Promise<ProcessedPhoto> {
    const sourceMimeType = this.accept(input, ['image/jpeg', 'image/png', 'image/webp', 'image/heic', 'image/heif']);
    const heic = sourceMimeType === 'image/heic' || sourceMimeType === 'image/heif';
    const task = { kind: 'photo', input: transferable(input), sourceMimeType, bars, maxInputPixels: this.maxInputPixels } as const;
    const photo = heic ? await this.heicQueue.run(() => this.run(this.heicPool, task)) : await this.run(this.pool, task);
    return { ...photo, original: asBuffers(photo.original), display: asBuffers(photo.display), thumbnail: asBuffers(photo.thumbnail) };
  }

  async renderDerivatives(original: Buffer, bars: PrivacyBar[]): Promise<{ display: EncodedImage; thumbnail: EncodedImage }> {
    // Stored originals are always JPEG, PNG or WebP (processPhoto re-encodes HEIC to JPEG).
    this.accept(original, ['image/jpeg', 'image/png', 'image/webp']);
    const result = await this.run(this.pool, { kind: 'derivatives', input: transferable(original), bars, maxInputPixels: this.maxInputPixels });
    return { display: asBuffers(result.display), thumbnail: asBuffers(result.thumbnail) };
  }

  async processAvatar(input: Buffer): Promise<EncodedImage & { sourceMimeType: string }> {
    this.accept(input, ['image/jpeg', 'image/png']);
    return asBuffers(await this.run(this.pool, { kind: 'avatar', input: transferable(input), maxInputPixels: this.maxInputPixels }));
  }

  /**
   * Faces in an avatar this processor made (a 256 px WebP), or undefined when the detector did not answer within
   * `timeoutMs` (a cold thread loads the model first), failed, or is busy: the count is a hint, never worth failing
   * or stalling an upload for.
   */
  async countFaces(avatar: Buffer, timeoutMs = 3_000): Promise<number | undefined> {
    try {
      const input = transferable(avatar);
      const result: MediaResult<'faces'> = await this.facePool.run(
        { kind: 'faces', input, maxInputPixels: this.maxInputPixels } satisfies MediaTask,
        { transferList: [input.buffer as ArrayBuffer], signal: AbortSignal.timeout(timeoutMs) },
      );
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
    const input = transferable(image);
    let result: MediaResult<'face-boxes'>;
    try {
      result = await this.facePool.run({ kind: 'face-boxes', input, maxInputPixels: this.maxInputPixels } satisfies MediaTask, {
        transferList: [input.buffer as ArrayBuffer],
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (error) {
      throw new FaceDetectionUnavailableError({ cause: error });
    }
    // The worker answers "unsupported" for bytes that do not decode (sharp failed on them).
    if (!result.ok) throw new UnsupportedImageError({ cause: new Error(result.cause) });
    return faceBoxesToBars(result.value);
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.destroy(), this.heicPool.destroy(), this.facePool.destroy()]);
  }

  private accept<T extends string>(input: Buffer, types: readonly T[]): T {
    const type = sniffImageType(input);
    if (input.byteLength > this.maxInputBytes || !type || !(types as readonly string[]).includes(type)) {
      throw new UnsupportedImageError();
    }
    return type as T;
  }

  private async run<K extends MediaTask['kind']>(pool: Piscina, task: MediaTask & { kind: K }): Promise<MediaOutputs[K]> {
    const result: MediaResult<K> = await this.limiter.run(() => pool.run(task, { transferList: [task.input.buffer as ArrayBuffer] }));
    if (!result.ok) throw new UnsupportedImageError({ cause: new Error(result.cause) });
    return result.value;
  }
}

/**
 * A private copy of the upload in an ArrayBuffer of its own, which is then moved (not cloned) to the
 * worker. Transferring the caller's buffer instead would empty it under the caller, or, for a Buffer
 * sliced from a larger one, take (or clone) all of its neighbours.
 */
function transferable(input: Buffer): Uint8Array {
  const copy = new Uint8Array(input.byteLength);
  copy.set(input);
  return copy;
}

/** Buffers arrive from a worker as plain Uint8Arrays; wrap them again without copying. */
function asBuffers<T extends EncodedImage>(image: T): T {
  const { data } = image;
  return { ...image, data: Buffer.from(data.buffer, data.byteOffset, data.byteLength) };
}
