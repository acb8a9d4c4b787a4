import { InvalidArgumentError, PermissionDeniedError, readChunks, readHeaderAndChunks, requireAdmin, requireMember, requireService, writeStream, chunksOf, type Handlers } from '@snapcracks/kit';
import { StorageType as StorageTypeMessage } from '@snapcracks/proto/common/v1';
import {
  Derivative,
  ImagePurpose,
  type BlobInfo,
  type GetBlobResponse,
  type StorageServiceServer,
  type StoreImageRequest,
  type StoreImageRequest_Header,
  type StoreExportRequest,
  type StoreExportRequest_Header,
} from '@snapcracks/proto/storage/v1';
import { DERIVATIVE_KINDS, type DerivativeKind } from '../media/index.js';
import type { Blob } from '../blob.repository.js';
import {
  AVATAR_REFUSED,
  EXPORT_PREFIX,
  EXPORT_TOO_LARGE,
  MAX_AVATAR_BYTES,
  MAX_EXPORT_BYTES,
  MAX_UPLOAD_BYTES,
  UPLOAD_REFUSED,
  pathOf,
  type StorageService,
  type StoredImageResult,
} from '../storage.service.js';

const CHUNK_BYTES = 64 * 1024;

/** Protocol edge: maps proto messages to the service's calls and back, and says which component may call what. */
export function storageHandlers(service: StorageService): Handlers<StorageServiceServer> {
  return {
    async storeImage(stream, ctx) {
      requireService(ctx, 'photo');
      const { header, chunks } = await readHeaderAndChunks<StoreImageRequest, StoreImageRequest_Header>(
        stream,
        {
          header: (m) => (m.part?.$case === 'header' ? m.part.value : undefined),
          chunk: (m) => (m.part?.$case === 'chunk' ? m.part.value : m.part === undefined ? new Uint8Array() : undefined),
        },
        { maxBytes: MAX_UPLOAD_BYTES, tooLarge: () => new InvalidArgumentError(UPLOAD_REFUSED) },
      );
      const purpose =
        header.purpose === ImagePurpose.IMAGE_PURPOSE_PHOTO ? 'photo' : header.purpose === ImagePurpose.IMAGE_PURPOSE_AVATAR ? 'avatar' : undefined;
      // The member the upload is for (absent for work nobody waits for) takes their turn in the image queue.
      return { image: toStoredImage(await service.storeImage(purpose, header.bars, chunks, ctx.caller?.userId)) };
    },

    async storeAvatar(stream, ctx) {
      // Auth relays the member's upload, and points the account at the avatar (its UploadAvatar).
      requireService(ctx, 'auth');
      requireMember(ctx);
      // Refused once the bytes pass the avatar limit; storeAvatar checks again as it reads.
      const chunks = readChunks(stream, (m) => m.chunk, { maxBytes: MAX_AVATAR_BYTES, tooLarge: () => new InvalidArgumentError(AVATAR_REFUSED) });
      const avatar = await service.storeAvatar(chunks, ctx.caller?.userId);
      return { avatar: toBlobInfo(avatar.blob), name: avatar.name, sourceMimeType: avatar.sourceMimeType, facesDetected: avatar.facesDetected };
    },

    async storeExport(stream, ctx) {
      requireService(ctx, 'gateway');
      const { header, chunks } = await readHeaderAndChunks<StoreExportRequest, StoreExportRequest_Header>(
        stream,
        {
          header: (m) => (m.part?.$case === 'header' ? m.part.value : undefined),
          chunk: (m) => (m.part?.$case === 'chunk' ? m.part.value : m.part === undefined ? new Uint8Array() : undefined),
        },
        { maxBytes: MAX_EXPORT_BYTES, tooLarge: () => new InvalidArgumentError(EXPORT_TOO_LARGE) },
      );
      return { blob: toBlobInfo(await service.storeExport(header.exportId, chunks)) };
    },

    async deleteAvatar(request, ctx) {
      requireService(ctx, 'auth');
      return { deleted: await service.deleteAvatar(request.name) };
    },

    async suggestFaceBars(request, ctx) {
      requireService(ctx, 'gateway');
      requireMember(ctx);
      const image = Buffer.from(request.image.buffer, request.image.byteOffset, request.image.byteLength);
      return { bars: await service.suggestFaceBars(image) };
    },

    async renderDerivatives(request, ctx) {
      requireService(ctx, 'photo');
      const kinds = request.derivatives.length > 0 ? request.derivatives.map(toDerivativeKind) : DERIVATIVE_KINDS;
      const rendered: Partial<Record<DerivativeKind, Blob>> = await service.renderDerivatives(request.originalKey, request.bars, kinds, ctx.caller?.userId);
      return {
        display: rendered.display && toBlobInfo(rendered.display),
        medium: rendered.medium && toBlobInfo(rendered.medium),
        thumbnail: rendered.thumbnail && toBlobInfo(rendered.thumbnail),
      };
    },

    async getBlob(call, ctx) {
      requireService(ctx, 'gateway');
      const { blob, content } = await service.open(call.request.key);
      try {
        async function* messages(): AsyncIterable<GetBlobResponse> {
          yield { part: { $case: 'info', value: toBlobInfo(blob) } };
          for await (const piece of content.stream) {
            const bytes = Buffer.isBuffer(piece) ? piece : Buffer.from(piece as Uint8Array);
            for (const chunk of chunksOf(bytes, CHUNK_BYTES)) yield { part: { $case: 'chunk', value: Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength) } };
          }
        }
        await writeStream(call, messages());
      } finally {
        content.stream.destroy();
      }
    },

    async deleteBlobs(request, ctx) {
      requireService(ctx, 'photo', 'moderation', 'gateway');
      // The gateway removes members' exports, and nothing else.
      if (ctx.service === 'gateway' && !request.keys.every(isExportKey)) throw new PermissionDeniedError('The gateway may delete exports only');
      return { deleted: await service.deleteBlobs(request.keys, request.createdBefore) };
    },

    async listBlobs(request, ctx) {
      requireService(ctx, 'moderation');
      const { blobs, nextPageToken } = await service.listBlobs(request);
      return { blobs: blobs.map(toBlobInfo), nextPageToken };
    },

    async getDriveAuthUrl(request, ctx) {
      requireService(ctx, 'gateway');
      requireAdmin(ctx);
      return { authUrl: service.driveAuthUrl(request.redirectUri) };
    },

    async exchangeDriveCode(request, ctx) {
      requireService(ctx, 'gateway');
      requireAdmin(ctx);
      return { refreshToken: await service.exchangeDriveCode(request.code, request.redirectUri) };
    },
  };
}

function isExportKey(key: string): boolean {
  return key.includes(':') && pathOf(key).startsWith(EXPORT_PREFIX);
}

const DERIVATIVES: Partial<Record<Derivative, DerivativeKind>> = {
  [Derivative.DERIVATIVE_DISPLAY]: 'display',
  [Derivative.DERIVATIVE_MEDIUM]: 'medium',
  [Derivative.DERIVATIVE_THUMBNAIL]: 'thumbnail',
};

function toDerivativeKind(derivative: Derivative): DerivativeKind {
  const kind = DERIVATIVES[derivative];
  if (!kind) throw new InvalidArgumentError('Unknown derivative');
  return kind;
}

const STORAGE_TYPES: Record<string, StorageTypeMessage> = {
  local: StorageTypeMessage.STORAGE_TYPE_LOCAL,
  s3: StorageTypeMessage.STORAGE_TYPE_S3,
  drive: StorageTypeMessage.STORAGE_TYPE_DRIVE,
};

export function toBlobInfo(blob: Blob): BlobInfo {
  return {
    key: blob.key,
    size: blob.size,
    contentType: blob.contentType,
    etag: blob.etag,
    storageType: STORAGE_TYPES[blob.storageType] ?? StorageTypeMessage.STORAGE_TYPE_UNSPECIFIED,
    driveFileId: blob.driveFileId ?? undefined,
    createdAt: blob.createdAt,
  };
}

function toStoredImage(image: StoredImageResult) {
  return {
    original: toBlobInfo(image.original),
    display: image.display ? toBlobInfo(image.display) : undefined,
    medium: image.medium ? toBlobInfo(image.medium) : undefined,
    thumbnail: image.thumbnail ? toBlobInfo(image.thumbnail) : undefined,
    width: image.width,
    height: image.height,
    sourceMimeType: image.sourceMimeType,
    sourceSize: image.sourceSize,
    contentSha256: image.contentSha256,
    perceptualHash: image.perceptualHash,
  };
}
