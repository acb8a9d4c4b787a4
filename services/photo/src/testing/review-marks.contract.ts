import { beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '@snapcracks/kit';
import { PhotoUpdated } from '@snapcracks/proto/events/v1';
import { PhotoStatus as PhotoStatusMessage } from '@snapcracks/proto/common/v1';
import type { EventOf, NewPhoto, Photo, PhotoRepository } from '../photo.repository.js';
import { newPhoto } from './photo.repository.contract.js';

export interface ReviewMarksContractSubject {
  /** The repository under test, over an empty photos table (and no rejected hashes). */
  repository(): PhotoRepository;
}

const event: EventOf = (photo) =>
  makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: photo.id, userId: photo.userId, filename: photo.filename, status: PhotoStatusMessage.PHOTO_STATUS_PENDING, version: photo.version } }, { source: 'test' });

/** `hash` with the lowest `bits` bits flipped. */
export function flipBits(hash: string, bits: number): string {
  const flipped = BigInt(`0x${hash}`) ^ ((1n << BigInt(bits)) - 1n);
  return flipped.toString(16).padStart(16, '0');
}

/** `hash` with one bit flipped in each of the first `bands` bands (bits 0, 9, 18, …): no band left intact when 7. */
export function spoilBands(hash: string, bands: number): string {
  let value = BigInt(`0x${hash}`);
  for (let band = 0; band < bands; band++) value ^= 1n << BigInt(band * 9);
  return value.toString(16).padStart(16, '0');
}

const HASH = 'c3a5f00f12345678';

/**
 * What the repository promises about review marks and blob references, against PostgreSQL (integration) and the
 * in-memory fake (unit), so the service's unit tests rely on the same behaviour.
 */
export function describeReviewMarksContract(name: string, subject: ReviewMarksContractSubject): void {
  describe(`${name} keeps the review-marks contract`, () => {
    let repo: PhotoRepository;
    beforeEach(() => {
      repo = subject.repository();
    });

    const create = (userId: string, more: Partial<NewPhoto> = {}) => repo.create(newPhoto(userId, { contentSha256: `${userId}-${Math.random()}`, ...more }), event);
    const reject = async (photo: Photo, reason: string) => {
      const rejected = await repo.update(photo.id, { status: 'rejected', rejectionReason: reason, reviewedAt: new Date() }, event, { when: { status: 'pending' } });
      expect(rejected?.status).toBe('rejected');
      return rejected!;
    };

    it('marks a photo within 6 bits of a rejected one with its reason, the closest first, and keeps it after the deletion', async () => {
      const far = await reject(await create('u1', { perceptualHash: flipBits(HASH, 5) }), 'Blurry');
      const near = await reject(await create('u2', { perceptualHash: flipBits(HASH, 2) }), 'Not a crack');
      const pending = await create('u1', { perceptualHash: HASH });

      expect((await repo.reviewMarks([pending.id])).get(pending.id)).toEqual({
        similarRejected: { photoId: near.id, rejectionReason: 'Not a crack', distance: 2, sameUploader: false, rejectedAt: expect.any(Date) },
      });
      await repo.delete(near.id, event);
      await repo.delete(far.id, event);
      expect((await repo.reviewMarks([pending.id])).get(pending.id)?.similarRejected).toMatchObject({ photoId: near.id, distance: 2 });
    });

    it('does not mark at 7 bits, nor when every band differs, nor for approved or pending look-alikes', async () => {
      await reject(await create('u1', { perceptualHash: flipBits(HASH, 7) }), 'Seven bits away');
      await reject(await create('u1', { perceptualHash: spoilBands(HASH, 7) }), 'Seven bits, one per band');
      const approved = await create('u1', { perceptualHash: HASH });
      await repo.update(approved.id, { status: 'approved', reviewedAt: new Date() }, event);
      await create('u1', { perceptualHash: HASH });
      const pending = await create('u1', { perceptualHash: HASH });
      expect(await repo.reviewMarks([pending.id])).toEqual(new Map());
    });

    it('finds a look-alike that agrees on one band only (six bands spoilt)', async () => {
      const rejected = await reject(await create('u1', { perceptualHash: spoilBands(HASH, 6) }), 'Six bits, six bands');
      const pending = await create('u1', { perceptualHash: HASH });
      expect((await repo.reviewMarks([pending.id])).get(pending.id)?.similarRejected).toMatchObject({ photoId: rejected.id, distance: 6, sameUploader: true });
    });

    it("marks an exact duplicate of the uploader's own oldest earlier photo, whatever its status, and not someone else's", async () => {
      const first = await create('u1', { contentSha256: 'f'.repeat(64), perceptualHash: '0000000000000000' });
      await repo.update(first.id, { status: 'approved', reviewedAt: new Date() }, event);
      await create('u1', { contentSha256: 'f'.repeat(64), perceptualHash: '0000000000000000' });
      const again = await create('u1', { contentSha256: 'f'.repeat(64), perceptualHash: '0000000000000000' });
      const strangers = await create('u2', { contentSha256: 'f'.repeat(64), perceptualHash: '0000000000000000' });
      const marks = await repo.reviewMarks([first.id, again.id, strangers.id]);
      expect(marks.get(again.id)).toEqual({ duplicateOf: { photoId: first.id, status: 'approved' } });
      // The first upload is the original, not a repeat; another uploader's copy is theirs.
      expect(marks.has(first.id)).toBe(false);
      expect(marks.has(strangers.id)).toBe(false);
    });

    it('ignores photos without a usable hash and answers nothing for no ids', async () => {
      const odd = await create('u1', { perceptualHash: 'not-a-hash', contentSha256: null });
      await reject(await create('u1', { perceptualHash: null }), 'No hash');
      expect(await repo.reviewMarks([odd.id, 999_999])).toEqual(new Map());
      expect(await repo.reviewMarks([])).toEqual(new Map());
    });

    it('answers which blob keys a photo uses, among those asked', async () => {
      const photo = await create('u1');
      const asked = [photo.originalKey!, photo.displayKey!, photo.mediumKey!, photo.thumbnailKey!, 'local:photos/nobody.jpg', 'local:avatars/x.webp'];
      expect((await repo.referencedBlobKeys(asked)).sort()).toEqual([photo.originalKey, photo.displayKey, photo.mediumKey, photo.thumbnailKey].sort());
      expect(await repo.referencedBlobKeys([])).toEqual([]);
      await repo.delete(photo.id, event);
      expect(await repo.referencedBlobKeys(asked)).toEqual([]);
    });
  });
}
