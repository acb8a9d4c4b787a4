import { Metadata, status, type ServiceError } from '@grpc/grpc-js';
import { makeEvent, type CallOptions } from '@snapcracks/kit';
import { PhotoStatus, StorageType } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, type Envelope, type PhotoState } from '@snapcracks/proto/events/v1';
import { ReviewList, type Photo } from '@snapcracks/proto/photo/v1';
import type { PhotoCalls } from '../moderation.service.js';
import type { ReportPhotoCalls } from '../report.service.js';

export const ONLY_PENDING = 'Only pending photos can be approved or rejected';

/** The error a grpc-js client rejects with when the peer answers `code`. */
export function serviceError(code: status, details: string): ServiceError {
  return Object.assign(new Error(`${code} ${status[code]}: ${details}`), { code, details, metadata: new Metadata() });
}

export function photoMessage(id: number, userId: string, more: Partial<Photo> = {}): Photo {
  return {
    id,
    userId,
    filename: `photo-${id}.jpg`,
    originalName: `crack-${id}.jpg`,
    mimeType: 'image/jpeg',
    size: 1234,
    status: PhotoStatus.PHOTO_STATUS_PENDING,
    privacyBars: [],
    storageType: StorageType.STORAGE_TYPE_LOCAL,
    averageRating: 0,
    voteCount: 0,
    imageVersion: 1,
    width: 640,
    height: 480,
    createdAt: new Date('2026-01-01T00:00:00.000Z'),
    ...more,
  };
}

export interface PhotoCall {
  method: keyof PhotoCalls;
  request: unknown;
  caller: CallOptions['caller'];
}

/**
 * The photo service as moderation sees it, in memory: the calls it answers, its refusals (NOT_FOUND, only
 * pending photos can be reviewed) as the gRPC errors a client receives, and the event each committed change
 * writes to its outbox, carrying the action id. `calls` records every call, refused or not.
 */
export class FakePhotoService implements PhotoCalls, ReportPhotoCalls {
  readonly calls: (PhotoCall | { method: keyof ReportPhotoCalls; request: unknown; caller: CallOptions['caller'] })[] = [];
  readonly events: Envelope[] = [];
  /** Blob keys the photos use (the fake's photos carry no keys of their own). */
  readonly referencedKeys = new Set<string>();
  /** Ids whose deletion fails with UNAVAILABLE (a storage or database outage on the photo side). */
  readonly failingDeletes = new Set<number>();
  readonly #photos = new Map<number, Photo & { version: number }>();

  seed(photo: Photo): Photo {
    this.#photos.set(photo.id, { ...structuredClone(photo), version: 1 });
    return structuredClone(photo);
  }

  get(id: number): Photo | undefined {
    const photo = this.#photos.get(id);
    return photo ? stripVersion(photo) : undefined;
  }

  setPhotoStatus: PhotoCalls['setPhotoStatus'] = async (request, options) => {
    this.calls.push({ method: 'setPhotoStatus', request: structuredClone(request), caller: options.caller });
    const photo = this.#photos.get(request.id);
    if (!photo) throw serviceError(status.NOT_FOUND, 'Photo not found');
    const removable = request.removal === true && request.status === PhotoStatus.PHOTO_STATUS_REJECTED && photo.status === PhotoStatus.PHOTO_STATUS_APPROVED;
    if (photo.status !== PhotoStatus.PHOTO_STATUS_PENDING && !removable) throw serviceError(status.FAILED_PRECONDITION, ONLY_PENDING);
    const previousStatus = photo.status;
    const now = new Date();
    photo.status = request.status;
    photo.rejectionReason = request.rejectionReason;
    photo.version += 1;
    if (request.status === PhotoStatus.PHOTO_STATUS_APPROVED) Object.assign(photo, { approvedBy: options.caller?.userId, approvedAt: photo.approvedAt ?? now });
    photo.underReview = false;
    this.events.push(
      makeEvent(
        'photo.photo.status_changed',
        PhotoStatusChanged,
        { photo: state(photo), previousStatus, changedBy: options.caller?.userId, rejectionReason: request.rejectionReason, changedAt: now, actionId: request.actionId },
        { source: 'photo' },
      ),
    );
    return { photo: stripVersion(photo) };
  };

  getPhoto: ReportPhotoCalls['getPhoto'] = async (request, options) => {
    this.calls.push({ method: 'getPhoto', request: structuredClone(request), caller: options.caller });
    const photo = this.#photos.get(request.id);
    const mayView = photo && (photo.status === PhotoStatus.PHOTO_STATUS_APPROVED || options.caller?.isAdmin || options.caller?.userId === photo.userId);
    if (!photo || !mayView) throw serviceError(status.NOT_FOUND, 'Photo not found');
    return { photo: stripVersion(photo) };
  };

  holdPhotoForReview: ReportPhotoCalls['holdPhotoForReview'] = async (request, options) => {
    this.calls.push({ method: 'holdPhotoForReview', request: structuredClone(request), caller: options.caller });
    const photo = this.#photos.get(request.id);
    if (!photo) throw serviceError(status.NOT_FOUND, 'Photo not found');
    if (photo.status !== PhotoStatus.PHOTO_STATUS_APPROVED) throw serviceError(status.FAILED_PRECONDITION, 'Only approved photos can be held for review');
    const now = new Date();
    Object.assign(photo, { status: PhotoStatus.PHOTO_STATUS_PENDING, underReview: true, version: photo.version + 1 });
    this.events.push(
      makeEvent(
        'photo.photo.status_changed',
        PhotoStatusChanged,
        { photo: state(photo), previousStatus: PhotoStatus.PHOTO_STATUS_APPROVED, changedBy: 'reports', changedAt: now, actionId: request.actionId },
        { source: 'photo' },
      ),
    );
    return { photo: stripVersion(photo) };
  };

  getPhotosForReview: ReportPhotoCalls['getPhotosForReview'] = async (request, options) => {
    this.calls.push({ method: 'getPhotosForReview', request: structuredClone(request), caller: options.caller });
    return { photos: request.ids.flatMap((id) => (this.#photos.has(id) ? [stripVersion(this.#photos.get(id)!)] : [])) };
  };

  deletePhoto: PhotoCalls['deletePhoto'] = async (request, options) => {
    this.calls.push({ method: 'deletePhoto', request: structuredClone(request), caller: options.caller });
    const photo = this.#photos.get(request.id);
    if (!photo) throw serviceError(status.NOT_FOUND, 'Photo not found');
    if (this.failingDeletes.has(request.id)) throw serviceError(status.UNAVAILABLE, 'The file store is unavailable; please try again');
    this.#photos.delete(request.id);
    this.events.push(
      makeEvent('photo.photo.deleted', PhotoDeleted, { photo: state(photo), deletedBy: options.caller?.userId, actionId: request.actionId, deletedAt: new Date() }, { source: 'photo' }),
    );
    return { photo: stripVersion(photo) };
  };

  listPhotosForReview: PhotoCalls['listPhotosForReview'] = async (request, options) => {
    this.calls.push({ method: 'listPhotosForReview', request: structuredClone(request), caller: options.caller });
    const wanted =
      request.list === ReviewList.REVIEW_LIST_PENDING
        ? PhotoStatus.PHOTO_STATUS_PENDING
        : request.list === ReviewList.REVIEW_LIST_REJECTED
          ? PhotoStatus.PHOTO_STATUS_REJECTED
          : undefined;
    const matching = [...this.#photos.values()].filter((p) => wanted === undefined || p.status === wanted).sort((a, b) => a.id - b.id);
    const limit = request.page?.limit || 20;
    const page = request.page?.page || 1;
    const photos = matching.slice((page - 1) * limit, page * limit).map(stripVersion);
    return { photos, total: matching.length, totalPages: Math.ceil(matching.length / limit) };
  };

  findReferencedBlobs: PhotoCalls['findReferencedBlobs'] = async (request, options) => {
    this.calls.push({ method: 'findReferencedBlobs', request: structuredClone(request), caller: options.caller });
    return { keys: request.keys.filter((key) => this.referencedKeys.has(key)) };
  };
}

function state(photo: Photo & { version: number }): PhotoState {
  return { photoId: photo.id, userId: photo.userId, filename: photo.filename, status: photo.status, createdAt: photo.createdAt, approvedAt: photo.approvedAt, version: photo.version };
}

function stripVersion(photo: Photo & { version: number }): Photo {
  const { version: _version, ...rest } = structuredClone(photo);
  return rest;
}
