import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AlreadyExistsError, FailedPreconditionError, InvalidArgumentError, NotFoundError, PermissionDeniedError, decodeEvent, makeEvent, type Caller } from '@snapcracks/kit';
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import type { SignInRequest } from '@snapcracks/proto/auth/v1';
import { AuthService } from './auth.service.js';
import { DuplicateUserError, type User } from './user.repository.js';
import { InMemoryUserRepository } from './testing/in-memory-user.repository.js';
import { createRecordingLogger, type LogRecord } from '@snapcracks/kit/testing';

const ISSUER = 'https://idp.example';
const MISSING_ID = '00000000-0000-4000-8000-000000000000';

let users: InMemoryUserRepository;
let logged: LogRecord[];
let service: AuthService;

beforeEach(() => {
  users = new InMemoryUserRepository();
  const recording = createRecordingLogger('info');
  logged = recording.records;
  service = new AuthService(users, { ADMIN_EMAILS: ['chief@example.com'] }, recording.logger);
});

const claims = (subject: string, email?: string, more: Partial<SignInRequest> = {}): SignInRequest => ({
  issuer: ISSUER,
  subject,
  email,
  emailVerified: true,
  firstName: 'Ada',
  lastName: 'Lovelace',
  ...more,
});
const as = (user: User, role: Partial<Caller> = {}): Caller => ({ userId: user.id, isAdmin: user.isAdmin, hasAcceptedTerms: true, ...role });
const adminAccount = () => users.seed({ oidcSubject: `${ISSUER}|boss`, email: 'boss@example.com', isAdmin: true });
const memberAccount = (email = 'member@example.com') => users.seed({ oidcSubject: `${ISSUER}|${email}`, email });
const lastUpdate = () => decodeEvent(users.events.at(-1)!, UserUpdated);

describe('signing in', () => {
  it('creates the account at the first sign-in, with the normalised email, and reports it', async () => {
    const { user, created } = await service.signIn(claims('s1', '  Ada@Example.COM '));
    expect(created).toBe(true);
    expect(user).toMatchObject({ oidcSubject: `${ISSUER}|s1`, email: 'ada@example.com', firstName: 'Ada', isAdmin: false, isEnabled: true, hasAcceptedTerms: false });
    expect(users.eventTypes()).toEqual(['auth.user.updated']);
    expect(lastUpdate()).toMatchObject({ user: { id: user.id, firstName: 'Ada' }, email: 'ada@example.com', isAdmin: false });
  });

  it('refreshes what the provider owns at later sign-ins and keeps what the person set', async () => {
    const first = await service.signIn(claims('s1', 'ada@example.com'));
    await service.updateProfile(as(first.user), 'Countess');
    const again = await service.signIn(claims('s1', 'ada@example.com', { firstName: 'Augusta', lastName: 'King', profileImageUrl: 'https://img/a.png' }));
    expect(again).toMatchObject({ created: false, user: { id: first.user.id, firstName: 'Augusta', lastName: 'King', profileImageUrl: 'https://img/a.png', displayName: 'Countess' } });
    expect(users.eventTypes()).toHaveLength(3);
  });

  it('keeps what a later sign-in leaves out or sends blank, and reports the name it kept', async () => {
    const first = await service.signIn(claims('s1', 'ada@example.com', { profileImageUrl: 'https://img/a.png' }));
    const kept = { id: first.user.id, firstName: 'Ada', lastName: 'Lovelace', email: 'ada@example.com', profileImageUrl: 'https://img/a.png' };
    const { firstName: _f, lastName: _l, ...nameless } = claims('s1', undefined);
    expect((await service.signIn(nameless)).user).toMatchObject(kept);
    expect(lastUpdate()).toMatchObject({ user: { firstName: 'Ada', lastName: 'Lovelace', profileImageUrl: 'https://img/a.png' }, email: 'ada@example.com' });
    expect((await service.signIn(claims('s1', ' ', { firstName: '', lastName: '  ', profileImageUrl: '' }))).user).toMatchObject(kept);
  });

  it('takes a name the provider sends as the whole name', async () => {
    await service.signIn(claims('s1', 'ada@example.com'));
    expect((await service.signIn(claims('s1', 'ada@example.com', { firstName: 'Cher', lastName: undefined }))).user).toMatchObject({ firstName: 'Cher', lastName: null });
    expect((await service.signIn(claims('s1', 'ada@example.com', { firstName: undefined, lastName: 'Lovelace' }))).user).toMatchObject({ firstName: null, lastName: 'Lovelace' });
  });

  it('creates an account without an email when the provider gives none', async () => {
    const { user } = await service.signIn(claims('anon', undefined, { emailVerified: false }));
    expect(user.email).toBeNull();
  });

  it('refuses an unverified email that belongs to another account, changing nothing', async () => {
    const holder = memberAccount('shared@example.com');
    const attempt = service.signIn(claims('stranger', 'shared@example.com', { emailVerified: false }));
    await expect(attempt).rejects.toBeInstanceOf(FailedPreconditionError);
    await expect(attempt).rejects.toThrow('Another account already uses this email address. Please contact support.');
    expect(await users.findBySubject(`${ISSUER}|stranger`)).toBeNull();
    expect(await users.findById(holder.id)).toEqual(holder);
    expect(users.events).toEqual([]);
  });

  it('links the account that has the verified email when the issuer changed, and logs it', async () => {
    const before = users.seed({ oidcSubject: 'http://127.0.0.1:4001|dev-sub', email: 'ada@example.com', displayName: 'Countess', hasAcceptedTerms: true });
    const { user, created } = await service.signIn({ ...claims('real-sub', 'ada@example.com'), issuer: 'https://accounts.example' });
    expect(created).toBe(false);
    expect(user).toMatchObject({ id: before.id, oidcSubject: 'https://accounts.example|real-sub', displayName: 'Countess', hasAcceptedTerms: true });
    expect(await users.findBySubject('http://127.0.0.1:4001|dev-sub')).toBeNull();
    expect(users.eventTypes()).toEqual(['auth.user.updated']);
    expect(logged).toEqual([
      expect.objectContaining({ userId: before.id, from: 'http://127.0.0.1:4001|dev-sub', to: 'https://accounts.example|real-sub', msg: expect.stringMatching(/linked/) }),
    ]);
    // The next sign-in finds it by its new identity, with nothing more to link.
    expect((await service.signIn({ ...claims('real-sub', 'ada@example.com'), issuer: 'https://accounts.example' })).user.id).toBe(before.id);
    expect(logged).toHaveLength(1);
  });

  it('never merges two accounts: a known identity cannot take an email another account holds, verified or not', async () => {
    memberAccount('taken@example.com');
    const { user } = await service.signIn(claims('me', 'me@example.com'));
    await expect(service.signIn(claims('me', 'taken@example.com'))).rejects.toBeInstanceOf(FailedPreconditionError);
    expect((await users.findById(user.id))?.email).toBe('me@example.com');
  });

  it('answers a race lost to another sign-in (the database refused a duplicate) with the same refusal', async () => {
    vi.spyOn(users, 'create').mockRejectedValueOnce(new DuplicateUserError());
    await expect(service.signIn(claims('s1', 'ada@example.com'))).rejects.toThrow(/already uses this email/);
  });
});

describe('ADMIN_EMAILS', () => {
  it('makes a listed, verified email admin when the account is created (case-insensitive)', async () => {
    expect((await service.signIn(claims('boss', 'Chief@Example.com'))).user.isAdmin).toBe(true);
  });

  it('never trusts an unverified email', async () => {
    expect((await service.signIn(claims('boss', 'chief@example.com', { emailVerified: false }))).user.isAdmin).toBe(false);
  });

  it('makes a listed account admin when a sign-in links it', async () => {
    users.seed({ oidcSubject: 'old|boss', email: 'chief@example.com' });
    expect((await service.signIn(claims('boss', 'chief@example.com'))).user.isAdmin).toBe(true);
  });

  it('promotes an existing listed account at sign-in while the product has no enabled admin', async () => {
    users.seed({ oidcSubject: `${ISSUER}|chief`, email: 'chief@example.com' }); // signed in before the operator listed the email
    expect((await service.signIn(claims('chief', 'chief@example.com'))).user.isAdmin).toBe(true);
  });

  it('does not promote an existing account once an admin exists, so a demoted admin stays demoted', async () => {
    const admin = adminAccount();
    const { user: chief } = await service.signIn(claims('chief', 'chief@example.com'));
    expect(chief.isAdmin).toBe(true);
    await service.updateUser(as(admin), chief.id, { isAdmin: false });
    expect((await service.signIn(claims('chief', 'chief@example.com'))).user.isAdmin).toBe(false);
  });

  it('never demotes at sign-in an admin who is not listed', async () => {
    const { user } = await service.signIn(claims('m', 'member@example.com'));
    await service.updateUser(as(adminAccount()), user.id, { isAdmin: true });
    expect((await service.signIn(claims('m', 'member@example.com'))).user.isAdmin).toBe(true);
  });
});

describe('reading users', () => {
  it('lets the gateway read anyone, a user themself, an admin anyone, and nobody else', async () => {
    const member = memberAccount();
    const other = memberAccount('other@example.com');
    expect((await service.getUser(member.id, { caller: null, service: 'gateway' })).id).toBe(member.id);
    expect((await service.getUser(member.id, { caller: as(member), service: 'photo' })).id).toBe(member.id);
    expect((await service.getUser(member.id, { caller: as(other, { isAdmin: true }), service: 'photo' })).id).toBe(member.id);
    await expect(service.getUser(member.id, { caller: as(other), service: 'photo' })).rejects.toBeInstanceOf(PermissionDeniedError);
    await expect(service.getUser(member.id, { caller: null, service: 'photo' })).rejects.toBeInstanceOf(PermissionDeniedError);
  });

  it('answers not found for a missing user', async () => {
    await expect(service.getUser(MISSING_ID, { caller: null, service: 'gateway' })).rejects.toBeInstanceOf(NotFoundError);
  });

  it('lists users newest first, 20 to a page by default', async () => {
    const a = memberAccount('a@example.com');
    const b = memberAccount('b@example.com');
    const { users, total, totalPages } = await service.listUsers();
    expect({ ids: users.map((u) => u.id), total, totalPages }).toEqual({ ids: [b.id, a.id], total: 2, totalPages: 1 });
    const more = Array.from({ length: 21 }, (_, i) => memberAccount(`m${i}@example.com`));
    const first = await service.listUsers();
    expect({ count: first.users.length, total: first.total, totalPages: first.totalPages }).toEqual({ count: 20, total: 23, totalPages: 2 });
    expect((await service.listUsers({ page: 2 })).users.map((u) => u.id)).toEqual([more[0]!.id, b.id, a.id]);
    expect((await service.listUsers({ page: 3 })).users).toEqual([]);
  });

  it('pages and searches as asked, every word matching a name or the email', async () => {
    const ada = users.seed({ oidcSubject: 'x|ada', email: 'ada@example.com', firstName: 'Ada', lastName: 'Lovelace' });
    users.seed({ oidcSubject: 'x|grace', email: 'grace@example.com', firstName: 'Grace', lastName: 'Hopper' });
    const countess = users.seed({ oidcSubject: 'x|c', email: 'c@example.com', displayName: 'The Countess' });
    expect(await service.listUsers({ query: '  ada   LOVELACE ' })).toEqual({ users: [ada], total: 1, totalPages: 1 });
    expect((await service.listUsers({ query: 'countess' })).users).toEqual([countess]);
    expect(await service.listUsers({ query: 'nobody' })).toEqual({ users: [], total: 0, totalPages: 0 });
    expect(await service.listUsers({ query: 'example', page: 2, limit: 2 })).toMatchObject({ total: 3, totalPages: 2, users: [ada] });
    expect((await service.listUsers({ query: '   ' })).total).toBe(3);
  });

  it.each([
    [{ page: -1 }, 'page must be a whole number from 1 to 100000'],
    [{ page: 1.5 }, 'page must be a whole number from 1 to 100000'],
    [{ limit: 101 }, 'limit must be a whole number from 1 to 100'],
    [{ limit: -5 }, 'limit must be a whole number from 1 to 100'],
    [{ query: 'x'.repeat(101) }, 'Search must be 100 characters or less'],
  ])('refuses the list query %j', async (search, message) => {
    const attempt = service.listUsers(search);
    await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(attempt).rejects.toThrow(message);
  });

  it('tells the orphaned-files cleanup which avatars are in use', async () => {
    users.seed({ oidcSubject: 'x|a', customProfileImage: 'in-use.webp' });
    expect(await service.findReferencedAvatars(['in-use.webp', 'orphan.webp', 'in-use.webp'])).toEqual(['in-use.webp']);
    await expect(service.findReferencedAvatars(Array.from({ length: 1001 }, (_, i) => `${i}.webp`))).rejects.toBeInstanceOf(InvalidArgumentError);
  });
});

describe('terms', () => {
  it('records acceptance once, with its time', async () => {
    const member = memberAccount();
    const accepted = await service.acceptTerms(as(member, { hasAcceptedTerms: false }));
    expect(accepted.hasAcceptedTerms).toBe(true);
    expect(accepted.termsAcceptedAt).toBeInstanceOf(Date);
    const again = await service.acceptTerms(as(member));
    expect(again.termsAcceptedAt).toEqual(accepted.termsAcceptedAt);
    expect(users.eventTypes()).toEqual(['auth.user.updated']);
    expect(lastUpdate().hasAcceptedTerms).toBe(true);
  });

  it('answers not found for a caller whose account is gone', async () => {
    await expect(service.acceptTerms({ userId: MISSING_ID, isAdmin: false, hasAcceptedTerms: false })).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('profile', () => {
  it('trims the display name and stores it', async () => {
    const member = memberAccount();
    expect((await service.updateProfile(as(member), '  Countess  ')).displayName).toBe('Countess');
    expect(lastUpdate().user?.displayName).toBe('Countess');
  });

  it('refuses a blank or too long display name with the spec messages, counting after trimming', async () => {
    const member = memberAccount();
    await expect(service.updateProfile(as(member), '   ')).rejects.toThrow('Display name is required');
    await expect(service.updateProfile(as(member), 'x'.repeat(51))).rejects.toThrow('Display name must be 50 characters or less');
    expect((await service.updateProfile(as(member), ` ${'y'.repeat(50)} `)).displayName).toBe('y'.repeat(50));
    expect(users.eventTypes()).toHaveLength(1);
  });

  it('refuses an avatar name that is not a plain file name', async () => {
    const member = memberAccount();
    for (const name of ['../etc/passwd', '', '..', 'a/b.webp', 'x'.repeat(201)]) {
      await expect(service.setAvatar(as(member), name)).rejects.toBeInstanceOf(InvalidArgumentError);
    }
    expect(users.eventTypes()).toEqual([]);
    expect((await service.setAvatar(as(member), 'avatar-1.webp')).user.customProfileImage).toBe('avatar-1.webp');
  });

  it('sets the avatar, announces it, and answers the one it replaces for deletion', async () => {
    const member = memberAccount();
    const first = await service.setAvatar(as(member), 'one.webp');
    expect(first).toMatchObject({ user: { id: member.id, customProfileImage: 'one.webp' }, previous: undefined });
    expect(lastUpdate().user?.customProfileImage).toBe('one.webp');
    const second = await service.setAvatar(as(member), 'two.webp');
    expect(second).toMatchObject({ user: { customProfileImage: 'two.webp' }, previous: 'one.webp' });
    expect(lastUpdate().user?.customProfileImage).toBe('two.webp');
    // The same name again replaces nothing: there is nothing to delete.
    expect((await service.setAvatar(as(member), 'two.webp')).previous).toBeUndefined();
    expect(users.eventTypes()).toEqual(['auth.user.updated', 'auth.user.updated', 'auth.user.updated']);
    await expect(service.setAvatar({ userId: MISSING_ID, isAdmin: false, hasAcceptedTerms: true }, 'three.webp')).rejects.toBeInstanceOf(NotFoundError);
  });

  it('announces a display-name change for the caches that show it', async () => {
    const member = memberAccount();
    const user = await service.updateProfile(as(member), 'Lady Lovelace');
    expect(users.eventTypes()).toEqual(['auth.user.updated']);
    expect(lastUpdate()).toMatchObject({ user: { id: member.id, displayName: 'Lady Lovelace' } });
    expect(user.updatedAt.getTime()).toBeGreaterThanOrEqual(member.updatedAt.getTime());
  });

  it('answers not found for a caller whose account is gone', async () => {
    await expect(service.updateProfile({ userId: MISSING_ID, isAdmin: false, hasAcceptedTerms: true }, 'Ada')).rejects.toBeInstanceOf(NotFoundError);
  });
});

describe('admin user management', () => {
  it('keeps an admin from disabling or demoting themself, changing nothing', async () => {
    const admin = adminAccount();
    for (const edit of [{ isEnabled: false }, { isAdmin: false }, { displayName: 'Boss', isAdmin: false }]) {
      const attempt = service.updateUser(as(admin), admin.id, edit);
      await expect(attempt).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(attempt).rejects.toThrow('You cannot disable or remove admin rights from your own account');
    }
    expect(await users.findById(admin.id)).toEqual(admin);
    expect(users.events).toEqual([]);
    expect((await service.updateUser(as(admin), admin.id, { displayName: 'Boss', isEnabled: true, isAdmin: true })).displayName).toBe('Boss');
  });

  it('lets an admin change another account, trimming the name and normalising the email, with its event', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    const changed = await service.updateUser(as(admin), member.id, { displayName: '  New Name ', email: ' New@Example.com ', isEnabled: false, isAdmin: true });
    expect(changed).toMatchObject({ displayName: 'New Name', email: 'new@example.com', isEnabled: false, isAdmin: true });
    expect(lastUpdate()).toMatchObject({ user: { id: member.id, displayName: 'New Name' }, email: 'new@example.com', isEnabled: false, isAdmin: true });
  });

  it('changes only the fields given', async () => {
    const admin = adminAccount();
    const member = users.seed({ oidcSubject: `${ISSUER}|m`, email: 'member@example.com', displayName: 'Member', isEnabled: true });
    expect(await service.updateUser(as(admin), member.id, { isAdmin: true })).toMatchObject({ displayName: 'Member', email: 'member@example.com', isEnabled: true, isAdmin: true });
    expect(await service.updateUser(as(admin), member.id, { isEnabled: false })).toMatchObject({ isEnabled: false, isAdmin: true, displayName: 'Member' });
    expect(await service.updateUser(as(admin), member.id, { isAdmin: false, isEnabled: true })).toMatchObject({ isEnabled: true, isAdmin: false });
    expect(users.eventTypes()).toEqual(['auth.user.updated', 'auth.user.updated', 'auth.user.updated']);
  });

  it('answers the account unchanged, without an event, when nothing is given', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    expect(await service.updateUser(as(admin), member.id, {})).toEqual(member);
    expect(users.events).toEqual([]);
  });

  it.each([
    [{ displayName: '   ' }, 'Display name is required'],
    [{ displayName: 'x'.repeat(51) }, 'Display name must be 50 characters or less'],
    [{ email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ email: '' }, 'Please enter a valid email address'],
  ])('refuses %j with the spec message, changing nothing', async (edit, message) => {
    const admin = adminAccount();
    const member = memberAccount();
    const attempt = service.updateUser(as(admin), member.id, edit);
    await expect(attempt).rejects.toBeInstanceOf(InvalidArgumentError);
    await expect(attempt).rejects.toThrow(message);
    expect(await users.findById(member.id)).toEqual(member);
    expect(users.events).toEqual([]);
  });

  it('accepts a display name of exactly 50 characters after trimming', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    expect((await service.updateUser(as(admin), member.id, { displayName: ` ${'y'.repeat(50)} ` })).displayName).toBe('y'.repeat(50));
  });

  it('refuses an email another account uses, changing nothing', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    const attempt = service.updateUser(as(admin), member.id, { email: 'BOSS@example.com', displayName: 'Taken' });
    await expect(attempt).rejects.toBeInstanceOf(AlreadyExistsError);
    await expect(attempt).rejects.toThrow('Another account already uses this email address');
    expect(await users.findById(member.id)).toEqual(member);
    expect(users.events).toEqual([]);
  });

  it('lets an account keep its own email', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    expect((await service.updateUser(as(admin), member.id, { email: 'member@example.com', displayName: 'Same' })).email).toBe('member@example.com');
  });

  it('answers not found for a missing account', async () => {
    const admin = adminAccount();
    await expect(service.updateUser(as(admin), MISSING_ID, { isEnabled: false })).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.updateUser(as(admin), MISSING_ID, {})).rejects.toBeInstanceOf(NotFoundError);
    await expect(service.deleteUser(as(admin), MISSING_ID)).rejects.toBeInstanceOf(NotFoundError);
    expect(users.events).toEqual([]);
  });

  it('refuses to delete an admin, themself included, and deletes a member with its event', async () => {
    const admin = adminAccount();
    const other = users.seed({ oidcSubject: `${ISSUER}|other-admin`, email: 'other@example.com', isAdmin: true });
    const member = memberAccount();
    for (const id of [admin.id, other.id]) {
      const attempt = service.deleteUser(as(admin), id);
      await expect(attempt).rejects.toBeInstanceOf(PermissionDeniedError);
      await expect(attempt).rejects.toThrow('Admin accounts cannot be deleted');
    }
    expect(await users.findById(admin.id)).toEqual(admin);
    expect(await users.findById(other.id)).toEqual(other);
    expect(users.events).toEqual([]);
    await service.deleteUser(as(admin), member.id);
    expect(await users.findById(member.id)).toBeNull();
    expect(users.eventTypes()).toEqual(['auth.user.deleted']);
    expect(decodeEvent(users.events[0]!, UserDeleted)).toEqual({ userId: member.id });
  });

  it('refuses to delete an account promoted between the check and the delete', async () => {
    const admin = adminAccount();
    const member = memberAccount();
    const findById = users.findById.bind(users);
    // The first read sees a member; by the delete, another admin has promoted them.
    vi.spyOn(users, 'findById').mockImplementationOnce(async (id) => {
      const seen = await findById(id);
      await users.update(member.id, { isAdmin: true }, () => makeEvent('auth.user.updated', UserUpdated, { isAdmin: true, isEnabled: true, hasAcceptedTerms: false }, { source: 'test' }));
      return seen;
    });
    await expect(service.deleteUser(as(admin), member.id)).rejects.toThrow('Admin accounts cannot be deleted');
    expect(await users.findById(member.id)).toMatchObject({ isAdmin: true });
    expect(users.eventTypes()).toEqual(['auth.user.updated']);
  });
});
