import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger, type Caller } from '@snapcracks/kit';
import { PhotoStatus } from '@snapcracks/proto/common/v1';
import { CleanupService, ORPHAN_MIN_AGE_MS } from './cleanup.service.js';
import { ModerationService } from './moderation.service.js';
import { InMemoryModerationActionRepository } from './testing/in-memory-moderation-action.repository.js';
import { FakePhotoService, photoMessage } from './testing/fake-photo-service.js';
import { FakeAuthService, FakeStorageService } from './testing/fake-storage-service.js';

const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const silent = createLogger('test', 'silent');
const NOW = new Date('2030-06-15T12:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms);
const HOUR = ORPHAN_MIN_AGE_MS;

let actions: InMemoryModerationActionRepository;
let photos: FakePhotoService;
let storage: FakeStorageService;
let auth: FakeAuthService;
let clock: () => Date;
let cleanups: CleanupService;

beforeEach(() => {
  actions = new InMemoryModerationActionRepository();
  photos = new FakePhotoService();
  storage = new FakeStorageService();
  auth = new FakeAuthService();
  clock = () => NOW;
  const moderation = new ModerationService(actions, photos, silent);
  cleanups = new CleanupService(actions, moderation, photos, storage, auth, silent, () => clock());
});

describe('the orphaned-files cleanup', () => {
  it('removes old blobs that no photo and no avatar uses, and nothing else', async () => {
    storage.put('local:photos/2030/06/a-original.jpg', ago(2 * HOUR)); // a photo uses it
    storage.put('local:photos/2030/06/b-original.jpg', ago(2 * HOUR)); // orphan
    storage.put('local:avatars/in-use.webp', ago(3 * HOUR)); // someone's avatar
    storage.put('local:avatars/replaced.webp', ago(3 * HOUR)); // orphan
    storage.put('local:photos/2030/06/c-display.webp', ago(HOUR - 1000)); // an upload in flight: too young
    storage.put('local:photos/2030/06/d-thumb.webp', new Date(NOW.getTime() - 1000)); // written a second ago
    storage.put('local:exports/report.csv', ago(5 * HOUR)); // not a photo or avatar path: never ours to remove
    photos.referencedKeys.add('local:photos/2030/06/a-original.jpg');
    auth.avatarsInUse.add('in-use.webp');

    const result = await cleanups.run(admin, 'orphaned');

    expect(result).toEqual({ removed: 2, failed: 0, message: 'Removed 2 orphaned files (local: 2); checked 5 files older than an hour.' });
    expect(storage.keys()).toEqual([
      'local:avatars/in-use.webp',
      'local:exports/report.csv',
      'local:photos/2030/06/a-original.jpg',
      'local:photos/2030/06/c-display.webp',
      'local:photos/2030/06/d-thumb.webp',
    ]);
    expect(auth.asked).toEqual([['in-use.webp', 'replaced.webp']]);
    // Storage is told the cut-off too, so it keeps anything written after the listing.
    expect(storage.deleteCalls).toEqual([{ keys: ['local:avatars/replaced.webp', 'local:photos/2030/06/b-original.jpg'], createdBefore: ago(HOUR) }]);
    expect(actions.all()).toEqual([
      { id: expect.any(String), actorId: 'admin-1', action: 'cleanup_orphaned', photoId: null, reason: result.message, photoOwnerId: null, createdAt: expect.any(Date) },
    ]);
  });

  it('asks for references after listing each page, so a key that became used meanwhile is kept', async () => {
    storage.put('local:photos/x-original.jpg', ago(2 * HOUR));
    storage.onList = () => photos.referencedKeys.add('local:photos/x-original.jpg');
    expect((await cleanups.run(admin, 'orphaned')).removed).toBe(0);
    expect(storage.keys()).toEqual(['local:photos/x-original.jpg']);
  });

  it('walks every page, oldest first, across backends, and cleans the backends it can', async () => {
    for (let i = 0; i < 1200; i++) storage.put(`${['local', 's3', 'drive'][i % 3]}:photos/p${String(i).padStart(4, '0')}.webp`, ago(2 * HOUR + i * 1000));
    for (let i = 0; i < 1200; i += 2) photos.referencedKeys.add(`${['local', 's3', 'drive'][i % 3]}:photos/p${String(i).padStart(4, '0')}.webp`);
    storage.unavailable.add('drive');

    const result = await cleanups.run(admin, 'orphaned');

    expect(result).toEqual({
      removed: 400,
      failed: 200,
      message: 'Removed 400 orphaned files (local: 200, s3: 200); checked 1200 files older than an hour. 200 files could not be removed now; run the cleanup again later.',
    });
    expect(storage.keys().filter((key) => key.startsWith('drive:'))).toHaveLength(400);
    expect(photos.calls.filter((c) => c.method === 'findReferencedBlobs')).toHaveLength(3);
  });

  it('stops after its time budget and says that more remain', async () => {
    for (let i = 0; i < 1000; i++) storage.put(`local:photos/p${String(i).padStart(4, '0')}.webp`, ago(2 * HOUR));
    let t = NOW.getTime();
    clock = () => new Date((t += 10_000));
    const result = await cleanups.run(admin, 'orphaned');
    expect(result.removed).toBe(500);
    expect(result.message).toMatch(/More files remain to be checked; run the cleanup again\.$/);
  });

  it('says so when there is nothing to remove', async () => {
    expect(await cleanups.run(admin, 'orphaned')).toEqual({ removed: 0, failed: 0, message: 'Removed 0 orphaned files; checked 0 files older than an hour.' });
  });
});

describe('the rejected-photos cleanup', () => {
  it('deletes every rejected photo through the normal deletion, each with its audit entry, and no other photo', async () => {
    for (let id = 1; id <= 230; id++) {
      photos.seed(photoMessage(id, `owner-${id % 3}`, { status: id % 2 === 0 ? PhotoStatus.PHOTO_STATUS_REJECTED : id % 3 === 0 ? PhotoStatus.PHOTO_STATUS_APPROVED : PhotoStatus.PHOTO_STATUS_PENDING }));
    }
    const result = await cleanups.run(admin, 'rejected');

    expect(result).toEqual({ removed: 115, failed: 0, message: 'Deleted 115 rejected photos and their files.' });
    for (let id = 1; id <= 230; id++) expect(photos.get(id) === undefined, `photo ${id}`).toBe(id % 2 === 0);
    const deletions = photos.calls.filter((c) => c.method === 'deletePhoto');
    expect(deletions).toHaveLength(115);
    expect(deletions.every((c) => c.caller === admin && typeof (c.request as { actionId?: string }).actionId === 'string')).toBe(true);
    // The photo service's deletion events carry the action ids, as for any admin deletion.
    expect(photos.events.filter((e) => e.type === 'photo.photo.deleted')).toHaveLength(115);
    const entries = actions.all();
    expect(entries.filter((a) => a.action === 'delete')).toHaveLength(115);
    expect(entries.filter((a) => a.action === 'cleanup_rejected')).toEqual([expect.objectContaining({ photoId: null, reason: result.message, actorId: 'admin-1' })]);
  });

  it('counts photos that could not be deleted, goes past them, and skips those deleted meanwhile', async () => {
    for (let id = 1; id <= 150; id++) photos.seed(photoMessage(id, 'o', { status: PhotoStatus.PHOTO_STATUS_REJECTED }));
    for (let id = 1; id <= 120; id++) photos.failingDeletes.add(id);
    const original = photos.deletePhoto;
    photos.deletePhoto = async (request, options) => {
      // Another admin deletes photo 130 just before this cleanup reaches it.
      if (request.id === 130 && photos.get(130)) await original({ id: 130 }, options);
      return original(request, options);
    };
    const result = await cleanups.run(admin, 'rejected');
    expect(result).toEqual({ removed: 29, failed: 120, message: 'Deleted 29 rejected photos and their files. 120 photos could not be deleted now; run the cleanup again later.' });
    expect(photos.calls.filter((c) => c.method === 'deletePhoto' && (c.request as { id: number }).id <= 120)).toHaveLength(120);
  });

  it('answers a singular count in singular', async () => {
    photos.seed(photoMessage(1, 'o', { status: PhotoStatus.PHOTO_STATUS_REJECTED }));
    expect((await cleanups.run(admin, 'rejected')).message).toBe('Deleted 1 rejected photo and their files.');
  });
});
