import { beforeEach, describe, expect, it } from 'vitest';
import { makeEvent } from '@snapcracks/kit';
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import { DuplicateUserError, type EventOf, type User, type UserRepository } from '../user.repository.js';

export interface ContractSubject {
  /** The repository under test, over an empty users table. */
  repository(): UserRepository;
  /** Types of the events committed so far (the outbox orders by a millisecond clock, so order is not compared). */
  eventTypes(): Promise<string[]>;
}

/**
 * What every UserRepository promises, run against PostgreSQL (integration) and against the in-memory fake
 * (unit), so the fake the service's unit tests rely on cannot drift from the real thing.
 */
const EVERYONE = { words: [], offset: 0, limit: 100 };

export function describeUserRepositoryContract(name: string, subject: ContractSubject): void {
  describe(`${name} keeps the UserRepository contract`, () => {
    let repo: UserRepository;
    let seen: User[];
    const updated: EventOf = (user) => {
      seen.push(user);
      return makeEvent('auth.user.updated', UserUpdated, { user: { id: user.id }, isAdmin: user.isAdmin, isEnabled: user.isEnabled, hasAcceptedTerms: user.hasAcceptedTerms }, { source: 'test' });
    };
    const deleted: EventOf = (user) => {
      seen.push(user);
      return makeEvent('auth.user.deleted', UserDeleted, { userId: user.id }, { source: 'test' });
    };
    const failing: EventOf = () => {
      throw new Error('no event');
    };
    beforeEach(() => {
      repo = subject.repository();
      seen = [];
    });

    it('creates an account with defaults, finds it three ways, and builds the event from the stored row', async () => {
      const user = await repo.create({ oidcSubject: 'iss|a', email: 'a@example.com', firstName: 'Ada' }, updated);
      expect(user).toMatchObject({ oidcSubject: 'iss|a', email: 'a@example.com', firstName: 'Ada', isAdmin: false, isEnabled: true, hasAcceptedTerms: false, displayName: null });
      expect(seen).toEqual([user]);
      expect(await repo.findById(user.id)).toEqual(user);
      expect(await repo.findBySubject('iss|a')).toEqual(user);
      expect(await repo.findByEmail('a@example.com')).toEqual(user);
      expect(await repo.findById('00000000-0000-4000-8000-000000000000')).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.updated']);
    });

    it('refuses a second account with the same subject or email, changing nothing', async () => {
      await repo.create({ oidcSubject: 'iss|a', email: 'a@example.com' }, updated);
      await expect(repo.create({ oidcSubject: 'iss|a', email: 'b@example.com' }, updated)).rejects.toBeInstanceOf(DuplicateUserError);
      await expect(repo.create({ oidcSubject: 'iss|b', email: 'a@example.com' }, updated)).rejects.toBeInstanceOf(DuplicateUserError);
      expect((await repo.list(EVERYONE)).total).toBe(1);
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.updated']);
    });

    it('updates an account with its event, answers null for a missing one, and refuses a taken email', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a', email: 'a@example.com' }, updated);
      const b = await repo.create({ oidcSubject: 'iss|b', email: 'b@example.com' }, updated);
      const changed = await repo.update(a.id, { displayName: 'Ada', isAdmin: true }, updated);
      expect(changed).toMatchObject({ id: a.id, displayName: 'Ada', isAdmin: true, email: 'a@example.com' });
      expect(seen.at(-1)).toEqual(changed);
      expect(await repo.update('00000000-0000-4000-8000-000000000000', { displayName: 'x' }, updated)).toBeNull();
      await expect(repo.update(b.id, { email: 'a@example.com' }, updated)).rejects.toBeInstanceOf(DuplicateUserError);
      expect((await repo.findById(b.id))?.email).toBe('b@example.com');
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.updated', 'auth.user.updated', 'auth.user.updated']);
    });

    it('links an account to another identity with its changes in one write', async () => {
      const a = await repo.create({ oidcSubject: 'old|a', email: 'a@example.com' }, updated);
      const linked = await repo.linkSubject(a.id, 'new|a', { firstName: 'Ada' }, updated);
      expect(linked).toMatchObject({ id: a.id, oidcSubject: 'new|a', firstName: 'Ada' });
      expect(await repo.findBySubject('old|a')).toBeNull();
      expect((await repo.findBySubject('new|a'))?.id).toBe(a.id);
      expect(await repo.linkSubject('00000000-0000-4000-8000-000000000000', 'x|y', {}, updated)).toBeNull();
    });

    it('deletes an account with its event, building it from the row as it was', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a', email: 'a@example.com' }, updated);
      expect(await repo.delete(a.id, deleted)).toEqual(a);
      expect(seen.at(-1)).toEqual(a);
      expect(await repo.findById(a.id)).toBeNull();
      expect(await repo.delete(a.id, deleted)).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.deleted', 'auth.user.updated']);
    });

    it('commits nothing when the event cannot be built', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a', email: 'a@example.com' }, updated);
      await expect(repo.create({ oidcSubject: 'iss|b' }, failing)).rejects.toThrow('no event');
      await expect(repo.update(a.id, { displayName: 'Ada' }, failing)).rejects.toThrow('no event');
      await expect(repo.delete(a.id, failing)).rejects.toThrow('no event');
      expect((await repo.list(EVERYONE)).users).toEqual([a]);
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.updated']);
    });

    it('lists newest first and knows whether an enabled admin exists', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a' }, updated);
      await new Promise((resolve) => setTimeout(resolve, 5)); // creation times have millisecond precision
      const b = await repo.create({ oidcSubject: 'iss|b', isAdmin: true }, updated);
      expect(await repo.list(EVERYONE)).toEqual({ users: [b, a], total: 2 });
      expect(await repo.hasEnabledAdmin()).toBe(true);
      await repo.update(b.id, { isEnabled: false }, updated);
      expect(await repo.hasEnabledAdmin()).toBe(false);
    });

    it('pages newest first with the total on every page', async () => {
      const created: User[] = [];
      for (const letter of ['a', 'b', 'c', 'd', 'e']) {
        created.push(await repo.create({ oidcSubject: `iss|${letter}` }, updated));
        await new Promise((resolve) => setTimeout(resolve, 5)); // creation times have millisecond precision
      }
      const newestFirst = created.reverse().map((u) => u.id);
      const page = async (offset: number, limit: number) => {
        const { users, total } = await repo.list({ words: [], offset, limit });
        return { ids: users.map((u) => u.id), total };
      };
      expect(await page(0, 2)).toEqual({ ids: newestFirst.slice(0, 2), total: 5 });
      expect(await page(2, 2)).toEqual({ ids: newestFirst.slice(2, 4), total: 5 });
      expect(await page(4, 2)).toEqual({ ids: newestFirst.slice(4), total: 5 });
      expect(await page(6, 2)).toEqual({ ids: [], total: 5 });
    });

    it('finds accounts in which every word appears in a name or the email, ignoring case', async () => {
      const ada = await repo.create({ oidcSubject: 'iss|ada', email: 'ada@analytical.example', firstName: 'Ada', lastName: 'Lovelace' }, updated);
      const grace = await repo.create({ oidcSubject: 'iss|grace', email: 'grace@navy.example', firstName: 'Grace', lastName: 'Hopper' }, updated);
      const named = await repo.update((await repo.create({ oidcSubject: 'iss|c', email: 'c@example.com' }, updated)).id, { displayName: 'Countess of Cracks' }, updated);
      const odd = await repo.create({ oidcSubject: 'iss|odd', email: 'per%cent_under@example.com', firstName: 'C:\\cracks' }, updated);
      const find = async (...words: string[]) => (await repo.list({ words, offset: 0, limit: 10 })).users.map((u) => u.id).sort();
      expect(await find('ADA')).toEqual([ada.id]);
      expect(await find('hopp')).toEqual([grace.id]);
      expect(await find('navy.EXAMPLE')).toEqual([grace.id]);
      expect(await find('countess')).toEqual([named!.id]);
      expect(await find('ada', 'lovelace')).toEqual([ada.id]);
      expect(await find('ada', 'hopper')).toEqual([]);
      expect(await find('example')).toEqual([ada.id, grace.id, named!.id, odd.id].sort());
      // Wildcards of LIKE are plain characters in a search.
      expect(await find('%')).toEqual([odd.id]);
      expect(await find('_')).toEqual([odd.id]);
      expect(await find('\\')).toEqual([odd.id]);
      expect(await find('c:\\')).toEqual([odd.id]);
      expect((await repo.list({ words: ['ada'], offset: 0, limit: 10 })).total).toBe(1);
    });

    it('deletes only while the account still meets the condition', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a', isAdmin: true }, updated);
      expect(await repo.delete(a.id, deleted, { isAdmin: false })).toBeNull();
      expect(await repo.findById(a.id)).toEqual(a);
      await repo.update(a.id, { isAdmin: false }, updated);
      expect(await repo.delete(a.id, deleted, { isAdmin: false })).toMatchObject({ id: a.id });
      expect(await repo.findById(a.id)).toBeNull();
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.deleted', 'auth.user.updated', 'auth.user.updated']);
    });

    it('tells which avatar names some account uses', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a' }, updated);
      const b = await repo.create({ oidcSubject: 'iss|b' }, updated);
      await repo.update(a.id, { customProfileImage: 'one.webp' }, updated);
      await repo.update(b.id, { customProfileImage: 'two.webp' }, updated);
      expect((await repo.findAvatarsInUse(['two.webp', 'gone.webp', 'one.webp'])).sort()).toEqual(['one.webp', 'two.webp']);
      expect(await repo.findAvatarsInUse([])).toEqual([]);
    });
  });
}
