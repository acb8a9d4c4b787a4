import { beforeEach, describe, expect, it } from 'vitest';
import { Metadata } from '@grpc/grpc-js';
import { createLogger, type CallContext, type Caller } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { ReviewList } from '@snapcracks/proto/photo/v1';
import { GalleryService } from './gallery.service.js';
import { photoHandlers } from './grpc/photo.server.js';
import { PhotoService } from './photo.service.js';
import { hammingDistance, hashToBigInt, MAX_REFERENCE_KEYS } from './review-marks.js';
import { InMemoryPhotoRepository } from './testing/in-memory-photo.repository.js';
import { FakeStorage } from './testing/fake-storage.js';
import { describeReviewMarksContract, flipBits } from './testing/review-marks.contract.js';

describeReviewMarksContract('InMemoryPhotoRepository', { repository: () => new InMemoryPhotoRepository() });

describe('hashes', () => {
  it('reads 16 hex digits as a signed 64-bit integer and nothing else', () => {
    expect(hashToBigInt('0000000000000001')).toBe(1n);
    expect(hashToBigInt('ffffffffffffffff')).toBe(-1n);
    expect(hashToBigInt('FFFFFFFFFFFFFFFE')).toBe(-2n);
    for (const bad of ['', null, undefined, 'fffffffffffffff', 'gggggggggggggggg', '0x00000000000000']) expect(hashToBigInt(bad)).toBeNull();
  });

  it('counts differing bits, the sign bit included', () => {
    expect(hammingDistance(hashToBigInt('ffffffffffffffff')!, 0n)).toBe(64);
    expect(hammingDistance(hashToBigInt('8000000000000001')!, 1n)).toBe(1);
    expect(hammingDistance(hashToBigInt(flipBits('0123456789abcdef', 6))!, hashToBigInt('0123456789abcdef')!)).toBe(6);
  });
});

describe('the review list', () => {
  const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
  let photos: InMemoryPhotoRepository;
  let service: PhotoService;
  let clock: Date;
  beforeEach(() => {
    photos = new InMemoryPhotoRepository();
    clock = new Date('2030-06-15T10:00:00Z');
    service = new PhotoService(photos, new FakeStorage(), createLogger('test', 'silent'), () => clock);
  });

  it('marks pending photos only, and lists every rejected photo oldest first for the cleanup', async () => {
    const first = photos.seed({ userId: 'u1', perceptualHash: '0123456789abcdef', contentSha256: 'a' });
    await service.setStatus(admin, first.id, { status: 'rejected', rejectionReason: 'Not a crack', actionId: 'x' });
    const second = photos.seed({ userId: 'u1', perceptualHash: flipBits('0123456789abcdef', 3), contentSha256: 'a' });
    const approvedTwin = photos.seed({ userId: 'u2', perceptualHash: '0123456789abcdef' });
    await service.setStatus(admin, approvedTwin.id, { status: 'approved', actionId: 'y' });

    const { photos: all } = await service.listForReview('all');
    const byId = new Map(all.map((p) => [p.id, p]));
    expect(byId.get(second.id)?.reviewMarks).toEqual({
      similarRejected: { photoId: first.id, rejectionReason: 'Not a crack', distance: 3, sameUploader: true, rejectedAt: expect.any(Date) },
      duplicateOf: { photoId: first.id, status: 'rejected' },
    });
    expect(byId.get(first.id)?.reviewMarks).toBeUndefined();
    expect(byId.get(approvedTwin.id)?.reviewMarks).toBeUndefined();

    // The cleanup's list holds rejections past their owners' time to resubmit.
    expect((await service.listForReview('rejected', { limit: 100 })).photos).toEqual([]);
    clock = new Date(clock.getTime() + 31 * 24 * 3600_000);
    const rejected = await service.listForReview('rejected', { limit: 100 });
    expect(rejected.photos.map((p) => p.id)).toEqual([first.id]);
  });

  it('answers referenced keys in batches of at most 1000', async () => {
    const photo = photos.seed({ userId: 'u1', originalKey: 'local:photos/a.jpg' });
    expect(await service.referencedBlobKeys(['local:photos/a.jpg', 'local:photos/a.jpg', 'local:photos/b.jpg'])).toEqual([photo.originalKey]);
    const tooMany = Array.from({ length: MAX_REFERENCE_KEYS + 1 }, (_, i) => `local:photos/${i}.jpg`);
    await expect(service.referencedBlobKeys(tooMany)).rejects.toMatchObject({ kind: 'invalid_argument' });
  });
});

describe('the gRPC edge of review marks and blob references', () => {
  const logger = createLogger('test', 'silent');
  const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
  const member: Caller = { userId: 'm', isAdmin: false, hasAcceptedTerms: true };
  const ctx = (caller: Caller | null, service: string): CallContext => ({ caller, service, metadata: new Metadata(), logger });
  const unusedGallery = new GalleryService({
    page: async () => ({ photos: [], total: 0 }),
    newest: async () => [],
    cards: async () => [],
    refreshPrior: async () => ({ mean: 3, rescored: 0 }),
  });

  it('answers referenced keys to the moderation service acting for an admin only', async () => {
    const photos = new InMemoryPhotoRepository();
    photos.seed({ userId: 'u1', originalKey: 'local:photos/a.jpg', displayKey: 'local:photos/a.webp' });
    const handlers = photoHandlers(new PhotoService(photos, new FakeStorage(), logger), unusedGallery);
    const keys = ['local:photos/a.jpg', 'local:photos/a.webp', 'local:photos/zzz.jpg'];
    expect(await handlers.findReferencedBlobs({ keys }, ctx(admin, 'moderation'))).toEqual({ keys: keys.slice(0, 2) });
    await expect(handlers.findReferencedBlobs({ keys }, ctx(admin, 'gateway'))).rejects.toMatchObject({ kind: 'permission_denied' });
    await expect(handlers.findReferencedBlobs({ keys }, ctx(member, 'moderation'))).rejects.toMatchObject({ kind: 'permission_denied' });
  });

  it('carries the marks of pending photos in the review list, and lists every rejected photo', async () => {
    const photos = new InMemoryPhotoRepository();
    let now = new Date('2030-06-15T10:00:00Z');
    const service = new PhotoService(photos, new FakeStorage(), logger, () => now);
    const handlers = photoHandlers(service, unusedGallery);
    const first = photos.seed({ userId: 'u1', perceptualHash: '0123456789abcdef', contentSha256: 'same' });
    await service.setStatus(admin, first.id, { status: 'rejected', rejectionReason: 'Not a crack', actionId: 'a' });
    const again = photos.seed({ userId: 'u1', perceptualHash: flipBits('0123456789abcdef', 1), contentSha256: 'same' });

    const { photos: pending } = await handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_PENDING }, ctx(admin, 'moderation'));
    expect(pending).toEqual([
      expect.objectContaining({
        id: again.id,
        reviewMarks: {
          similarRejected: { photoId: first.id, rejectionReason: 'Not a crack', distance: 1, sameUploader: true, rejectedAt: expect.any(Date) },
          duplicateOf: { photoId: first.id, status: PhotoStatus.PHOTO_STATUS_REJECTED },
        },
      }),
    ]);
    now = new Date(now.getTime() + 31 * 24 * 3600_000);
    const { photos: rejected } = await handlers.listPhotosForReview({ list: ReviewList.REVIEW_LIST_REJECTED }, ctx(admin, 'moderation'));
    expect(rejected.map((p) => [p.id, p.reviewMarks])).toEqual([[first.id, undefined]]);
  });
});
