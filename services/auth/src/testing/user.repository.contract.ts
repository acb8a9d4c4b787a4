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
      expect(await repo.list()).toHaveLength(1);
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
      expect(await repo.list()).toEqual([a]);
      expect((await subject.eventTypes()).sort()).toEqual(['auth.user.updated']);
    });

    it('lists newest first and knows whether an enabled admin exists', async () => {
      const a = await repo.create({ oidcSubject: 'iss|a' }, updated);
      await new Promise((resolve) => setTimeout(resolve, 5)); // creation times have millisecond precision
      const b = await repo.create({ oidcSubject: 'iss|b', isAdmin: true }, updated);
      expect((await repo.list()).map((u) => u.id)).toEqual([b.id, a.id]);
      expect(await repo.hasEnabledAdmin()).toBe(true);
      await repo.update(b.id, { isEnabled: false }, updated);
      expect(await repo.hasEnabledAdmin()).toBe(false);
    });
  });
}
