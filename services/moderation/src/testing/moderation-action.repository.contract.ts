import { beforeEach, describe, expect, it } from 'vitest';
import type { ModerationActionRepository, NewModerationAction } from '../moderation-action.repository.js';

export interface ContractSubject {
  /** The repository under test, over an empty audit log. */
  repository(): ModerationActionRepository;
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const entry = (n: number, more: Partial<NewModerationAction> = {}): NewModerationAction => ({
  id: id(n),
  actorId: 'admin-1',
  action: 'approve',
  photoId: 7,
  reason: null,
  photoOwnerId: 'owner-1',
  ...more,
});

/**
 * What every ModerationActionRepository promises, run against PostgreSQL (integration) and against the
 * in-memory fake (unit), so the fake the service's unit tests rely on cannot drift from the real thing.
 */
export function describeModerationActionRepositoryContract(name: string, subject: ContractSubject): void {
  describe(`${name} keeps the ModerationActionRepository contract`, () => {
    let repo: ModerationActionRepository;
    beforeEach(() => {
      repo = subject.repository();
    });

    it('records an entry with every field and the time of the write', async () => {
      expect(await repo.record(entry(1, { action: 'reject', reason: 'Blurry', photoId: 9_007_199_254 }))).toBe(true);
      const [stored] = await repo.list({ limit: 10 });
      expect(stored).toMatchObject({ id: id(1), actorId: 'admin-1', action: 'reject', photoId: 9_007_199_254, reason: 'Blurry', photoOwnerId: 'owner-1' });
      expect(stored!.createdAt).toBeInstanceOf(Date);
      // The fake runs its own clock; PostgreSQL stamps the write. Either way it is a real time.
      expect(Number.isNaN(stored!.createdAt.getTime())).toBe(false);
    });

    it('keeps the given time, and nulls as nulls', async () => {
      const at = new Date('2026-03-04T05:06:07.089Z');
      await repo.record(entry(1, { action: 'delete', photoId: null, photoOwnerId: null, createdAt: at }));
      expect(await repo.list({ limit: 10 })).toEqual([{ ...entry(1, { action: 'delete', photoId: null, photoOwnerId: null }), createdAt: at }]);
    });

    it('records one entry per id: a second write of the same action changes nothing', async () => {
      const at = new Date('2026-03-04T05:06:07.000Z');
      expect(await repo.record(entry(1, { createdAt: at }))).toBe(true);
      expect(await repo.record(entry(1, { actorId: 'someone-else', reason: 'different', createdAt: new Date() }))).toBe(false);
      expect(await repo.list({ limit: 10 })).toEqual([{ ...entry(1), createdAt: at }]);
    });

    it('lists newest first, at most `limit`, and only one photo when asked', async () => {
      const at = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s));
      await repo.record(entry(1, { photoId: 1, createdAt: at(1) }));
      await repo.record(entry(2, { photoId: 2, createdAt: at(3) }));
      await repo.record(entry(3, { photoId: 1, createdAt: at(2) }));
      await repo.record(entry(4, { photoId: null, createdAt: at(4) }));
      expect((await repo.list({ limit: 10 })).map((a) => a.id)).toEqual([id(4), id(2), id(3), id(1)]);
      expect((await repo.list({ limit: 2 })).map((a) => a.id)).toEqual([id(4), id(2)]);
      expect((await repo.list({ limit: 10, photoId: 1 })).map((a) => a.id)).toEqual([id(3), id(1)]);
      expect(await repo.list({ limit: 10, photoId: 99 })).toEqual([]);
      expect((await repo.list({ limit: 10, photoIds: [2, 1] })).map((a) => a.id)).toEqual([id(2), id(3), id(1)]);
      expect((await repo.list({ limit: 10, photoId: 2, photoIds: [99] })).map((a) => a.id)).toEqual([id(2)]);
      expect(await repo.list({ limit: 10, photoIds: [] })).toEqual([]);
    });

    it('records cleanups, which are about no single photo', async () => {
      await repo.record(entry(1, { action: 'cleanup_orphaned', photoId: null, photoOwnerId: null, reason: 'Removed 2 orphaned files.' }));
      expect(await repo.list({ limit: 10 })).toEqual([expect.objectContaining({ action: 'cleanup_orphaned', photoId: null, reason: 'Removed 2 orphaned files.' })]);
      expect(await repo.list({ limit: 10, photoIds: [7] })).toEqual([]);
    });
  });
}
