import { AVATAR, DATA_EXPORT, FACE_SUGGESTIONS, UPLOAD, privacyBarsProblem } from '@snapcracks/http-contract';
import { createHash, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { DomainError, InvalidArgumentError, NotFoundError, UnavailableError, sniffImageType, type Logger } from '@snapcracks/kit';
import { isStorageType, type Backends, type BlobBackend } from './backends/index.js';
import type { Blob, BlobCursor, BlobRepository } from './blob.repository.js';
import type { DriveAuthorization } from './drive-authorization.js';
import {
  DERIVATIVE_KINDS,
  FaceDetectionUnavailableError,
  ImageQueueFullError,
  UnsupportedImageError,
  type DerivativeKind,
  type EncodedImage,
  type ImageProcessor,
  type PrivacyBar,
} from './media/index.js';

/** The spec's words for anything we will not take: not an image, or larger than the limit. */
export const UPLOAD_REFUSED = UPLOAD.refused;
export const MAX_UPLOAD_BYTES = UPLOAD.maxBytes;
/** Avatars: JPEG or PNG (the avatar picker's types), 5 MB at most. */
export const AVATAR_REFUSED = AVATAR.refused;
export const MAX_AVATAR_BYTES = AVATAR.maxBytes;
/**
 * Face suggestions read a copy the browser scaled down (1,600 px at most, a few hundred kB). The limit keeps the
 * request inside one gRPC message (4 MB by default) and one request from holding much memory.
 */
export const FACE_SUGGESTIONS_REFUSED = FACE_SUGGESTIONS.refused;
export const MAX_FACE_SUGGESTION_BYTES = FACE_SUGGESTIONS.maxBytes;
const AVATAR_NAME = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.webp$/;
/** A member's export: a zip of at most DATA_EXPORT.maxBytes, named by its export id. */
export const MAX_EXPORT_BYTES = DATA_EXPORT.maxBytes;
export const EXPORT_TOO_LARGE = DATA_EXPORT.tooLarge;
const EXPORT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Where exports live on every backend: never a photo's or an avatar's path, so no cleanup takes one for an orphan. */
export const EXPORT_PREFIX = 'exports/';
/** Enough of the file to recognise every accepted format (the HEIF ftyp box included). */
const SNIFF_BYTES = 256;

export type ImagePurpose = 'photo' | 'avatar';
export type ImageWork = Pick<ImageProcessor, 'processPhoto' | 'renderDerivatives' | 'processAvatar'> &
  Partial<Pick<ImageProcessor, 'countFaces' | 'suggestFaceBars'>>;

export interface StoredAvatar {
  blob: Blob;
  /** The file name under avatars/, as custom_profile_image holds it. */
  name: string;
  sourceMimeType: string;
  facesDetected?: number | undefined;
}

export interface StoredImageResult {
  original: Blob;
  display?: Blob;
  medium?: Blob;
  thumbnail?: Blob;
  width: number;
  height: number;
  sourceMimeType: string;
  sourceSize: number;
  contentSha256: string;
  perceptualHash: string;
}

/** A full image queue is UNAVAILABLE with its message (the gateway answers 503 with Retry-After); anything else as it is. */
function busyOr(error: unknown): unknown {
  return error instanceof ImageQueueFullError ? new UnavailableError(error.message) : error;
}

/** The same rule as every other layer's (the contract's): images are never drawn with bars a photo may not have. */
function checkBars(bars: PrivacyBar[]): PrivacyBar[] {
  const problem = privacyBarsProblem(bars);
  if (problem) throw new InvalidArgumentError(problem);
  return bars;
}

/**
 * The storage rules: images are cleaned and stored with their derivatives, every blob is recorded in the blobs
 * table before its bytes are written (so no bytes ever exist that no row knows of), a failed store removes what
 * it wrote, and a blob is always read from and deleted in the backend it was written to.
 */
export class StorageService {
  constructor(
    private readonly blobs: BlobRepository,
    private readonly backends: Backends,
    private readonly images: ImageWork,
    private readonly drive: DriveAuthorization,
    private readonly logger: Logger,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /**
   * Reads an upload (at most 10 MB), refusing a non-image as soon as its first bytes are in, and stores it: a
   * photo as its original, display, medium and thumbnail images; an avatar as one image. `member` is whom the image
   * work is for: members' work is queued in turns (media/fair-queue.ts).
   */
  async storeImage(purpose: ImagePurpose | undefined, rawBars: PrivacyBar[], chunks: AsyncIterable<Buffer>, member?: string): Promise<StoredImageResult> {
    if (!purpose) throw new InvalidArgumentError('The image purpose is required');
    const bars = purpose === 'photo' ? checkBars(rawBars) : [];
    const data = await readImageUpload(chunks, MAX_UPLOAD_BYTES, UPLOAD_REFUSED);
    const sourceSize = data.byteLength;
    try {
      if (purpose === 'avatar') {
        const avatar = await this.images.processAvatar(data, member);
        const [original] = await this.storeAll([[`avatars/${randomUUID()}${extensionOf(avatar.contentType)}`, avatar]]);
        return {
          original: original!,
          width: avatar.width,
          height: avatar.height,
          sourceMimeType: avatar.sourceMimeType,
          sourceSize,
          contentSha256: avatar.sha256,
          perceptualHash: '',
        };
      }
      const photo = await this.images.processPhoto(data, bars, member);
      const base = `${this.monthPrefix()}/${randomUUID()}`;
      const [original, display, medium, thumbnail] = await this.storeAll([
        [`${base}-original${extensionOf(photo.original.contentType)}`, photo.original],
        [`${base}${DERIVATIVE_SUFFIXES.display}${extensionOf(photo.display.contentType)}`, photo.display],
        [`${base}${DERIVATIVE_SUFFIXES.medium}${extensionOf(photo.medium.contentType)}`, photo.medium],
        [`${base}${DERIVATIVE_SUFFIXES.thumbnail}${extensionOf(photo.thumbnail.contentType)}`, photo.thumbnail],
      ]);
      return {
        original: original!,
        display: display!,
        medium: medium!,
        thumbnail: thumbnail!,
        width: photo.original.width,
        height: photo.original.height,
        sourceMimeType: photo.sourceMimeType,
        sourceSize,
        contentSha256: photo.sha256,
        perceptualHash: photo.perceptualHash,
      };
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new InvalidArgumentError(error.message);
      throw busyOr(error);
    }
  }

  /**
   * A member's new avatar: a JPEG or PNG of at most 5 MB, refused from its first bytes otherwise, made a 256 px
   * square WebP without metadata and stored as `avatars/<uuid>.webp`, with the faces found in it when the detector
   * answers in time.
   */
  async storeAvatar(chunks: AsyncIterable<Buffer>, member?: string): Promise<StoredAvatar> {
    const data = await readImageUpload(chunks, MAX_AVATAR_BYTES, AVATAR_REFUSED, ['image/jpeg', 'image/png']);
    let avatar;
    try {
      avatar = await this.images.processAvatar(data, member);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new InvalidArgumentError(AVATAR_REFUSED);
      throw busyOr(error);
    }
    const name = `${randomUUID()}${extensionOf(avatar.contentType)}`;
    const [facesDetected, [blob]] = await Promise.all([this.images.countFaces?.(avatar.data), this.storeAll([[`avatars/${name}`, avatar]])]);
    return { blob: blob!, name, sourceMimeType: avatar.sourceMimeType, facesDetected };
  }

  /**
   * Privacy bars over the faces in a photo a member is about to upload (the bytes are read and forgotten). A
   * detector that is slow, busy or failing is UNAVAILABLE, so the member hears to try again.
   */
  async suggestFaceBars(image: Buffer): Promise<PrivacyBar[]> {
    if (image.byteLength === 0 || image.byteLength > MAX_FACE_SUGGESTION_BYTES) throw new InvalidArgumentError(FACE_SUGGESTIONS_REFUSED);
    if (!this.images.suggestFaceBars) throw new UnavailableError(new FaceDetectionUnavailableError().message);
    try {
      return await this.images.suggestFaceBars(image);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new InvalidArgumentError(FACE_SUGGESTIONS_REFUSED);
      if (error instanceof FaceDetectionUnavailableError) {
        this.logger.warn({ err: error.cause }, 'face detection for suggestions did not answer');
        throw new UnavailableError(error.message);
      }
      throw error;
    }
  }

  /**
   * A member's export, streamed in as the gateway writes it and never held whole: `exports/<export id>.zip` in the
   * current backend, its row first (as every blob's), its size and etag once the last byte is written. An earlier
   * attempt at the same export (a gateway that died while writing it) is replaced. More than `maxBytes` fails with
   * EXPORT_TOO_LARGE, and a failed or cancelled stream leaves nothing.
   */
  async storeExport(exportId: string, chunks: AsyncIterable<Buffer>, maxBytes: number = MAX_EXPORT_BYTES): Promise<Blob> {
    if (!EXPORT_ID.test(exportId)) throw new InvalidArgumentError('Invalid export id');
    const path = `${EXPORT_PREFIX}${exportId}.zip`;
    await this.deleteBlobs(STORAGE_PREFIXES.map((prefix) => `${prefix}:${path}`));
    const backend = this.backends.current();
    const key = `${backend.type}:${path}`;
    const blob = await this.blobs.create({ key, storageType: backend.type, size: 0, contentType: 'application/zip', etag: '' });
    const hash = createHash('sha256');
    let size = 0;
    async function* counted(): AsyncIterable<Buffer> {
      for await (const chunk of chunks) {
        size += chunk.byteLength;
        if (size > maxBytes) throw new InvalidArgumentError(EXPORT_TOO_LARGE);
        hash.update(chunk);
        yield chunk;
      }
    }
    try {
      const { driveFileId } = await backend.putStream(path, Readable.from(counted()), 'application/zip');
      return await this.blobs.finish(key, { size, etag: hash.digest('hex').slice(0, 32), driveFileId });
    } catch (error) {
      await this.removeQuietly(backend, [blob]);
      if (error instanceof DomainError) throw error;
      this.logger.error({ err: error, storageType: backend.type }, 'storing an export failed');
      throw new UnavailableError('The file store is unavailable; please try again');
    }
  }

  /** Deletes `avatars/<name>` on whichever backend holds it; false when there was none. */
  async deleteAvatar(name: string): Promise<boolean> {
    if (!AVATAR_NAME.test(name)) throw new InvalidArgumentError('Invalid avatar name');
    return (await this.deleteBlobs(STORAGE_PREFIXES.map((prefix) => `${prefix}:avatars/${name}`))) > 0;
  }

  /**
   * New blobs of the derivatives `kinds` (all three by default) of a stored original with `bars` burned in, all or
   * none stored; the caller deletes the ones they replace.
   */
  async renderDerivatives<K extends DerivativeKind = DerivativeKind>(
    originalKey: string,
    rawBars: PrivacyBar[],
    kinds: readonly K[] = DERIVATIVE_KINDS as readonly K[],
    member?: string,
  ): Promise<Record<K, Blob>> {
    const bars = checkBars(rawBars);
    const wanted = [...new Set(kinds)];
    if (wanted.length === 0) throw new InvalidArgumentError('No derivative asked for');
    const { content } = await this.open(originalKey);
    const original = await readAll(content.stream, MAX_UPLOAD_BYTES * 4);
    let rendered: Record<K, EncodedImage>;
    try {
      rendered = await this.images.renderDerivatives(original, bars, wanted, member);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw new InvalidArgumentError('The stored original is not a readable image');
      throw busyOr(error);
    }
    const base = `${this.monthPrefix()}/${randomUUID()}`;
    const blobs = await this.storeAll(wanted.map((kind) => [`${base}${DERIVATIVE_SUFFIXES[kind]}${extensionOf(rendered[kind].contentType)}`, rendered[kind]]));
    return Object.fromEntries(wanted.map((kind, index) => [kind, blobs[index]!])) as Record<K, Blob>;
  }

  /**
   * A blob's row and its bytes as a stream from its own backend. NOT_FOUND for an unknown key or missing bytes.
   * A key without its backend (`avatars/….webp`, as public avatar URLs name them) is looked for on every backend.
   */
  async open(key: string): Promise<{ blob: Blob; content: { stream: Readable; size: number } }> {
    const blob = key.includes(':') ? await this.blobs.find(key) : (await this.blobs.findMany(STORAGE_PREFIXES.map((prefix) => `${prefix}:${key}`)))[0];
    if (!blob) throw new NotFoundError('File not found');
    const backend = this.backendOf(blob);
    let content;
    try {
      content = await backend.get({ path: pathOf(blob.key), driveFileId: blob.driveFileId });
    } catch (error) {
      this.logger.error({ err: error, key, storageType: blob.storageType }, 'reading a blob failed');
      throw new UnavailableError('The file store is unavailable; please try again');
    }
    if (!content) {
      this.logger.warn({ key, storageType: blob.storageType }, 'a blob row has no bytes');
      throw new NotFoundError('File not found');
    }
    return { blob, content: { stream: content.stream, size: content.size ?? blob.size } };
  }

  /**
   * Deletes the bytes, then the rows; keys that do not exist are fine. Returns how many existed. With
   * `createdBefore`, a blob created at or after that time is kept and not counted: a cleanup passes the time its
   * candidates were listed against, so a blob written since (an upload in flight) is never touched.
   */
  async deleteBlobs(keys: string[], createdBefore?: Date): Promise<number> {
    const unique = [...new Set(keys)];
    if (unique.length > 1000) throw new InvalidArgumentError('At most 1000 keys at a time');
    const rows = await this.blobs.findMany(unique, createdBefore);
    // Every backend first, so a missing configuration refuses the call before anything is deleted.
    const work = rows.map((blob) => ({ blob, backend: this.backendOf(blob) }));
    const failed: string[] = [];
    await Promise.all(
      work.map(async ({ blob, backend }) => {
        try {
          await backend.delete({ path: pathOf(blob.key), driveFileId: blob.driveFileId });
        } catch (error) {
          this.logger.error({ err: error, key: blob.key }, 'deleting a blob failed');
          failed.push(blob.key);
        }
      }),
    );
    const deleted = await this.blobs.delete(rows.map((r) => r.key).filter((key) => !failed.includes(key)));
    if (failed.length) throw new UnavailableError('The file store is unavailable; some files were not deleted, please try again');
    return deleted;
  }

  /** Oldest first, a page at a time; the token is opaque to callers. */
  async listBlobs(options: { pageToken: string; pageSize: number; createdBefore?: Date | undefined }): Promise<{ blobs: Blob[]; nextPageToken: string }> {
    const limit = options.pageSize > 0 ? Math.min(options.pageSize, 1000) : 100;
    const after = options.pageToken ? decodeCursor(options.pageToken) : undefined;
    const rows = await this.blobs.list({ limit: limit + 1, after, createdBefore: options.createdBefore });
    const page = rows.slice(0, limit);
    const last = page.at(-1);
    return { blobs: page, nextPageToken: rows.length > limit && last ? encodeCursor({ createdAt: last.createdAt, key: last.key }) : '' };
  }

  driveAuthUrl(redirectUri: string): string {
    return this.drive.authUrl(redirectUri);
  }

  exchangeDriveCode(code: string, redirectUri: string): Promise<string> {
    return this.drive.exchangeCode(code, redirectUri);
  }

  /**
   * Stores each part in the current backend; if any fails, removes the parts already stored (bytes and rows)
   * and fails. All or nothing.
   */
  private async storeAll(parts: [path: string, image: EncodedImage][]): Promise<Blob[]> {
    const backend = this.backends.current();
    const results = await Promise.allSettled(parts.map(([path, image]) => this.storeOne(backend, path, image)));
    const stored = results.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : []));
    const failure = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (!failure) return stored;
    await this.removeQuietly(backend, stored);
    this.logger.error({ err: failure.reason, storageType: backend.type }, 'storing a blob failed');
    throw new UnavailableError('The file store is unavailable; please try again');
  }

  /** Row first, then bytes; a failed write removes its row (and anything the backend may have kept). */
  private async storeOne(backend: BlobBackend, path: string, image: EncodedImage): Promise<Blob> {
    const key = `${backend.type}:${path}`;
    let blob = await this.blobs.create({ key, storageType: backend.type, size: image.data.byteLength, contentType: image.contentType, etag: image.etag });
    try {
      const { driveFileId } = await backend.put(path, image.data, image.contentType);
      if (driveFileId) blob = await this.blobs.setDriveFileId(key, driveFileId);
      return blob;
    } catch (error) {
      await this.removeQuietly(backend, [blob]);
      throw error;
    }
  }

  private async removeQuietly(backend: BlobBackend, blobs: Blob[]): Promise<void> {
    for (const blob of blobs) {
      try {
        await backend.delete({ path: pathOf(blob.key), driveFileId: blob.driveFileId });
        await this.blobs.delete([blob.key]);
      } catch (error) {
        // The row stays, so a cleanup can still find the bytes.
        this.logger.warn({ err: error, key: blob.key }, 'could not remove a partly stored blob');
      }
    }
  }

  private backendOf(blob: Blob): BlobBackend {
    if (!isStorageType(blob.storageType)) throw new Error(`Unknown storage type ${blob.storageType} of ${blob.key}`);
    return this.backends.of(blob.storageType);
  }

  private monthPrefix(): string {
    const now = this.now();
    return `photos/${now.getUTCFullYear()}/${String(now.getUTCMonth() + 1).padStart(2, '0')}`;
  }
}

/** How a derivative's key ends, before its extension: `photos/2026/11/<uuid>-medium.webp`. */
const DERIVATIVE_SUFFIXES: Record<DerivativeKind, string> = { display: '-display', medium: '-medium', thumbnail: '-thumb' };

/** Every backend's key prefix. */
const STORAGE_PREFIXES = ['local', 's3', 'drive'] as const;

/** `local:photos/…` → `photos/…`. */
export function pathOf(key: string): string {
  const colon = key.indexOf(':');
  return key.slice(colon + 1);
}

/**
 * Gathers an upload of at most MAX_UPLOAD_BYTES, checking its first bytes as soon as they arrive: a file that is
 * not a PNG, JPEG, WebP or HEIC/HEIF image is refused before the rest is read.
 */
async function readImageUpload(chunks: AsyncIterable<Buffer>, maxBytes: number, refused: string, types?: string[]): Promise<Buffer> {
  const buffers: Buffer[] = [];
  let total = 0;
  let sniffed = false;
  const accepted = (head: Buffer) => {
    const type = sniffImageType(head);
    return type !== null && (!types || types.includes(type));
  };
  for await (const chunk of chunks) {
    buffers.push(chunk);
    total += chunk.byteLength;
    if (total > maxBytes) throw new InvalidArgumentError(refused);
    if (!sniffed && total >= SNIFF_BYTES) {
      sniffed = true;
      if (!accepted(Buffer.concat(buffers).subarray(0, SNIFF_BYTES))) throw new InvalidArgumentError(refused);
    }
  }
  const data = Buffer.concat(buffers);
  if (!sniffed && !accepted(data)) throw new InvalidArgumentError(refused);
  return data;
}

async function readAll(stream: Readable, limit: number): Promise<Buffer> {
  const buffers: Buffer[] = [];
  let total = 0;
  try {
    for await (const chunk of stream) {
      const buffer = Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array);
      total += buffer.byteLength;
      if (total > limit) throw new InvalidArgumentError('The stored original is too large');
      buffers.push(buffer);
    }
  } finally {
    stream.destroy();
  }
  return Buffer.concat(buffers);
}

const EXTENSIONS: Record<string, string> = { 'image/jpeg': '.jpg', 'image/png': '.png', 'image/webp': '.webp', 'image/avif': '.avif' };
function extensionOf(contentType: string): string {
  return EXTENSIONS[contentType] ?? '';
}

function encodeCursor(cursor: BlobCursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt.toISOString(), cursor.key])).toString('base64url');
}

function decodeCursor(token: string): BlobCursor {
  try {
    const [createdAt, key] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as unknown[];
    const date = typeof createdAt === 'string' ? new Date(createdAt) : undefined;
    if (date && !Number.isNaN(date.getTime()) && typeof key === 'string') return { createdAt: date, key };
  } catch {
    // falls through
  }
  throw new InvalidArgumentError('Invalid page token');
}
