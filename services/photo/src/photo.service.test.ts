import { PRIVACY_BARS } from '@snapcracks/http-contract';
import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, decodeEvent, decodeEventOfType, makeEvent, type Caller, type DomainErrorKind } from '@snapcracks/kit';
import { createRecordingLogger, type LogRecord } from '@snapcracks/kit/testing';
import { PhotoStatus as PhotoStatusMessage, type PrivacyBar } from '@snapcracks/proto/common/v1';
import { PhotoDeleted, PhotoStatusChanged, PhotoUpdated, PhotoUploaded, UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import { PhotoService, isUnderReview, resubmitDeadline, safeBasename, validateBars, type ImageVariant } from './photo.service.js';
import type { Photo } from './photo.repository.js';
import { InMemoryPhotoRepository } from './testing/in-memory-photo.repository.js';
import { FakeStorage, bytes } from './testing/fake-storage.js';
import { UPLOADER_EVENTS, applyUploaderEvent } from './consumers/uploaders.consumer.js';

const owner: Caller = { userId: 'owner', isAdmin: false, hasAcceptedTerms: true };
const other: Caller = { userId: 'other', isAdmin: false, hasAcceptedTerms: true };
const admin: Caller = { userId: 'admin', isAdmin: true, hasAcceptedTerms: true };
const NOW = new Date('2030-06-15T10:00:00Z');

let photos: InMemoryPhotoRepository;
let storage: FakeStorage;
let logged: LogRecord[];
let service: PhotoService;
let clock: Date;

beforeEach(() => {
  photos = new InMemoryPhotoRepository();
  storage = new FakeStorage();
  const recording = createRecordingLogger('warn');
  logged = recording.records;
  clock = NOW;
  service = new PhotoService(photos, storage, recording.logger, () => clock);
});

const kind = (k: DomainErrorKind, message?: string) => expect.objectContaining({ kind: k, ...(message ? { message } : {}) });
const notFound = kind('not_found', 'Photo not found');
const denied = kind('permission_denied');
const invalid = (message?: string) => kind('invalid_argument', message);

/** A stored photo with real blobs in the fake storage, as an upload leaves it. */
async function uploaded(by: Caller = owner, description?: string): Promise<Photo> {
  return service.upload(by, { originalName: 'crack.jpg', description }, bytes(100));
}
async function approvedPhoto(): Promise<Photo> {
  const photo = await uploaded();
  return service.setStatus(admin, photo.id, { status: 'approved', actionId: 'a1' });
}

describe('uploading', () => {
  it('stores the photo pending with what storage reports, an unguessable filename and its event', async () => {
    const photo = await service.upload(owner, { originalName: 'C:\\Users\\me\\Crack.HEIC', description: '  A long crack  ' }, bytes(64 * 1024, 10));
    expect(photo).toMatchObject({
      userId: 'owner',
      status: 'pending',
      originalName: 'Crack.HEIC',
      mimeType: 'image/heic',
      size: 64 * 1024 + 10,
      description: 'A long crack',
      storageType: 'local',
      width: 640,
      height: 480,
      version: 1,
      imageVersion: 1,
    });
    expect(photo.filename).toMatch(/^[0-9a-f]{32}\.webp$/);
    expect(photo.mediumKey).toMatch(/-medium\.webp$/);
    expect(storage.keys().sort()).toEqual([photo.originalKey, photo.displayKey, photo.mediumKey, photo.thumbnailKey].sort());
    expect(photos.eventTypes()).toEqual(['photo.photo.uploaded']);
    expect(decodeEvent(photos.events[0]!, PhotoUploaded).photo).toMatchObject({
      photoId: photo.id,
      userId: 'owner',
      filename: photo.filename,
      status: PhotoStatusMessage.PHOTO_STATUS_PENDING,
      version: 1,
      description: 'A long crack',
    });
    const second = await uploaded();
    expect(second.filename).not.toBe(photo.filename);
  });

  it('takes an empty description as none and refuses one over 500 characters before storing anything', async () => {
    expect((await uploaded(owner, '   ')).description).toBeNull();
    expect((await uploaded(owner, 'x'.repeat(500))).description).toHaveLength(500);
    const before = storage.keys().length;
    await expect(uploaded(owner, 'x'.repeat(501))).rejects.toEqual(invalid('Description must be 500 characters or less'));
    expect(storage.keys()).toHaveLength(before);
    expect(photos.count()).toBe(2);
  });

  it('takes a description that follows the bytes, and refuses a bad one before storage has the whole upload', async () => {
    const late = (description: string | undefined, header?: string) =>
      service.upload(owner, { originalName: 'crack.jpg', description: header }, bytes(100), () => ({ description }));
    expect((await late('  Along the kerb ')).description).toBe('Along the kerb');
    expect((await late('   ')).description).toBeNull();
    const stored = storage.keys();
    const events = photos.events.length;
    for (const [description, message] of [
      ['x'.repeat(501), 'Description must be 500 characters or less'],
      ['A crack\u0000', 'description must not contain control characters'],
    ] as const) {
      await expect(late(description)).rejects.toEqual(invalid(message));
    }
    await expect(late('Twice', 'Once')).rejects.toEqual(invalid('Only one description is allowed'));
    // Refused while storage was still reading the stream: it stored nothing, and nothing was announced.
    expect(storage.keys()).toEqual(stored);
    expect(photos.events).toHaveLength(events);
  });

  it('stores alt text from the header or after the bytes, trimmed, blank as none, and refuses a bad one before storage has it', async () => {
    let members = 0;
    // A member of their own each time: the pending allowance is not what this is about.
    const upload = (header: { description?: string; altText?: string }, late?: { description?: string; altText?: string }) =>
      service.upload({ ...owner, userId: `member-${++members}` }, { originalName: 'crack.jpg', ...header }, bytes(100), () => late);
    expect(await upload({ altText: '  A crack across a blue tile ' })).toMatchObject({ altText: 'A crack across a blue tile', description: null });
    expect(await upload({ description: 'Kerb' }, { altText: 'Grey kerb, split in two' })).toMatchObject({ description: 'Kerb', altText: 'Grey kerb, split in two' });
    expect(await upload({ altText: 'Early' }, { description: 'Late' })).toMatchObject({ description: 'Late', altText: 'Early' });
    expect((await upload({}, { altText: '   ' })).altText).toBeNull();
    expect((await upload({ altText: 'x'.repeat(1000) })).altText).toHaveLength(1000);
    const stored = storage.keys();
    const count = photos.count();
    for (const [header, late, message] of [
      [{ altText: 'x'.repeat(1001) }, undefined, 'Alt text must be 1000 characters or less'],
      [{}, { altText: 'x'.repeat(1001) }, 'Alt text must be 1000 characters or less'],
      [{}, { altText: 'Tile\u0007' }, 'altText must not contain control characters'],
      [{ altText: 'Once' }, { altText: 'Twice' }, 'Only one alt text is allowed'],
    ] as const) {
      await expect(upload(header, late)).rejects.toEqual(invalid(message));
    }
    expect(storage.keys()).toEqual(stored);
    expect(photos.count()).toBe(count);
  });

  it('deletes the stored blobs and stores no row when the row cannot be written', async () => {
    photos.failNextWrite(new Error('database down'));
    await expect(uploaded()).rejects.toThrow('database down');
    expect(photos.count()).toBe(0);
    expect(storage.keys()).toEqual([]);
    expect(photos.events).toEqual([]);
  });

  it('logs, and still reports the original failure, when the cleanup fails too', async () => {
    photos.failNextWrite(new Error('database down'));
    storage.failDeletes = true;
    await expect(uploaded()).rejects.toThrow('database down');
    expect(logged).toEqual([expect.objectContaining({ msg: expect.stringMatching(/could not delete blobs after a failed upload/) })]);
  });

  it('passes a refusal by storage on, storing no row', async () => {
    storage.refuseUpload = new InvalidArgumentError('Only image files (PNG, JPG, JPEG) up to 10MB are accepted');
    await expect(uploaded()).rejects.toEqual(invalid('Only image files (PNG, JPG, JPEG) up to 10MB are accepted'));
    expect(photos.count()).toBe(0);
  });

  it('reduces the client file name to a safe base name', () => {
    expect(safeBasename('../../etc/pa\u0000ss\u001b.jpg')).toBe('pass.jpg');
    expect(safeBasename('dir/sub\\name.png')).toBe('name.png');
    expect(safeBasename('')).toBe('photo');
    expect(safeBasename('..')).toBe('photo');
    expect(safeBasename('a'.repeat(300) + '.jpg')).toHaveLength(255);
    expect(Array.from(safeBasename('😀'.repeat(300)))).toHaveLength(255);
  });
});

describe('seeing photos', () => {
  it('shows a pending photo to its owner and admins only, an approved one to everyone', async () => {
    const pending = await uploaded();
    await expect(service.get(owner, pending.id)).resolves.toMatchObject({ id: pending.id });
    await expect(service.get(admin, pending.id)).resolves.toMatchObject({ id: pending.id });
    await expect(service.get(other, pending.id)).rejects.toEqual(notFound);
    await expect(service.get(null, pending.id)).rejects.toEqual(notFound);
    const approved = await approvedPhoto();
    for (const viewer of [owner, admin, other, null]) await expect(service.get(viewer, approved.id)).resolves.toMatchObject({ id: approved.id });
    for (const id of [0, -1, 1.5, 2 ** 40, Number.NaN, 999]) await expect(service.get(admin, id)).rejects.toEqual(notFound);
  });

  it("lists the caller's own photos, every status, newest first, with the uploader's names", async () => {
    const a = await uploaded();
    await uploaded(other);
    const b = await approvedPhoto();
    await applyUploaderEvent(userUpdated('owner', 'Ada', 5), photos.uploaders);
    const mine = await service.listMine(owner);
    expect(mine.map((p) => p.id)).toEqual([b.id, a.id]);
    expect(mine[0]!.uploader).toMatchObject({ id: 'owner', firstName: 'Ada' });
  });
});

describe('editing the description', () => {
  it('lets the owner and admins edit, with version + 1 and an event naming who changed it', async () => {
    const photo = await uploaded();
    const edited = await service.updateDescription(owner, photo.id, '  Better words ');
    expect(edited).toMatchObject({ description: 'Better words', version: 2 });
    expect(decodeEvent(photos.events.at(-1)!, PhotoUpdated)).toMatchObject({ changedBy: 'owner', photo: { version: 2, description: 'Better words' } });
    await expect(service.updateDescription(admin, photo.id, 'By admin')).resolves.toMatchObject({ description: 'By admin', version: 3 });
  });

  it("changes nothing of someone else's photo: NOT_FOUND while they cannot see it, PERMISSION_DENIED after", async () => {
    const pending = await uploaded();
    await expect(service.updateDescription(other, pending.id, 'Mine now')).rejects.toEqual(notFound);
    const approved = await approvedPhoto();
    const events = photos.events.length;
    await expect(service.updateDescription(other, approved.id, 'Mine now')).rejects.toEqual(denied);
    expect(photos.events).toHaveLength(events);
    expect((await photos.findById(approved.id))?.description).toBeNull();
    expect((await photos.findById(pending.id))?.description).toBeNull();
  });

  it('sets, keeps and clears the alt text with the description', async () => {
    const photo = await uploaded();
    const described = await service.updateDescription(owner, photo.id, 'Kerb', '  A grey kerb split in two ');
    expect(described).toMatchObject({ description: 'Kerb', altText: 'A grey kerb split in two', version: 2 });
    expect(decodeEvent(photos.events.at(-1)!, PhotoUpdated)).toMatchObject({ photo: { version: 2 } });
    expect(await service.updateDescription(owner, photo.id, 'Kerb again')).toMatchObject({ description: 'Kerb again', altText: 'A grey kerb split in two' });
    expect(await service.updateDescription(admin, photo.id, 'Kerb', '  ')).toMatchObject({ altText: null, version: 4 });
    const events = photos.events.length;
    await expect(service.updateDescription(owner, photo.id, 'Kerb', 'x'.repeat(1001))).rejects.toEqual(invalid('Alt text must be 1000 characters or less'));
    await expect(service.updateDescription(owner, photo.id, 'Kerb', 'Tab\u0000')).rejects.toEqual(invalid('altText must not contain control characters'));
    expect(photos.events).toHaveLength(events);
    expect(await photos.findById(photo.id)).toMatchObject({ altText: null, version: 4 });
  });

  it('requires a description of at most 500 characters', async () => {
    const photo = await uploaded();
    await expect(service.updateDescription(owner, photo.id, '')).rejects.toEqual(invalid('Description is required'));
    await expect(service.updateDescription(owner, photo.id, '   ')).rejects.toEqual(invalid('Description is required'));
    await expect(service.updateDescription(owner, photo.id, 'x'.repeat(501))).rejects.toEqual(invalid('Description must be 500 characters or less'));
    await expect(service.updateDescription(owner, photo.id, 'x'.repeat(500))).resolves.toMatchObject({ version: 2 });
    await expect(service.updateDescription(owner, 999, 'x')).rejects.toEqual(notFound);
  });
});

describe('privacy bars', () => {
  const bar = (x: number, y: number, width: number, height: number): PrivacyBar => ({ x, y, width, height });

  it('burns the bars into new derivatives before answering, bumps both versions and deletes the old images', async () => {
    const photo = await uploaded();
    const bars = [bar(10, 20, 30, 40), bar(0, 0, 100, 100)];
    const { bars: saved, photo: changed } = await service.setPrivacyBars(owner, photo.id, bars);
    expect(saved).toEqual(bars);
    expect(storage.renders).toEqual([{ originalKey: photo.originalKey, bars }]);
    expect(changed).toMatchObject({ imageVersion: 2, version: 2, privacyBars: JSON.stringify(bars), originalKey: photo.originalKey });
    expect(changed.displayKey).not.toBe(photo.displayKey);
    expect(changed.mediumKey).not.toBe(photo.mediumKey);
    expect(storage.keys().sort()).toEqual([photo.originalKey, changed.displayKey, changed.mediumKey, changed.thumbnailKey].sort());
    expect(decodeEvent(photos.events.at(-1)!, PhotoUpdated)).toMatchObject({ changedBy: 'owner', photo: { version: 2 } });
    expect(await service.getPrivacyBars(owner, photo.id)).toEqual(bars);
    expect(await service.getPrivacyBars(admin, photo.id)).toEqual(bars);
    await expect(service.setPrivacyBars(admin, photo.id, [])).resolves.toMatchObject({ bars: [], photo: { imageVersion: 3 } });
  });

  it("changes nothing of someone else's photo and shows them no bars", async () => {
    const pending = await uploaded();
    await expect(service.setPrivacyBars(other, pending.id, [bar(1, 1, 5, 5)])).rejects.toEqual(notFound);
    await expect(service.getPrivacyBars(other, pending.id)).rejects.toEqual(notFound);
    const approved = await approvedPhoto();
    const events = photos.events.length;
    await expect(service.setPrivacyBars(other, approved.id, [bar(1, 1, 5, 5)])).rejects.toEqual(denied);
    await expect(service.getPrivacyBars(other, approved.id)).rejects.toEqual(denied);
    expect(storage.renders).toEqual([]);
    expect(photos.events).toHaveLength(events);
  });

  it.each([
    ['a negative position', [bar(-1, 0, 10, 10)], PRIVACY_BARS.invalid],
    ['a value just over 100', [bar(0, 0, 100.0000001, 10)], PRIVACY_BARS.invalid],
    ['NaN', [bar(Number.NaN, 0, 10, 10)], PRIVACY_BARS.invalid],
    ['Infinity', [bar(0, 0, Number.POSITIVE_INFINITY, 10)], PRIVACY_BARS.invalid],
    ['a zero width', [bar(10, 10, 0, 10)], PRIVACY_BARS.invalid],
    ['a zero height', [bar(10, 10, 10, 0)], PRIVACY_BARS.invalid],
    ['x + width over 100', [bar(60, 0, 50, 10)], PRIVACY_BARS.invalid],
    ['y + height over 100', [bar(0, 90.5, 10, 10)], PRIVACY_BARS.invalid],
    ['21 bars', Array.from({ length: 21 }, () => bar(1, 1, 1, 1)), PRIVACY_BARS.tooMany],
  ])('refuses %s, changing nothing', async (_name, bars, message) => {
    const photo = await uploaded();
    await expect(service.setPrivacyBars(owner, photo.id, bars)).rejects.toEqual(invalid(message));
    expect(storage.renders).toEqual([]);
    expect(await photos.findById(photo.id)).toMatchObject({ version: 1, imageVersion: 1, privacyBars: null });
  });

  it('accepts 0, 100, 20 bars and edges within rounding slack', () => {
    expect(validateBars([bar(0, 0, 100, 100)])).toHaveLength(1);
    expect(validateBars(Array.from({ length: 20 }, () => bar(0, 0, 1, 1)))).toHaveLength(20);
    expect(validateBars([bar(33.3333333333, 0, 66.6666666667, 100)])).toHaveLength(1);
    expect(validateBars([bar(0.1, 0.2, 99.9, 99.8)])).toHaveLength(1);
    expect(validateBars([])).toEqual([]);
    // Only the four numbers are kept.
    expect(validateBars([{ ...bar(1, 2, 3, 4), extra: 5 } as PrivacyBar])).toEqual([bar(1, 2, 3, 4)]);
  });

  it('answers ABORTED and deletes its new images when the images changed meanwhile', async () => {
    const photo = await uploaded();
    storage.onRender = async () => {
      storage.onRender = undefined;
      await service.setPrivacyBars(admin, photo.id, [bar(0, 0, 50, 50)]);
    };
    await expect(service.setPrivacyBars(owner, photo.id, [bar(1, 1, 10, 10)])).rejects.toEqual(kind('aborted', 'The photo changed meanwhile. Please try again.'));
    const stored = (await photos.findById(photo.id))!;
    expect(stored).toMatchObject({ imageVersion: 2, privacyBars: JSON.stringify([bar(0, 0, 50, 50)]) });
    expect(storage.keys().sort()).toEqual([stored.originalKey, stored.displayKey, stored.mediumKey, stored.thumbnailKey].sort());
  });

  it('writes its images over a medium image the backfill stored meanwhile, and deletes that one too', async () => {
    storage.withoutMedium = true;
    const photo = await uploaded();
    storage.withoutMedium = false;
    expect(photo.mediumKey).toBeNull();
    let backfilled = '';
    storage.onRender = async () => {
      storage.onRender = undefined;
      // What the medium backfill does: a medium image with the old bars, the image version left alone.
      const medium = await storage.renderMedium(null, photo.originalKey!, []);
      backfilled = medium.key;
      await photos.update(photo.id, { mediumKey: medium.key, mediumEtag: medium.etag, mediumSize: medium.size }, (p) =>
        makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: p.id, userId: p.userId, filename: p.filename, status: PhotoStatusMessage.PHOTO_STATUS_PENDING, version: p.version } }, { source: 'test' }),
      );
    };
    const { photo: changed } = await service.setPrivacyBars(owner, photo.id, [bar(1, 1, 10, 10)]);
    expect(changed).toMatchObject({ imageVersion: 2, privacyBars: JSON.stringify([bar(1, 1, 10, 10)]) });
    expect(changed.mediumKey).toMatch(/-medium\.webp$/);
    expect(changed.mediumKey).not.toBe(backfilled);
    expect(storage.keys().sort()).toEqual([photo.originalKey, changed.displayKey, changed.mediumKey, changed.thumbnailKey].sort());
  });

  it('leaves a photo without a medium image when storage renders none (the previous release), so no image keeps the old bars', async () => {
    const photo = await uploaded();
    storage.withoutMedium = true;
    const { photo: changed } = await service.setPrivacyBars(owner, photo.id, [bar(1, 1, 10, 10)]);
    expect(changed).toMatchObject({ mediumKey: null, mediumEtag: null, mediumSize: null });
    expect(storage.keys().sort()).toEqual([photo.originalKey, changed.displayKey, changed.thumbnailKey].sort());
    expect(await service.resolveImage(other, photo.filename, 'medium').catch(() => 'hidden')).toBe('hidden');
    expect(await service.resolveImage(owner, photo.filename, 'medium')).toMatchObject({ blobKey: changed.displayKey, fallback: true });
  });

  it('only logs when the replaced images cannot be deleted', async () => {
    const photo = await uploaded();
    storage.failDeletes = true;
    await expect(service.setPrivacyBars(owner, photo.id, [bar(1, 1, 10, 10)])).resolves.toMatchObject({ photo: { imageVersion: 2 } });
    expect(logged).toEqual([expect.objectContaining({ msg: expect.stringMatching(/replaced by new privacy bars/) })]);
  });
});

describe('deleting', () => {
  it('deletes the row with its event, then its blobs, and answers the deleted photo', async () => {
    const photo = await uploaded();
    const deleted = await service.delete(owner, photo.id);
    expect(deleted.id).toBe(photo.id);
    expect(await photos.findById(photo.id)).toBeNull();
    expect(storage.keys()).toEqual([]);
    const event = decodeEvent(photos.events.at(-1)!, PhotoDeleted);
    expect(event).toMatchObject({ deletedBy: 'owner', photo: { photoId: photo.id, version: 2 }, deletedAt: NOW });
    expect(event.actionId).toBeUndefined();
  });

  it('lets an admin delete any photo, carrying the moderation action', async () => {
    const photo = await approvedPhoto();
    await service.delete(admin, photo.id, 'action-9');
    expect(decodeEvent(photos.events.at(-1)!, PhotoDeleted)).toMatchObject({ deletedBy: 'admin', actionId: 'action-9' });
  });

  it("changes nothing of someone else's photo", async () => {
    const pending = await uploaded();
    const approved = await approvedPhoto();
    const events = photos.events.length;
    await expect(service.delete(other, pending.id)).rejects.toEqual(notFound);
    await expect(service.delete(other, approved.id)).rejects.toEqual(denied);
    expect(photos.count()).toBe(2);
    expect(photos.events).toHaveLength(events);
    expect(storage.keys()).toHaveLength(8);
  });

  it('only logs when the blobs cannot be deleted', async () => {
    const photo = await uploaded();
    storage.failDeletes = true;
    await expect(service.delete(owner, photo.id)).resolves.toMatchObject({ id: photo.id });
    expect(logged).toEqual([expect.objectContaining({ msg: expect.stringMatching(/of a deleted photo/) })]);
  });
});

describe('resolving images', () => {
  const variants: ImageVariant[] = ['display', 'medium', 'thumbnail', 'original'];

  it('serves a pending photo only to its owner and admins, privately', async () => {
    const photo = await uploaded();
    for (const viewer of [owner, admin]) {
      for (const variant of variants) {
        const image = await service.resolveImage(viewer, photo.filename, variant);
        expect(image).toMatchObject({ public: false, imageVersion: 1 });
      }
    }
    for (const viewer of [other, null]) for (const variant of variants) await expect(service.resolveImage(viewer, photo.filename, variant)).rejects.toEqual(notFound);
  });

  it("serves an approved photo's redacted images to everyone, publicly, and its original to the owner and admins only", async () => {
    const photo = await approvedPhoto();
    for (const viewer of [owner, admin, other, null]) {
      expect(await service.resolveImage(viewer, photo.filename, 'display')).toEqual({
        blobKey: photo.displayKey,
        contentType: 'image/webp',
        etag: photo.displayEtag,
        size: photo.displaySize,
        public: true,
        imageVersion: 1,
        fallback: false,
      });
      expect(await service.resolveImage(viewer, photo.filename, 'medium')).toEqual({
        blobKey: photo.mediumKey,
        contentType: 'image/webp',
        etag: photo.mediumEtag,
        size: photo.mediumSize,
        public: true,
        imageVersion: 1,
        fallback: false,
      });
      expect(await service.resolveImage(viewer, photo.filename, 'thumbnail')).toMatchObject({ blobKey: photo.thumbnailKey, public: true });
    }
    for (const viewer of [owner, admin]) {
      expect(await service.resolveImage(viewer, photo.filename, 'original')).toMatchObject({ blobKey: photo.originalKey, contentType: 'image/jpeg', public: false });
    }
    for (const viewer of [other, null]) await expect(service.resolveImage(viewer, photo.filename, 'original')).rejects.toEqual(notFound);
  });

  it('serves a rejected photo only to its owner and admins, and nothing for an unknown name', async () => {
    const photo = await uploaded();
    await service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Blurry', actionId: 'a' });
    await expect(service.resolveImage(owner, photo.filename, 'display')).resolves.toMatchObject({ public: false });
    await expect(service.resolveImage(other, photo.filename, 'display')).rejects.toEqual(notFound);
    await expect(service.resolveImage(admin, 'nothing.webp', 'display')).rejects.toEqual(notFound);
    await expect(service.resolveImage(admin, '', 'display')).rejects.toEqual(notFound);
    await expect(service.resolveImage(admin, 'x'.repeat(300), 'display')).rejects.toEqual(notFound);
  });

  it('answers the new images and image version after the bars change', async () => {
    const photo = await approvedPhoto();
    const { photo: changed } = await service.setPrivacyBars(owner, photo.id, [{ x: 1, y: 1, width: 5, height: 5 }]);
    expect(await service.resolveImage(null, photo.filename, 'display')).toMatchObject({ blobKey: changed.displayKey, imageVersion: 2 });
    expect(await service.resolveImage(null, photo.filename, 'medium')).toMatchObject({ blobKey: changed.mediumKey, imageVersion: 2, fallback: false });
  });

  it('answers the display image, marked fallback, for the medium image of a photo that has none yet, to whoever may see it', async () => {
    storage.withoutMedium = true;
    const pending = await uploaded();
    const approved = await approvedPhoto();
    for (const photo of [pending, approved]) expect(photo.mediumKey).toBeNull();
    for (const viewer of [owner, admin]) {
      expect(await service.resolveImage(viewer, pending.filename, 'medium')).toEqual({
        blobKey: pending.displayKey,
        contentType: 'image/webp',
        etag: pending.displayEtag,
        size: pending.displaySize,
        public: false,
        imageVersion: 1,
        fallback: true,
      });
    }
    for (const viewer of [other, null]) await expect(service.resolveImage(viewer, pending.filename, 'medium')).rejects.toEqual(notFound);
    for (const viewer of [owner, admin, other, null]) {
      expect(await service.resolveImage(viewer, approved.filename, 'medium')).toMatchObject({ blobKey: approved.displayKey, public: true, fallback: true });
    }
  });
});

describe('reports: holding for review and removing', () => {
  it('holds an approved photo back in review, keeping its approval time, and only an approved one', async () => {
    const photo = await approvedPhoto();
    clock = new Date(NOW.getTime() + 60_000);
    const held = await service.holdForReview(photo.id, 'hold-1');
    expect(held).toMatchObject({ status: 'pending', approvedAt: NOW, version: photo.version + 1 });
    expect(isUnderReview(held)).toBe(true);
    expect(decodeEvent(photos.events.at(-1)!, PhotoStatusChanged)).toMatchObject({
      photo: { status: PhotoStatusMessage.PHOTO_STATUS_PENDING, approvedAt: NOW },
      previousStatus: PhotoStatusMessage.PHOTO_STATUS_APPROVED,
      changedBy: 'reports',
      actionId: 'hold-1',
    });
    const events = photos.events.length;
    await expect(service.holdForReview(photo.id, 'hold-2')).rejects.toEqual(kind('failed_precondition'));
    await expect(service.holdForReview(999, 'hold-3')).rejects.toEqual(notFound);
    expect(photos.events).toHaveLength(events);
    expect(isUnderReview(await uploaded())).toBe(false);

    // Approved again, it returns where it was: the first approval's time, not the second's.
    clock = new Date(NOW.getTime() + 120_000);
    const back = await service.setStatus(admin, photo.id, { status: 'approved', actionId: 'a2' });
    expect(back).toMatchObject({ status: 'approved', approvedAt: NOW, reviewedAt: clock });
  });

  it('removes an approved photo only as a removal, with its reason, and tells who it was before', async () => {
    const photo = await approvedPhoto();
    await expect(service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Faces', actionId: 'r1' })).rejects.toEqual(kind('failed_precondition'));
    const removed = await service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Faces', actionId: 'r2', removal: true });
    expect(removed).toMatchObject({ status: 'rejected', rejectionReason: 'Faces', approvedAt: NOW });
    expect(decodeEvent(photos.events.at(-1)!, PhotoStatusChanged)).toMatchObject({ previousStatus: PhotoStatusMessage.PHOTO_STATUS_APPROVED, rejectionReason: 'Faces' });
    await expect(service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Again', actionId: 'r3', removal: true })).rejects.toEqual(
      kind('failed_precondition', 'Only pending or approved photos can be removed'),
    );
  });

  it('finds photos by id for the reported list, leaving out ids it does not have, at most 100 at a time', async () => {
    const [a, b] = [await uploaded(), await approvedPhoto()];
    expect((await service.getForReview([b.id, 999, a.id, b.id])).map((p) => p.id)).toEqual([b.id, a.id]);
    await expect(service.getForReview(Array.from({ length: 101 }, (_, i) => i + 1))).rejects.toEqual(invalid());
  });
});

describe('fix and resubmit', () => {
  const DAY = 24 * 60 * 60 * 1000;
  async function rejectedPhoto(reason = 'A face is visible'): Promise<Photo> {
    const photo = await uploaded(owner, 'Before');
    return service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: reason, actionId: 'r1' });
  }

  it('keeps what was rejected, and sends the fixed photo back to pending once, with the note and an audit action id', async () => {
    const photo = await rejectedPhoto();
    expect(photo).toMatchObject({ rejectedDescription: 'Before', rejectedPrivacyBars: photo.privacyBars });
    expect(resubmitDeadline(photo, NOW)).toEqual(new Date(NOW.getTime() + 30 * DAY));
    await service.updateDescription(owner, photo.id, 'After');
    clock = new Date(NOW.getTime() + 29 * DAY);
    const resubmitted = await service.resubmit(owner, photo.id, '  Added a bar over the face  ');
    expect(resubmitted).toMatchObject({
      status: 'pending',
      description: 'After',
      rejectionReason: null,
      previousRejectionReason: 'A face is visible',
      resubmissionNote: 'Added a bar over the face',
      resubmittedAt: clock,
      rejectedDescription: 'Before',
    });
    expect(isUnderReview(resubmitted)).toBe(false);
    const event = decodeEvent(photos.events.at(-1)!, PhotoStatusChanged);
    expect(event).toMatchObject({ previousStatus: PhotoStatusMessage.PHOTO_STATUS_REJECTED, changedBy: 'owner', note: 'Added a bar over the face' });
    expect(event.actionId).toMatch(/^[0-9a-f-]{36}$/);

    // Rejected again: final.
    const again = await service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Still visible', actionId: 'r2' });
    expect(resubmitDeadline(again, clock)).toBeNull();
    await expect(service.resubmit(owner, photo.id, undefined)).rejects.toEqual(kind('failed_precondition', 'This photo was resubmitted once already; its rejection is final.'));
  });

  it('refuses others, photos that are not rejected, a late resubmission and a long note, changing nothing', async () => {
    const photo = await rejectedPhoto();
    const events = photos.events.length;
    await expect(service.resubmit(other, photo.id, undefined)).rejects.toEqual(notFound);
    await expect(service.resubmit(admin, photo.id, undefined)).rejects.toEqual(denied);
    await expect(service.resubmit(owner, photo.id, 'x'.repeat(501))).rejects.toEqual(invalid('The note must be 500 characters or less'));
    await expect(service.resubmit(owner, (await uploaded()).id, undefined)).rejects.toEqual(kind('failed_precondition', 'Only a rejected photo can be resubmitted.'));
    clock = new Date(NOW.getTime() + 30 * DAY + 1);
    await expect(service.resubmit(owner, photo.id, undefined)).rejects.toEqual(kind('failed_precondition', 'The 30 days to resubmit this photo have passed.'));
    expect(photos.events).toHaveLength(events + 1);
    expect((await photos.findById(photo.id))?.status).toBe('rejected');
  });

  it('keeps rejections that can still be resubmitted out of the rejected-photos cleanup', async () => {
    const fresh = await rejectedPhoto();
    clock = new Date(NOW.getTime() - 31 * DAY);
    const old = await rejectedPhoto();
    clock = NOW;
    const settled = (await service.listForReview('rejected')).photos.map((p) => p.id);
    expect(settled).toEqual([old.id]);
    expect(settled).not.toContain(fresh.id);
  });
});

describe('reviewing', () => {
  it('approves a pending photo, recording who and when, with version + 1 and its event', async () => {
    const photo = await uploaded();
    const approved = await service.setStatus(admin, photo.id, { status: 'approved', actionId: 'act-1' });
    expect(approved).toMatchObject({ status: 'approved', approvedBy: 'admin', approvedAt: NOW, reviewedAt: NOW, rejectionReason: null, version: 2 });
    expect(decodeEvent(photos.events.at(-1)!, PhotoStatusChanged)).toMatchObject({
      photo: { photoId: photo.id, status: PhotoStatusMessage.PHOTO_STATUS_APPROVED, approvedAt: NOW, version: 2 },
      previousStatus: PhotoStatusMessage.PHOTO_STATUS_PENDING,
      changedBy: 'admin',
      changedAt: NOW,
      actionId: 'act-1',
    });
  });

  it('rejects only with a reason, trimmed, of at most 500 characters', async () => {
    const photo = await uploaded();
    for (const reason of [undefined, '', '   ']) {
      await expect(service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: reason, actionId: 'a' })).rejects.toEqual(invalid('Please provide a reason for rejection.'));
    }
    await expect(service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'x'.repeat(501), actionId: 'a' })).rejects.toEqual(invalid());
    expect((await photos.findById(photo.id))?.status).toBe('pending');
    const rejected = await service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: '  Not a crack ', actionId: 'a' });
    expect(rejected).toMatchObject({ status: 'rejected', rejectionReason: 'Not a crack', reviewedAt: NOW, approvedBy: null, approvedAt: null });
    expect(decodeEvent(photos.events.at(-1)!, PhotoStatusChanged)).toMatchObject({ rejectionReason: 'Not a crack', photo: { status: PhotoStatusMessage.PHOTO_STATUS_REJECTED } });
  });

  it('refuses a second decision, another status, and an unknown photo', async () => {
    const photo = await approvedPhoto();
    const events = photos.events.length;
    await expect(service.setStatus(admin, photo.id, { status: 'rejected', rejectionReason: 'Changed my mind', actionId: 'a' })).rejects.toEqual(
      kind('failed_precondition', 'Only pending photos can be approved or rejected'),
    );
    await expect(service.setStatus(admin, photo.id, { status: 'approved', actionId: 'a' })).rejects.toEqual(kind('failed_precondition'));
    await expect(service.setStatus(admin, photo.id, { status: 'pending', actionId: 'a' })).rejects.toEqual(invalid());
    await expect(service.setStatus(admin, photo.id, { status: null, actionId: 'a' })).rejects.toEqual(invalid());
    await expect(service.setStatus(admin, 999, { status: 'approved', actionId: 'a' })).rejects.toEqual(notFound);
    expect(photos.events).toHaveLength(events);
    expect((await photos.findById(photo.id))?.status).toBe('approved');
  });

  it('lists pending oldest first, today’s decisions newest first, everything newest first, a page at a time', async () => {
    const p = [];
    for (let i = 0; i < 5; i++) p.push(await uploaded());
    clock = new Date('2030-06-14T23:59:59Z'); // yesterday
    await service.setStatus(admin, p[0]!.id, { status: 'approved', actionId: 'a' });
    clock = new Date('2030-06-15T00:00:00Z');
    await service.setStatus(admin, p[1]!.id, { status: 'approved', actionId: 'a' });
    clock = new Date('2030-06-15T09:00:00Z');
    await service.setStatus(admin, p[2]!.id, { status: 'approved', actionId: 'a' });
    await service.setStatus(admin, p[3]!.id, { status: 'rejected', rejectionReason: 'No', actionId: 'a' });
    clock = NOW;

    expect(await ids('pending')).toEqual([p[4]!.id]);
    expect(await ids('approved_today')).toEqual([p[2]!.id, p[1]!.id]);
    expect(await ids('rejected_today')).toEqual([p[3]!.id]);
    expect(await ids('all')).toEqual(p.map((x) => x.id).reverse());
    const page2 = await service.listForReview('all', { page: 2, limit: 2 });
    expect(page2).toMatchObject({ total: 5, totalPages: 3 });
    expect(page2.photos.map((x) => x.id)).toEqual([p[2]!.id, p[1]!.id]);
    expect((await service.listForReview('all', { page: 9, limit: 2 })).photos).toEqual([]);
    expect(await service.listForReview('all', {})).toMatchObject({ total: 5, totalPages: 1 });
  });

  it('refuses a bad page, limit or list', async () => {
    await expect(service.listForReview('all', { limit: 101 })).rejects.toEqual(invalid());
    await expect(service.listForReview('all', { limit: -1 })).rejects.toEqual(invalid());
    await expect(service.listForReview('all', { page: -1 })).rejects.toEqual(invalid());
    await expect(service.listForReview('all', { page: 1.5 })).rejects.toEqual(invalid());
    await expect(service.listForReview(null, {})).rejects.toEqual(invalid());
    await expect(service.listForReview('all', { limit: 100 })).resolves.toMatchObject({ total: 0, totalPages: 0 });
  });

  async function ids(list: 'pending' | 'approved_today' | 'rejected_today' | 'all'): Promise<number[]> {
    return (await service.listForReview(list)).photos.map((x) => x.id);
  }
});

describe('the uploaders projection', () => {
  it('keeps the newest names whatever order events arrive in, and forgets deleted users', async () => {
    const photo = await uploaded();
    await applyUploaderEvent(userUpdated('owner', 'New', 20), photos.uploaders);
    await applyUploaderEvent(userUpdated('owner', 'Old', 10), photos.uploaders);
    expect((await service.get(owner, photo.id)).uploader).toMatchObject({ firstName: 'New', lastName: 'Lovelace' });
    await applyUploaderEvent(decodeEventOfType(makeEvent('auth.user.deleted', UserDeleted, { userId: 'owner' }, { source: 'auth' }), UPLOADER_EVENTS), photos.uploaders);
    expect((await service.get(owner, photo.id)).uploader).toBeNull();
  });
});

function userUpdated(id: string, firstName: string, seconds: number) {
  return decodeEventOfType(
    makeEvent(
      'auth.user.updated',
      UserUpdated,
      { user: { id, firstName, lastName: 'Lovelace' }, isAdmin: false, isEnabled: true, hasAcceptedTerms: true, updatedAt: new Date(Date.UTC(2030, 0, 1, 0, 0, seconds)) },
      { source: 'auth' },
    ),
    UPLOADER_EVENTS,
  );
}
