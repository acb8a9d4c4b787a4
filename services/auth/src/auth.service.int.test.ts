import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, createMemoryEventBus, createOutbox, openDatabase, type Database } from '@snapcracks/kit';
import { decodeEvent } from '@snapcracks/kit';
import { createTestDatabase, outboxEvents, type TestDatabase } from '@snapcracks/kit/testing';
import { UserUpdated } from '@snapcracks/proto/events/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { AuthService } from './auth.service.js';
import { PrismaUserRepository } from './user.repository.js';

const logger = createLogger('test', 'silent');
let database: TestDatabase;
let db: Database<PrismaClient>;
let prisma: PrismaClient;
let service: AuthService;

beforeAll(async () => {
  database = await createTestDatabase('auth');
  await applyMigrations({ databaseUrl: database.url, schema: 'auth', migrationsDir: fileURLToPath(new URL('../prisma/migrations', import.meta.url)) });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: 'auth', logger });
  prisma = db.prisma;
  const outbox = createOutbox({ prisma, schema: 'auth', bus: createMemoryEventBus({ logger }), logger });
  service = new AuthService(new PrismaUserRepository(prisma, outbox), { ADMIN_EMAILS: ['chief@example.com'] }, logger);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});
beforeEach(async () => {
  await prisma.$executeRawUnsafe('TRUNCATE auth.users, auth.outbox');
});

const claims = (subject: string, email?: string, firstName = 'Ada', lastName = 'Lovelace', emailVerified = true) => ({
  issuer: 'https://idp.example',
  subject,
  email,
  emailVerified,
  firstName,
  lastName,
});
const eventTypes = async () => (await outboxEvents(prisma, 'auth')).map((e) => e.type);

describe('AuthService against PostgreSQL', () => {
  it('creates the account at first sign-in and refreshes provider fields later, keeping what the user set', async () => {
    const first = await service.signIn(claims('s1', 'Ada@Example.com'));
    expect(first).toMatchObject({ created: true, user: { email: 'ada@example.com', isAdmin: false, isEnabled: true, hasAcceptedTerms: false } });
    await service.updateProfile({ userId: first.user.id, isAdmin: false, hasAcceptedTerms: true }, '  Countess  ');
    const second = await service.signIn(claims('s1', 'ada@example.com', 'Augusta', 'King'));
    expect(second).toMatchObject({ created: false, user: { id: first.user.id, firstName: 'Augusta', lastName: 'King', displayName: 'Countess' } });
    expect(await eventTypes()).toEqual(['auth.user.updated', 'auth.user.updated', 'auth.user.updated']);
  });

  it('keeps the stored name, email and picture when a later sign-in leaves them out or blank', async () => {
    const first = await service.signIn({ ...claims('apple', 'ada@example.com'), profileImageUrl: 'https://idp.example/ada.png' });
    // Sign in with Apple sends the name at the first sign-in only; other providers send blanks or drop the email.
    const later = [
      { issuer: 'https://idp.example', subject: 'apple', emailVerified: true },
      { ...claims('apple', 'ada@example.com', '', ''), profileImageUrl: '' },
      { ...claims('apple', undefined, '   ', ' '), emailVerified: false },
    ];
    for (const sign of later) {
      const { user, created } = await service.signIn(sign);
      expect(created).toBe(false);
      expect(user).toMatchObject({ id: first.user.id, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', profileImageUrl: 'https://idp.example/ada.png' });
    }
    expect(await prisma.user.findUniqueOrThrow({ where: { id: first.user.id } })).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com' });
    // What the other services hear: every sign-in's event carries the whole name, none an erased one.
    const events = (await outboxEvents(prisma, 'auth')).map((event) => decodeEvent(event, UserUpdated));
    expect(events).toHaveLength(4);
    for (const event of events) expect(event).toMatchObject({ user: { firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: 'https://idp.example/ada.png' }, email: 'ada@example.com' });

    // A name the provider does send still replaces the stored one, whole.
    const renamed = await service.signIn(claims('apple', undefined, 'Augusta', ''));
    expect(renamed.user).toMatchObject({ firstName: 'Augusta', lastName: null, email: 'ada@example.com' });
  });

  it('makes ADMIN_EMAILS admins at sign-in and never demotes at sign-in', async () => {
    const { user } = await service.signIn(claims('boss', 'chief@example.com'));
    expect(user.isAdmin).toBe(true);
    const other = await service.signIn(claims('promoted', 'someone@example.com'));
    await service.updateUser({ userId: user.id, isAdmin: true, hasAcceptedTerms: true }, other.user.id, { isAdmin: true });
    expect((await service.signIn(claims('promoted', 'someone@example.com'))).user.isAdmin).toBe(true);
  });

  it('refuses a sign-in whose unverified email belongs to another account, changing nothing', async () => {
    await service.signIn(claims('first', 'shared@example.com'));
    await expect(service.signIn(claims('second', 'shared@example.com', 'Ada', 'Lovelace', false))).rejects.toThrow(/already uses this email/);
    expect(await prisma.user.count()).toBe(1);
  });

  it('links the account to a new identity when the sign-in vouches for its email', async () => {
    const { user } = await service.signIn(claims('first', 'shared@example.com'));
    const linked = await service.signIn({ ...claims('elsewhere', 'shared@example.com'), issuer: 'https://other-idp.example' });
    expect(linked).toMatchObject({ created: false, user: { id: user.id, oidcSubject: 'https://other-idp.example|elsewhere' } });
    expect(await prisma.user.count()).toBe(1);
    expect(await eventTypes()).toEqual(['auth.user.updated', 'auth.user.updated']);
  });

  it('records terms acceptance once, with its time', async () => {
    const { user } = await service.signIn(claims('t', 't@example.com'));
    const caller = { userId: user.id, isAdmin: false, hasAcceptedTerms: false };
    const accepted = await service.acceptTerms(caller);
    expect(accepted.hasAcceptedTerms).toBe(true);
    expect(accepted.termsAcceptedAt).toBeInstanceOf(Date);
    const again = await service.acceptTerms(caller);
    expect(again.termsAcceptedAt).toEqual(accepted.termsAcceptedAt);
  });

  it('validates display names with the spec messages', async () => {
    const { user } = await service.signIn(claims('d', 'd@example.com'));
    const caller = { userId: user.id, isAdmin: false, hasAcceptedTerms: true };
    await expect(service.updateProfile(caller, '   ')).rejects.toThrow('Display name is required');
    await expect(service.updateProfile(caller, 'x'.repeat(51))).rejects.toThrow('Display name must be 50 characters or less');
    expect((await service.updateProfile(caller, ` ${'y'.repeat(50)} `)).displayName).toBe('y'.repeat(50));
  });

  it('keeps admins from locking themselves out, from taking an email in use, and from deleting admins', async () => {
    const { user: admin } = await service.signIn(claims('a', 'chief@example.com'));
    const { user: member } = await service.signIn(claims('m', 'member@example.com'));
    const asAdmin = { userId: admin.id, isAdmin: true, hasAcceptedTerms: true };
    await expect(service.updateUser(asAdmin, admin.id, { isEnabled: false })).rejects.toThrow(/your own account/);
    await expect(service.updateUser(asAdmin, member.id, { email: 'chief@example.com' })).rejects.toThrow(/already uses this email/);
    await expect(service.deleteUser(asAdmin, admin.id)).rejects.toThrow('Admin accounts cannot be deleted');
    await service.deleteUser(asAdmin, member.id);
    expect(await prisma.user.findUnique({ where: { id: member.id } })).toBeNull();
    expect((await eventTypes()).at(-1)).toBe('auth.user.deleted');
  });
});
