import { beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeEvent, decodeEventOfType, makeEvent } from '@snapcracks/kit';
import { createRecordingLogger, type LogRecord } from '@snapcracks/kit/testing';
import { PhotoDeleted, UserDeleted } from '@snapcracks/proto/events/v1';
import type { PhotoOwnerStore } from './photo-owners.store.js';
import { PhotoService } from '../photo.service.js';
import { FakeStorage } from '../testing/fake-storage.js';
import { InMemoryPhotoRepository } from '../testing/in-memory-photo.repository.js';
import { USER_EVENTS, applyUserEvent } from './users.consumer.js';

const NOW = new Date('2030-01-02T03:04:05Z');
const userDeleted = (userId: string) => decodeEventOfType(makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' }), USER_EVENTS);

let photos: InMemoryPhotoRepository;
let storage: FakeStorage;
let logged: LogRecord[];
let service: PhotoService;

/** The owner's photos as the repository deletes them, one event each, on the in-memory table. */
const owners: PhotoOwnerStore = {
  async deleteAllOf(userId, eventOf) {
    const mine = (await photos.listByUser(userId)).sort((a, b) => a.id - b.id);
    for (const photo of mine) await photos.delete(photo.id, eventOf);
    return mine;
  },
};

beforeEach(() => {
  photos = new InMemoryPhotoRepository();
  storage = new FakeStorage();
  const recording = createRecordingLogger('warn');
  logged = recording.records;
  service = new PhotoService(photos, storage, recording.logger, () => NOW);
});

/** A stored photo with its four blobs in storage. */
function photoOf(userId: string, status: 'pending' | 'approved' = 'approved') {
  const id = photos.seed({ userId }).id;
  const keys = ['original', 'display', 'medium', 'thumb'].map((kind) => `local:photos/${id}-${kind}`);
  for (const key of keys) storage.blobs.set(key, { key, size: 1, contentType: 'image/webp', etag: key, storageType: 'local', driveFileId: null });
  photos.seed({ id, userId, status, version: 3, originalKey: keys[0]!, displayKey: keys[1]!, mediumKey: keys[2]!, thumbnailKey: keys[3]! });
  return { id, keys };
}

describe('the users consumer', () => {
  it('deletes every photo of a deleted account with a photo.photo.deleted each, then their blobs', async () => {
    const first = photoOf('gone');
    const second = photoOf('gone', 'pending');
    const kept = photoOf('stays');
    await applyUserEvent(userDeleted('gone'), service, owners);
    expect(await photos.listByUser('gone')).toEqual([]);
    expect((await photos.listByUser('stays')).map((p) => p.id)).toEqual([kept.id]);
    expect(photos.events.map((e) => e.type)).toEqual(['photo.photo.deleted', 'photo.photo.deleted']);
    const deleted = photos.events.map((e) => decodeEvent(e, PhotoDeleted));
    // One version past the last state consumers saw, so every projection takes it; no actor: it is no moderation decision.
    expect(deleted).toEqual([
      { photo: expect.objectContaining({ photoId: first.id, userId: 'gone', version: 4 }), deletedAt: NOW },
      { photo: expect.objectContaining({ photoId: second.id, userId: 'gone', version: 4 }), deletedAt: NOW },
    ]);
    await vi.waitFor(() => expect(storage.keys().sort()).toEqual([...kept.keys].sort()));
    expect(storage.calls.filter((c) => c.method === 'deleteBlobs')).toEqual([{ method: 'deleteBlobs', caller: null }]);
  });

  it('deletes the blobs a thousand keys at a time, as storage takes them', async () => {
    for (let i = 0; i < 400; i += 1) photoOf('prolific');
    const { photos: gone, blobsDeleted } = await service.deleteAllOf(owners, 'prolific');
    expect(gone).toHaveLength(400);
    await blobsDeleted;
    expect(storage.calls.filter((c) => c.method === 'deleteBlobs')).toHaveLength(2);
    expect(storage.keys()).toEqual([]);
  });

  it('deletes the photos even when storage fails, leaving the blobs to the orphaned-files cleanup', async () => {
    const photo = photoOf('gone');
    storage.failDeletes = true;
    const { blobsDeleted } = await service.deleteAllOf(owners, 'gone');
    await blobsDeleted;
    expect(await photos.findById(photo.id)).toBeNull();
    expect(storage.keys().sort()).toEqual([...photo.keys].sort());
    expect(logged).toEqual([expect.objectContaining({ level: 40, keys: photo.keys, msg: expect.stringMatching(/orphan cleanup/) })]);
  });

  it('changes nothing the second time, for an account without photos, or without an id', async () => {
    photoOf('gone');
    await applyUserEvent(userDeleted('gone'), service, owners);
    const events = photos.events.length;
    const calls = storage.calls.length;
    await applyUserEvent(userDeleted('gone'), service, owners);
    await applyUserEvent(userDeleted('no-photos'), service, owners);
    await applyUserEvent(userDeleted(''), service, owners);
    expect(photos.events).toHaveLength(events);
    expect(storage.calls).toHaveLength(calls);
  });
});
