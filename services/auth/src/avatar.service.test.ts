import { beforeEach, describe, expect, it } from 'vitest';
import { InvalidArgumentError, NotFoundError, type Caller } from '@snapcracks/kit';
import { createRecordingLogger, type LogRecord } from '@snapcracks/kit/testing';
import { AuthService } from './auth.service.js';
import { AvatarService } from './avatar.service.js';
import type { AvatarStorage, StoredAvatar } from './storage.client.js';
import { InMemoryUserRepository } from './testing/in-memory-user.repository.js';

/** Storage's avatars in memory: stores what it reads whole, and can be told to refuse an upload or fail deletions. */
class FakeAvatarStorage implements AvatarStorage {
  readonly avatars = new Set<string>();
  readonly callers: Caller[] = [];
  refuse: Error | undefined;
  failDeletes = false;
  private next = 0;

  async storeAvatar(caller: Caller, chunks: AsyncIterable<Buffer>): Promise<StoredAvatar> {
    this.callers.push(caller);
    for await (const chunk of chunks) void chunk;
    if (this.refuse) throw this.refuse;
    const name = `avatar-${++this.next}.webp`;
    this.avatars.add(name);
    return { name, facesDetected: 1 };
  }

  async deleteAvatar(name: string): Promise<void> {
    if (this.failDeletes) throw new Error('storage unavailable');
    this.avatars.delete(name);
  }
}

async function* bytes(): AsyncIterable<Buffer> {
  yield Buffer.from('jpeg bytes');
}

let users: InMemoryUserRepository;
let storage: FakeAvatarStorage;
let logged: LogRecord[];
let avatars: AvatarService;
let member: Caller;

beforeEach(() => {
  users = new InMemoryUserRepository();
  storage = new FakeAvatarStorage();
  const recording = createRecordingLogger('info');
  logged = recording.records;
  avatars = new AvatarService(new AuthService(users, { ADMIN_EMAILS: [] }, recording.logger), storage, recording.logger);
  const account = users.seed({ oidcSubject: 'https://idp.example|m', email: 'member@example.com' });
  member = { userId: account.id, isAdmin: false, hasAcceptedTerms: true };
});

describe('uploading an avatar', () => {
  it('stores it as the member, points the account at it and deletes the one it replaces', async () => {
    const first = await avatars.upload(member, bytes());
    expect(first).toEqual({ user: expect.objectContaining({ id: member.userId, customProfileImage: 'avatar-1.webp' }), facesDetected: 1 });
    const second = await avatars.upload(member, bytes());
    expect(second.user.customProfileImage).toBe('avatar-2.webp');
    expect([...storage.avatars]).toEqual(['avatar-2.webp']);
    expect(storage.callers).toEqual([member, member]);
    expect(users.eventTypes()).toEqual(['auth.user.updated', 'auth.user.updated']);
  });

  it('passes a refusal by storage on, leaving the account and its avatar as they were', async () => {
    await avatars.upload(member, bytes());
    storage.refuse = new InvalidArgumentError('Only JPG, JPEG or PNG images up to 5MB are accepted');
    await expect(avatars.upload(member, bytes())).rejects.toBe(storage.refuse);
    expect((await users.findById(member.userId))?.customProfileImage).toBe('avatar-1.webp');
    expect([...storage.avatars]).toEqual(['avatar-1.webp']);
    expect(users.eventTypes()).toHaveLength(1);
  });

  it('deletes the new avatar when the account cannot take it', async () => {
    const gone: Caller = { userId: '00000000-0000-4000-8000-000000000000', isAdmin: false, hasAcceptedTerms: true };
    await expect(avatars.upload(gone, bytes())).rejects.toBeInstanceOf(NotFoundError);
    expect([...storage.avatars]).toEqual([]);
  });

  it('answers the new avatar when a deletion fails, and logs the blob for the orphaned-files cleanup', async () => {
    await avatars.upload(member, bytes());
    storage.failDeletes = true;
    expect((await avatars.upload(member, bytes())).user.customProfileImage).toBe('avatar-2.webp');
    expect(logged).toEqual([expect.objectContaining({ level: 40, avatar: 'avatar-1.webp', msg: 'could not delete an avatar blob; the orphaned-files cleanup will' })]);
  });
});
