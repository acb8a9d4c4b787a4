import type { Caller, ServiceClient } from '@snapcracks/kit';
import { StorageType as StorageTypeMessage, type PrivacyBar } from '@snapcracks/proto/common/v1';
import { Derivative, ImagePurpose, type BlobInfo, type StorageServiceClient } from '@snapcracks/proto/storage/v1';
import type { StorageType } from './photo.repository.js';

/** A blob as storage reports it. */
export interface StoredBlob {
  key: string;
  size: number;
  contentType: string;
  etag: string;
  storageType: StorageType;
  driveFileId: string | null;
}

/** A stored upload: the cleaned original and its derivatives, and what storage learned about the bytes. */
export interface StoredPhotoImage {
  original: StoredBlob;
  display: StoredBlob;
  /**
   * Null when a storage service of the previous release answered (during a rolling upgrade), which makes none: the
   * medium backfill makes it later, and the display image answers for it meanwhile.
   */
  medium: StoredBlob | null;
  thumbnail: StoredBlob;
  width: number;
  height: number;
  sourceMimeType: string;
  sourceSize: number;
  contentSha256: string;
  perceptualHash: string;
}

export interface Derivatives {
  display: StoredBlob;
  /** Null from a storage service of the previous release, as for an upload. */
  medium: StoredBlob | null;
  thumbnail: StoredBlob;
}

/** What the photo service needs from the storage service; a fake replaces it in unit tests. */
export interface PhotoStorage {
  /** Streams the upload to storage, honouring back-pressure; if reading `chunks` fails, the storage call is cancelled. */
  storeImage(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredPhotoImage>;
  renderDerivatives(caller: Caller, originalKey: string, bars: PrivacyBar[]): Promise<Derivatives>;
  /** The medium image alone, with `bars` burned in (the medium backfill, which acts for no one: `caller` null). */
  renderMedium(caller: Caller | null, originalKey: string, bars: PrivacyBar[]): Promise<StoredBlob>;
  deleteBlobs(caller: Caller | null, keys: string[]): Promise<void>;
}

const STORE_DEADLINE_MS = 120_000;
const RENDER_DEADLINE_MS = 60_000;

/** PhotoStorage over the storage service's gRPC contract. */
export class GrpcPhotoStorage implements PhotoStorage {
  constructor(private readonly client: ServiceClient<StorageServiceClient>) {}

  async storeImage(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredPhotoImage> {
    const upload = this.client.clientStream('storeImage', { caller, deadlineMs: STORE_DEADLINE_MS });
    try {
      await upload.send({ part: { $case: 'header', value: { purpose: ImagePurpose.IMAGE_PURPOSE_PHOTO, bars: [] } } });
      for await (const chunk of chunks) await upload.send({ part: { $case: 'chunk', value: chunk } });
    } catch (error) {
      // Our stream failed (too large, cancelled by the client) or storage already refused: either way, give up the call.
      upload.cancel();
      throw error;
    }
    const { image } = await upload.finish();
    if (!image?.original || !image.display || !image.thumbnail) throw new Error('Storage answered a photo without its derivatives');
    return {
      original: toStoredBlob(image.original),
      display: toStoredBlob(image.display),
      medium: image.medium ? toStoredBlob(image.medium) : null,
      thumbnail: toStoredBlob(image.thumbnail),
      width: image.width,
      height: image.height,
      sourceMimeType: image.sourceMimeType,
      sourceSize: image.sourceSize,
      contentSha256: image.contentSha256,
      perceptualHash: image.perceptualHash,
    };
  }

  async renderDerivatives(caller: Caller, originalKey: string, bars: PrivacyBar[]): Promise<Derivatives> {
    const { display, medium, thumbnail } = await this.client.call.renderDerivatives({ originalKey, bars, derivatives: [] }, { caller, deadlineMs: RENDER_DEADLINE_MS });
    if (!display || !thumbnail) throw new Error('Storage answered without derivatives');
    return { display: toStoredBlob(display), medium: medium ? toStoredBlob(medium) : null, thumbnail: toStoredBlob(thumbnail) };
  }

  async renderMedium(caller: Caller | null, originalKey: string, bars: PrivacyBar[]): Promise<StoredBlob> {
    const { medium, display, thumbnail } = await this.client.call.renderDerivatives(
      { originalKey, bars, derivatives: [Derivative.DERIVATIVE_MEDIUM] },
      { caller, deadlineMs: RENDER_DEADLINE_MS },
    );
    if (medium) return toStoredBlob(medium);
    // A storage service of the previous release rendered what it knows instead (a rolling upgrade): nobody needs those.
    await this.deleteBlobs(caller, [display?.key, thumbnail?.key].filter((key): key is string => !!key)).catch(() => undefined);
    throw new Error('Storage answered without the medium image');
  }

  async deleteBlobs(caller: Caller | null, keys: string[]): Promise<void> {
    if (keys.length === 0) return;
    await this.client.call.deleteBlobs({ keys }, { caller });
  }
}

function toStoredBlob(info: BlobInfo): StoredBlob {
  return {
    key: info.key,
    size: info.size,
    contentType: info.contentType,
    etag: info.etag,
    storageType: info.storageType === StorageTypeMessage.STORAGE_TYPE_DRIVE ? 'drive' : info.storageType === StorageTypeMessage.STORAGE_TYPE_S3 ? 's3' : 'local',
    driveFileId: info.driveFileId ?? null,
  };
}
