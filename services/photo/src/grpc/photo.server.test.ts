import { Metadata } from '@grpc/grpc-js';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger, decodeEvent, type CallContext, type Caller, type DomainErrorKind } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { PhotoDeleted } from '@snapcracks/proto/events/v1';
import { GalleryFilter, ImageVariant, ReviewList } from '@snapcracks/proto/photo/v1';
import type { GalleryRepository } from '../gallery.pg-repository.js';
import { GalleryService } from '../gallery.service.js';
import { PhotoService } from '../photo.service.js';
import { InMemoryPhotoRepository } from '../testing/in-memory-photo.repository.js';
import { FakeStorage } from '../testing/fake-storage.js';
import { photoHandlers } from './photo.server.js';

const logger = createLogger('test', 'silent');
const owner: Caller = { userId: 'owner', isAdmin: false, hasAcceptedTerms: true };
const other: Caller = { userId: 'other', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const newcomer: Caller = { userId: 'owner', isAdmin: false, hasAcceptedTerms: false };

/** The gallery's SQL is tested against PostgreSQL; here only who may ask for what. */
const unusedGallery: GalleryRepository = {
  page: async () => ({ photos: [], total: 0 }),
  newest: async () => [],
  cards: async () => [],
  refreshPrior: async () => ({ mean: 3, rescored: 0 }),
};

let photos: InMemoryPhotoRepository;
let handlers: ReturnType<typeof photoHandlers>;
let photoId: number;
let filename: string;

const ctx = (caller: Caller | null, service = 'gateway'): CallContext => ({ caller, service, metadata: new Metadata(), logger });
const kind = (k: DomainErrorKind) => expect.objectContaining({ kind: k });

beforeEach(async () => {
  photos = new InMemoryPhotoRepository();
  const storage = new FakeStorage();
  const service = new PhotoService(photos, storage, logger);
  handlers = photoHandlers(service, new GalleryService(unusedGallery));
  const photo = await service.upload(owner, { originalName: 'a.jpg' }, (async function* () {
    yield Buffer.alloc(10);
  })());
  photoId = photo.id;
  filename = photo.filename;
});

describe('the gRPC edge', () => {
  it('serves public gallery pages to anyone, need-your-vote only to members, and refuses an unknown filter', async () => {
    const page = (filter: GalleryFilter, caller: Caller | null) => handlers.getGalleryPage({ filter, page: { page: 1, limit: 9 } }, ctx(caller));
    await expect(page(GalleryFilter.GALLERY_FILTER_TOP_RATED, null)).resolves.toEqual({ photos: [], total: 0, totalPages: 0 });
    await expect(page(GalleryFilter.GALLERY_FILTER_NEED_YOUR_VOTE, null)).rejects.toEqual(kind('unauthenticated'));
    await expect(page(GalleryFilter.GALLERY_FILTER_NEED_YOUR_VOTE, newcomer)).rejects.toEqual(kind('permission_denied'));
    await expect(page(GalleryFilter.GALLERY_FILTER_NEED_YOUR_VOTE, other)).resolves.toMatchObject({ total: 0 });
    await expect(page(GalleryFilter.GALLERY_FILTER_UNSPECIFIED, other)).rejects.toEqual(kind('invalid_argument'));
  });

  it('refuses signed-out callers and callers who have not accepted the terms on member calls', async () => {
    for (const caller of [null, newcomer]) {
      const expected = kind(caller ? 'permission_denied' : 'unauthenticated');
      await expect(handlers.listMyPhotos({}, ctx(caller))).rejects.toEqual(expected);
      await expect(handlers.updatePhoto({ id: photoId, description: 'x' }, ctx(caller))).rejects.toEqual(expected);
      await expect(handlers.setPrivacyBars({ id: photoId, bars: [] }, ctx(caller))).rejects.toEqual(expected);
      await expect(handlers.getPrivacyBars({ id: photoId }, ctx(caller))).rejects.toEqual(expected);
      await expect(handlers.deletePhoto({ id: photoId }, ctx(caller))).rejects.toEqual(expected);
    }
    expect(photos.eventTypes()).toEqual(['photo.photo.uploaded']);
  });

  it('maps a photo to its message, and GetPhoto works signed out for approved photos only', async () => {
    const { photo } = await handlers.getPhoto({ id: photoId }, ctx(owner));
    expect(photo).toMatchObject({ id: photoId, userId: 'owner', status: PhotoStatus.PHOTO_STATUS_PENDING, privacyBars: [], imageVersion: 1, width: 640, height: 480, averageRating: 0, voteCount: 0 });
    expect(photo!.user).toBeUndefined();
    await expect(handlers.getPhoto({ id: photoId }, ctx(null))).rejects.toEqual(kind('not_found'));
    await handlers.setPhotoStatus({ id: photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId: 'a' }, ctx(admin, 'moderation'));
    await expect(handlers.getPhoto({ id: photoId }, ctx(null))).resolves.toMatchObject({ photo: { id: photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED } });
  });

  it('resolves images for the gateway only, taking an unspecified variant as the display image', async () => {
    await expect(handlers.resolveImage({ filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, ctx(owner, 'moderation'))).rejects.toEqual(kind('permission_denied'));
    const unspecified = await handlers.resolveImage({ filename, variant: ImageVariant.IMAGE_VARIANT_UNSPECIFIED }, ctx(owner));
    const display = await handlers.resolveImage({ filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, ctx(owner));
    expect(unspecified).toEqual(display);
    expect(display).toMatchObject({ contentType: 'image/webp', public: false });
    await expect(handlers.resolveImage({ filename, variant: ImageVariant.IMAGE_VARIANT_DISPLAY }, ctx(null))).rejects.toEqual(kind('not_found'));
    await expect(handlers.resolveImage({ filename, variant: 42 as ImageVariant }, ctx(owner))).rejects.toEqual(kind('invalid_argument'));
  });

  it('takes status changes and review lists from the moderation service for admins only', async () => {
    const approve = { id: photoId, status: PhotoStatus.PHOTO_STATUS_APPROVED, actionId: 'a' };
    await expect(handlers.setPhotoStatus(approve, ctx(admin, 'gateway'))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.setPhotoStatus(approve, ctx(owner, 'moderation'))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.setPhotoStatus(approve, ctx(null, 'moderation'))).rejects.toEqual(kind('unauthenticated'));
    await expect(handlers.setPhotoStatus({ ...approve, status: PhotoStatus.PHOTO_STATUS_UNSPECIFIED }, ctx(admin, 'moderation'))).rejects.toEqual(kind('invalid_argument'));
    await expect(handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_PENDING }, ctx(admin, 'gateway'))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_PENDING }, ctx(other, 'moderation'))).rejects.toEqual(kind('permission_denied'));
    await expect(handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_UNSPECIFIED }, ctx(admin, 'moderation'))).rejects.toEqual(kind('invalid_argument'));
    expect(await handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_PENDING, page: { page: 1, limit: 20 } }, ctx(admin, 'moderation'))).toMatchObject({ total: 1, totalPages: 1 });
    expect((await handlers.setPhotoStatus(approve, ctx(admin, 'moderation'))).photo).toMatchObject({ status: PhotoStatus.PHOTO_STATUS_APPROVED, approvedBy: 'admin' });
  });

  it('records an action id on a deletion only when the moderation service passes it', async () => {
    await handlers.deletePhoto({ id: photoId, actionId: 'forged' }, ctx(owner));
    expect(decodeEvent(photos.events.at(-1)!, PhotoDeleted).actionId).toBeUndefined();
  });

});
