import { randomBytes } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '@snapcracks/kit';
import { PhotoDeleted, PhotoUpdated, PhotoUploaded } from '@snapcracks/proto/events/v1';
import { PhotoStatus as PhotoStatusMessage } from '@snapcracks/proto/common/v1';
import type { UploaderStore } from '../consumers/uploaders.store.js';
import type { EventOf, NewPhoto, Photo, PhotoRepository } from '../photo.repository.js';

export interface ContractSubject {
  /** The repository under test, over empty photos and uploaders tables. */
  repository(): PhotoRepository;
  /** The uploaders projection of the same store. */
  uploaders(): UploaderStore;
  /** Types of the events committed so far (order is not compared). */
  eventTypes(): Promise<string[]>;
}

/** A new photo as an upload stores it. */
export function newPhoto(userId: string, more: Partial<NewPhoto> = {}): NewPhoto {
  const id = randomBytes(8).toString('hex');
  return {
    userId,
    filename: `${randomBytes(16).toString('hex')}.webp`,
    originalName: 'crack.jpg',
    mimeType: 'image/jpeg',
    size: 1234,
    description: null,
    altText: null,
    storageType: 'local',
    driveFileId: null,
    originalKey: `local:photos/${id}-original.jpg`,
    originalEtag: 'o-etag',
    originalSize: 1200,
    originalType: 'image/jpeg',
    displayKey: `local:photos/${id}-display.webp`,
    displayEtag: 'd-etag',
    displaySize: 800,
    thumbnailKey: `local:photos/${id}-thumb.webp`,
    thumbnailEtag: 't-etag',
    thumbnailSize: 100,
    mediumKey: `local:photos/${id}-medium.webp`,
    mediumEtag: 'm-etag',
    mediumSize: 300,
    width: 640,
    height: 480,
    contentSha256: 'ab'.repeat(32),
    perceptualHash: '0123456789abcdef',
    ...more,
  };
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 5)); // timestamps have millisecond precision

/**
 * What every PhotoRepository promises, run against PostgreSQL (integration) and against the in-memory fake (unit),
 * so the fake the service's unit tests rely on cannot drift from the real thing.
 */
export function describePhotoRepositoryContract(name: string, subject: ContractSubject): void {
  describe(`${name} keeps the PhotoRepository contract`, () => {
    let repo: PhotoRepository;
    let seen: Photo[];
    const uploaded: EventOf = (photo) => {
      seen.push(photo);
      return makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: { photoId: photo.id, userId: photo.userId, filename: photo.filename, status: PhotoStatusMessage.PHOTO_STATUS_PENDING, version: photo.version } }, { source: 'test' });
    };
    const updated: EventOf = (photo) => {
      seen.push(photo);
      return makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: photo.id, userId: photo.userId, filename: photo.filename, status: PhotoStatusMessage.PHOTO_STATUS_PENDING, version: photo.version } }, { source: 'test' });
    };
    const deleted: EventOf = (photo) => {
      seen.push(photo);
      return makeEvent('photo.photo.deleted', PhotoDeleted, { photo: { photoId: photo.id, userId: photo.userId, filename: photo.filename, status: PhotoStatusMessage.PHOTO_STATUS_PENDING, version: photo.version } }, { source: 'test' });
    };
    const failing: EventOf = () => {
      throw new Error('no event');
    };
    beforeEach(() => {
      repo = subject.repository();
      seen = [];
    });

    it('creates a pending photo at version 1, builds the event from the stored row, and finds it by id and filename', async () => {
      const input = newPhoto('u1', { description: 'A crack', altText: 'A thin crack across a white wall' });
      const photo = await repo.create(input, uploaded);
      expect(photo).toMatchObject({ ...input, status: 'pending', version: 1, imageVersion: 1, ratingSum: 0, voteCount: 0, reviewedAt: null, approvedBy: null, uploader: null });
      expect(photo.id).toBeGreaterThan(0);
      expect(seen).toEqual([photo]);
      expect(await repo.findById(photo.id)).toEqual(photo);
      expect(await repo.findById(999_999)).toBeNull();
      expect(await repo.findByIds([999_999, photo.id])).toEqual([photo]);
      expect(await repo.findImages(photo.filename)).toEqual({
        id: photo.id,
        userId: 'u1',
        status: 'pending',
        imageVersion: 1,
        original: { key: input.originalKey, etag: 'o-etag', size: 1200, contentType: 'image/jpeg' },
        display: { key: input.displayKey, etag: 'd-etag', size: 800, contentType: 'image/webp' },
        medium: { key: input.mediumKey, etag: 'm-etag', size: 300, contentType: 'image/webp' },
        thumbnail: { key: input.thumbnailKey, etag: 't-etag', size: 100, contentType: 'image/webp' },
      });
      expect(await repo.findImages('0'.repeat(32) + '.webp')).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['photo.photo.uploaded']);
      // A photo stored before there were medium images has none.
      const older = await repo.create(newPhoto('u1', { mediumKey: null, mediumEtag: null, mediumSize: null }), uploaded);
      expect((await repo.findImages(older.filename))?.medium).toBeNull();
    });

    it('updates with version + 1 and its event, and answers null for a missing photo', async () => {
      const photo = await repo.create(newPhoto('u1'), uploaded);
      const changed = await repo.update(photo.id, { description: 'Edited', altText: 'Edited alt' }, updated);
      expect(changed).toMatchObject({ id: photo.id, description: 'Edited', altText: 'Edited alt', version: 2, imageVersion: 1 });
      expect(seen.at(-1)).toMatchObject({ description: 'Edited', version: 2 });
      expect(await repo.update(999_999, { description: 'x' }, updated)).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['photo.photo.updated', 'photo.photo.uploaded']);
    });

    it('changes a row only while its condition holds, atomically', async () => {
      const photo = await repo.create(newPhoto('u1'), uploaded);
      const approved = await repo.update(photo.id, { status: 'approved', reviewedAt: new Date() }, updated, { when: { status: 'pending' } });
      expect(approved).toMatchObject({ status: 'approved', version: 2 });
      expect(await repo.update(photo.id, { status: 'rejected' }, updated, { when: { status: 'pending' } })).toBeNull();
      expect((await repo.findById(photo.id))?.status).toBe('approved');

      const images = await repo.update(photo.id, { displayKey: 'local:new-display.webp', privacyBars: '[]' }, updated, { when: { imageVersion: 1 }, newImages: true });
      expect(images).toMatchObject({ displayKey: 'local:new-display.webp', imageVersion: 2, version: 3 });
      expect(await repo.update(photo.id, { displayKey: 'local:stale.webp' }, updated, { when: { imageVersion: 1 }, newImages: true })).toBeNull();
      expect(await repo.findById(photo.id)).toMatchObject({ displayKey: 'local:new-display.webp', imageVersion: 2, version: 3 });
      expect(await subject.eventTypes()).toHaveLength(3);

      // The medium image the row had when the change was rendered: null included.
      const mediumKey = photo.mediumKey!;
      expect(await repo.update(photo.id, { mediumKey: 'local:m2.webp' }, updated, { when: { imageVersion: 2, mediumKey: 'local:other.webp' } })).toBeNull();
      expect(await repo.update(photo.id, { mediumKey: null }, updated, { when: { imageVersion: 2, mediumKey: null } })).toBeNull();
      expect(await repo.update(photo.id, { mediumKey: null }, updated, { when: { imageVersion: 2, mediumKey } })).toMatchObject({ mediumKey: null, version: 4 });
      expect(await repo.update(photo.id, { mediumKey: 'local:m3.webp' }, updated, { when: { mediumKey: null } })).toMatchObject({ mediumKey: 'local:m3.webp' });
    });

    it('deletes with its event, built from the row as it was', async () => {
      const photo = await repo.create(newPhoto('u1'), uploaded);
      expect(await repo.delete(photo.id, deleted)).toEqual(photo);
      expect(seen.at(-1)).toEqual(photo);
      expect(await repo.findById(photo.id)).toBeNull();
      expect(await repo.delete(photo.id, deleted)).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['photo.photo.deleted', 'photo.photo.uploaded']);
    });

    it('commits nothing when the event cannot be built', async () => {
      const photo = await repo.create(newPhoto('u1'), uploaded);
      await expect(repo.create(newPhoto('u1'), failing)).rejects.toThrow('no event');
      await expect(repo.update(photo.id, { description: 'x' }, failing)).rejects.toThrow('no event');
      await expect(repo.delete(photo.id, failing)).rejects.toThrow('no event');
      expect(await repo.listByUser('u1')).toEqual([photo]);
      expect((await subject.eventTypes()).sort()).toEqual(['photo.photo.uploaded']);
    });

    it("lists one owner's photos newest first, every status", async () => {
      const a = await repo.create(newPhoto('u1'), uploaded);
      await pause();
      await repo.create(newPhoto('u2'), uploaded);
      await pause();
      const c = await repo.create(newPhoto('u1'), uploaded);
      await repo.update(c.id, { status: 'rejected' }, updated);
      expect((await repo.listByUser('u1')).map((p) => p.id)).toEqual([c.id, a.id]);
      expect(await repo.listByUser('nobody')).toEqual([]);
    });

    it('lists for review by status and review time, ordered and paged, with the total', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 5; i++) {
        ids.push((await repo.create(newPhoto(`u${i}`), uploaded)).id);
        await pause();
      }
      const base = Date.UTC(2030, 0, 1, 12);
      await repo.update(ids[0]!, { status: 'approved', reviewedAt: new Date(base) }, updated);
      await repo.update(ids[1]!, { status: 'approved', reviewedAt: new Date(base + 1000) }, updated);
      await repo.update(ids[2]!, { status: 'approved', reviewedAt: new Date(base - 86_400_000) }, updated);

      const pending = await repo.listForReview({ status: 'pending', order: 'oldest', offset: 0, limit: 10 });
      expect(pending).toMatchObject({ total: 2 });
      expect(pending.photos.map((p) => p.id)).toEqual([ids[3], ids[4]]);

      const day = { reviewedFrom: new Date(Date.UTC(2030, 0, 1)), reviewedBefore: new Date(Date.UTC(2030, 0, 2)) };
      const today = await repo.listForReview({ status: 'approved', ...day, order: 'newest_reviewed', offset: 0, limit: 10 });
      expect(today.photos.map((p) => p.id)).toEqual([ids[1], ids[0]]);
      expect(today.total).toBe(2);
      expect((await repo.listForReview({ status: 'rejected', ...day, order: 'newest_reviewed', offset: 0, limit: 10 })).total).toBe(0);

      const all = await repo.listForReview({ order: 'newest', offset: 1, limit: 2 });
      expect(all.total).toBe(5);
      expect(all.photos.map((p) => p.id)).toEqual([ids[3], ids[2]]);
    });

    it('hands out the review queue by how long each photo has waited: since its upload, resubmission or hold', async () => {
      const ids: number[] = [];
      for (let i = 0; i < 4; i++) {
        ids.push((await repo.create(newPhoto('u1'), uploaded)).id);
        await pause();
      }
      const base = Date.now();
      // 0: uploaded first but held by reports last; 1: resubmitted after 3's upload; 2: approved (not in the queue).
      await repo.update(ids[0]!, { heldAt: new Date(base + 10 * 60_000) }, updated);
      await repo.update(ids[1]!, { resubmittedAt: new Date(base + 5 * 60_000) }, updated);
      await repo.update(ids[2]!, { status: 'approved' }, updated);

      const queue = await repo.reviewQueue({ excludeIds: [], limit: 10 });
      expect(queue.photos.map((p) => p.id)).toEqual([ids[3], ids[1], ids[0]]);
      expect(queue.total).toBe(3);
      const rest = await repo.reviewQueue({ excludeIds: [ids[3]!], limit: 1 });
      expect(rest.photos.map((p) => p.id)).toEqual([ids[1]]);
      expect(rest.total).toBe(2);
    });

    it('keeps the newest uploader names whatever order they arrive in, forgets deleted users, and puts them on photos', async () => {
      const uploaders = subject.uploaders();
      const photo = await repo.create(newPhoto('u1'), uploaded);
      const names = (first: string, at: number) => ({
        id: 'u1',
        firstName: first,
        lastName: 'Lovelace',
        displayName: null,
        profileImageUrl: null,
        customProfileImage: null,
        updatedAt: new Date(at),
      });
      expect(await uploaders.saveIfNewer(names('Ada', 2000))).toBe(true);
      expect(await uploaders.saveIfNewer(names('Old', 1000))).toBe(false);
      expect(await uploaders.saveIfNewer(names('Same', 2000))).toBe(false);
      expect((await repo.findById(photo.id))?.uploader).toEqual(names('Ada', 2000));
      expect(await uploaders.saveIfNewer(names('Augusta', 3000))).toBe(true);
      expect((await repo.listByUser('u1'))[0]?.uploader?.firstName).toBe('Augusta');
      await uploaders.delete('u1');
      await uploaders.delete('u1');
      expect((await repo.findById(photo.id))?.uploader).toBeNull();
    });
  });
}
