import { randomUUID } from 'node:crypto';
import type { Envelope } from '@snapcracks/kit';
import { DuplicateUserError, type DeleteCondition, type EventOf, type NewUser, type User, type UserChanges, type UserListQuery, type UserRepository } from '../user.repository.js';

/**
 * The users table in memory, for unit tests of the service's rules. It keeps the contract of the real
 * repository (user.repository.contract.ts runs against both): unique subjects and emails, null for a missing
 * account, and each committed change's event in `events`, in order. Rows are copied in and out, so a test
 * sees only what was stored.
 */
export class InMemoryUserRepository implements UserRepository {
  readonly events: Envelope[] = [];
  readonly #rows = new Map<string, User>();
  #clock = Date.UTC(2025, 0, 1);

  /** Puts an account in place without an event, as if it had been there before the test. */
  seed(user: NewUser & Partial<User>): User {
    const row = this.#newRow(user);
    this.#assertUnique(row);
    this.#rows.set(row.id, row);
    return structuredClone(row);
  }

  async findById(id: string): Promise<User | null> {
    return this.#copy(this.#rows.get(id));
  }

  async findBySubject(oidcSubject: string): Promise<User | null> {
    return this.#copy([...this.#rows.values()].find((u) => u.oidcSubject === oidcSubject));
  }

  async findByEmail(email: string): Promise<User | null> {
    return this.#copy([...this.#rows.values()].find((u) => u.email === email));
  }

  async list(query: UserListQuery): Promise<{ users: User[]; total: number }> {
    const words = query.words.map((w) => w.toLowerCase());
    const matching = [...this.#rows.values()]
      .filter((u) => words.every((word) => [u.displayName, u.firstName, u.lastName, u.email].some((value) => value?.toLowerCase().includes(word))))
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    return { users: matching.slice(query.offset, query.offset + query.limit).map((u) => structuredClone(u)), total: matching.length };
  }

  async hasEnabledAdmin(): Promise<boolean> {
    return [...this.#rows.values()].some((u) => u.isAdmin && u.isEnabled);
  }

  async findAvatarsInUse(names: string[]): Promise<string[]> {
    const used = new Set([...this.#rows.values()].map((u) => u.customProfileImage));
    return [...new Set(names)].filter((name) => used.has(name));
  }

  async create(user: NewUser, eventOf: EventOf): Promise<User> {
    const row = this.#newRow(user);
    this.#assertUnique(row);
    const event = eventOf(structuredClone(row)); // built before storing: a throwing builder changes nothing
    this.#rows.set(row.id, row);
    this.events.push(event);
    return structuredClone(row);
  }

  async update(id: string, changes: UserChanges, eventOf: EventOf): Promise<User | null> {
    return this.#write(id, changes, eventOf);
  }

  async linkSubject(id: string, oidcSubject: string, changes: UserChanges, eventOf: EventOf): Promise<User | null> {
    return this.#write(id, { ...changes, oidcSubject }, eventOf);
  }

  async delete(id: string, eventOf: EventOf, when: DeleteCondition = {}): Promise<User | null> {
    const row = this.#rows.get(id);
    if (!row) return null;
    if (when.isAdmin !== undefined && row.isAdmin !== when.isAdmin) return null;
    const event = eventOf(structuredClone(row));
    this.#rows.delete(id);
    this.events.push(event);
    return structuredClone(row);
  }

  /** The types of the events committed so far, oldest first. */
  eventTypes(): string[] {
    return this.events.map((e) => e.type);
  }

  #write(id: string, changes: Partial<User>, eventOf: EventOf): User | null {
    const row = this.#rows.get(id);
    if (!row) return null;
    const next: User = { ...row, ...stripUndefined(changes), id, updatedAt: this.#tick() };
    this.#assertUnique(next);
    const event = eventOf(structuredClone(next)); // built before storing: a throwing builder changes nothing
    this.#rows.set(id, next);
    this.events.push(event);
    return structuredClone(next);
  }

  #newRow(user: NewUser & Partial<User>): User {
    const now = this.#tick();
    return {
      id: randomUUID(),
      email: null,
      firstName: null,
      lastName: null,
      profileImageUrl: null,
      displayName: null,
      customProfileImage: null,
      isAdmin: false,
      isEnabled: true,
      hasAcceptedTerms: false,
      termsAcceptedAt: null,
      createdAt: now,
      updatedAt: now,
      ...stripUndefined(user),
      oidcSubject: user.oidcSubject,
    };
  }

  #assertUnique(row: User): void {
    for (const other of this.#rows.values()) {
      if (other.id === row.id) continue;
      if (other.oidcSubject === row.oidcSubject || (row.email !== null && other.email === row.email)) throw new DuplicateUserError();
    }
  }

  #copy(row: User | undefined): User | null {
    return row ? structuredClone(row) : null;
  }

  #tick(): Date {
    this.#clock += 1000;
    return new Date(this.#clock);
  }
}

/** Prisma ignores undefined fields in `data`; so does the fake. */
function stripUndefined<T extends object>(changes: T): Partial<T> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as Partial<T>;
}
