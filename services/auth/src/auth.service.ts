import { z } from 'zod';
import {
  AlreadyExistsError,
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  makeEvent,
  type Caller,
  type Logger,
} from '@snapcracks/kit';
import { EMAIL, PAGES, REFUSALS, USER_SEARCH, pageProblem, schemas } from '@snapcracks/http-contract';
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import type { SignInRequest } from '@snapcracks/proto/auth/v1';
import { DuplicateUserError, type User, type UserChanges, type UserRepository } from './user.repository.js';
import type { AuthConfig } from './config.js';

/** Spec §5, as the gateway checks it too. */
export const displayNameSchema = schemas.displayName;

const emailSchema = z.string().trim().toLowerCase().max(EMAIL.maxLength, EMAIL.invalid).pipe(z.email(EMAIL.invalid));

export const userEditSchema = z.object({
  displayName: displayNameSchema.optional(),
  email: emailSchema.optional(),
  isEnabled: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
});
export type UserEdit = z.output<typeof userEditSchema>;

/** An admin's search of the users list: a page (from 1), its size (1 to 100) and optional words to match. */
export interface UserSearch {
  page?: number | undefined;
  limit?: number | undefined;
  query?: string | undefined;
}

export interface UserPage {
  users: User[];
  total: number;
  totalPages: number;
}

const SOURCE = 'auth';
const EMAIL_TAKEN = 'Another account already uses this email address';
export const SELF_LOCKOUT = REFUSALS.ownAdminRights;
export const ADMIN_NOT_DELETABLE = REFUSALS.adminUndeletable;
const MAX_QUERY_WORDS = 10;
const MAX_AVATAR_NAMES = 1000;

/**
 * Account rules: provisioning at sign-in, terms, profile, and what admins may change. It decides; the
 * repository stores each change together with the event this class builds for it.
 */
export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly config: AuthConfig,
    private readonly logger: Pick<Logger, 'info'>,
  ) {}

  /**
   * An account is found by its identity (`issuer|subject`), or else by a verified email, which links it to the
   * new identity (the issuer changed); otherwise the first sign-in creates it. Each sign-in refreshes what the
   * provider owns (names, email, picture) from the claims it carries: a claim that is missing or blank keeps the stored
   * value, since providers leave claims out (Sign in with Apple sends the name at the first sign-in only). The name
   * travels whole: a given or family name sets both parts (a part left out is one the person no longer has), and
   * neither keeps both.
   *
   * ADMIN_EMAILS only bootstraps admins, and only for a verified email: it makes the account admin when the
   * sign-in creates or links it, or at any sign-in while no enabled admin exists (the operator added their
   * email after signing in). Once an admin exists, admins decide: an admin whom another admin demoted stays demoted.
   */
  async signIn(claims: SignInRequest): Promise<{ user: User; created: boolean }> {
    const oidcSubject = `${claims.issuer}|${claims.subject}`;
    const given = providerClaims(claims);
    const email = given.email === undefined ? undefined : emailSchema.parse(given.email);
    const emailVerified = email !== undefined && claims.emailVerified;
    const fromProvider: UserChanges = {
      ...(email === undefined ? {} : { email }),
      ...(given.firstName === undefined && given.lastName === undefined ? {} : { firstName: given.firstName ?? null, lastName: given.lastName ?? null }),
      ...(given.profileImageUrl === undefined ? {} : { profileImageUrl: given.profileImageUrl }),
    };
    const listedAdmin = emailVerified && this.config.ADMIN_EMAILS.includes(email);
    const refused = () => new FailedPreconditionError(`${EMAIL_TAKEN}. Please contact support.`);

    const existing = await this.users.findBySubject(oidcSubject);
    const holder = email ? await this.users.findByEmail(email) : null;
    try {
      if (existing) {
        if (holder && holder.id !== existing.id) throw refused();
        const promote = listedAdmin && !existing.isAdmin && !(await this.users.hasEnabledAdmin());
        const user = found(await this.users.update(existing.id, { ...fromProvider, ...(promote ? { isAdmin: true } : {}) }, userUpdatedEvent));
        return { user, created: false };
      }
      if (holder) {
        // Only the provider's word that this person controls the address may move an account to a new identity.
        if (!emailVerified) throw refused();
        const user = found(await this.users.linkSubject(holder.id, oidcSubject, { ...fromProvider, ...(listedAdmin ? { isAdmin: true } : {}) }, userUpdatedEvent));
        this.logger.info({ userId: user.id, from: holder.oidcSubject, to: oidcSubject }, 'account linked to a new sign-in identity by its verified email');
        return { user, created: false };
      }
      const user = await this.users.create({ oidcSubject, ...fromProvider, isAdmin: listedAdmin }, userUpdatedEvent);
      return { user, created: true };
    } catch (error) {
      // Another sign-in took the email (or created this identity) between our reads and our write.
      if (error instanceof DuplicateUserError) throw refused();
      throw error;
    }
  }

  /** The acting admin's account as it is now, for admin-only calls (requireCurrentAdmin): the claim alone is not enough. */
  readonly adminRecord = (admin: Caller): Promise<User | null> => this.users.findById(admin.userId);

  /** The gateway reads any user (sessions); a user reads themself; admins read anyone. */
  async getUser(id: string, reader: { caller: Caller | null; service: string }): Promise<User> {
    const allowed = reader.service === 'gateway' || reader.caller?.userId === id || reader.caller?.isAdmin;
    if (!allowed) throw new PermissionDeniedError();
    return found(await this.users.findById(id));
  }

  async acceptTerms(caller: Caller): Promise<User> {
    const user = await this.getUser(caller.userId, { caller, service: SOURCE });
    if (user.hasAcceptedTerms) return user;
    return this.update(user.id, { hasAcceptedTerms: true, termsAcceptedAt: new Date() });
  }

  async updateProfile(caller: Caller, displayName: string): Promise<User> {
    const name = parse(displayNameSchema, displayName);
    return this.update(caller.userId, { displayName: name });
  }

  /**
   * Points the account at a newly stored avatar (`avatars/<name>`). Answers the avatar it replaces, if any and
   * different, for the caller (AvatarService) to delete (best effort: an avatar nobody uses is also removed by the
   * orphaned-files cleanup, which asks FindReferencedAvatars).
   */
  async setAvatar(caller: Caller, customProfileImage: string): Promise<{ user: User; previous: string | undefined }> {
    if (!/^[\w.-]{1,200}$/.test(customProfileImage) || customProfileImage.startsWith('.')) throw new InvalidArgumentError('Invalid avatar file name');
    const before = found(await this.users.findById(caller.userId));
    const user = await this.update(caller.userId, { customProfileImage });
    const previous = before.customProfileImage && before.customProfileImage !== customProfileImage ? before.customProfileImage : undefined;
    return { user, previous };
  }

  /** Which of the given avatar names some account uses (the orphaned-files cleanup keeps those). */
  async findReferencedAvatars(names: string[]): Promise<string[]> {
    if (names.length > MAX_AVATAR_NAMES) throw new InvalidArgumentError(`At most ${MAX_AVATAR_NAMES} names at a time`);
    return this.users.findAvatarsInUse([...new Set(names)]);
  }

  /**
   * The admin list, newest accounts first. A page past the end is empty; `query` keeps the accounts in which every word
   * appears in the display name, first or last name, or email (case-insensitive).
   */
  async listUsers(search: UserSearch = {}): Promise<UserPage> {
    const page = search.page || 1;
    const limit = search.limit || PAGES.limits.adminUsers.default;
    const problem = pageProblem(page, limit, PAGES.limits.adminUsers);
    if (problem) throw new InvalidArgumentError(problem);
    const query = search.query?.trim() ?? '';
    if (query.length > USER_SEARCH.maxLength) throw new InvalidArgumentError(USER_SEARCH.tooLong);
    const words = [...new Set(query.split(/\s+/).filter(Boolean))].slice(0, MAX_QUERY_WORDS);
    const { users, total } = await this.users.list({ words, offset: (page - 1) * limit, limit });
    return { users, total, totalPages: Math.ceil(total / limit) };
  }

  /**
   * Admin edit of any subset of display name, email and the two flags. An admin cannot disable or demote themself, so
   * the product never loses its last way in by accident. Nothing to change answers the account as it is.
   */
  async updateUser(admin: Caller, id: string, edit: UserEdit): Promise<User> {
    const changes = parse(userEditSchema, edit);
    if (id === admin.userId && (changes.isEnabled === false || changes.isAdmin === false)) throw new PermissionDeniedError(SELF_LOCKOUT);
    const given = Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined)) as UserChanges;
    if (Object.keys(given).length === 0) return found(await this.users.findById(id));
    return this.update(id, given);
  }

  /**
   * Deletes a member's account; admins' accounts cannot be deleted (demote first). The admin check is part of the delete
   * itself, so a promotion at the same moment cannot be deleted past. Its photos and votes follow through
   * auth.user.deleted (the photo and vote services), and every gateway drops the account's sessions.
   */
  async deleteUser(admin: Caller, id: string): Promise<void> {
    const user = found(await this.users.findById(id));
    if (user.isAdmin || id === admin.userId) throw new PermissionDeniedError(ADMIN_NOT_DELETABLE);
    const deleted = await this.users.delete(id, () => makeEvent('auth.user.deleted', UserDeleted, { userId: id }, { source: SOURCE }), { isAdmin: false });
    if (deleted) return;
    // Promoted (or deleted) between the read and the delete.
    found(await this.users.findById(id));
    throw new PermissionDeniedError(ADMIN_NOT_DELETABLE);
  }

  private async update(id: string, changes: UserChanges): Promise<User> {
    try {
      return found(await this.users.update(id, changes, userUpdatedEvent));
    } catch (error) {
      if (error instanceof DuplicateUserError) throw new AlreadyExistsError(EMAIL_TAKEN);
      throw error;
    }
  }
}

/** The profile claims a sign-in carries, trimmed; a missing or blank one is undefined (nothing to store). */
function providerClaims(claims: SignInRequest): Record<'email' | 'firstName' | 'lastName' | 'profileImageUrl', string | undefined> {
  const text = (value: string | undefined) => value?.trim() || undefined;
  return { email: text(claims.email), firstName: text(claims.firstName), lastName: text(claims.lastName), profileImageUrl: text(claims.profileImageUrl) };
}

/** Validation at the service: the first problem, as the caller's INVALID_ARGUMENT. */
function parse<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) throw new InvalidArgumentError(result.error.issues[0]?.message ?? 'Invalid request');
  return result.data;
}

function found(user: User | null): User {
  if (!user) throw new NotFoundError('User not found');
  return user;
}

function userUpdatedEvent(user: User) {
  return makeEvent(
    'auth.user.updated',
    UserUpdated,
    {
      user: {
        id: user.id,
        firstName: user.firstName ?? undefined,
        lastName: user.lastName ?? undefined,
        displayName: user.displayName ?? undefined,
        profileImageUrl: user.profileImageUrl ?? undefined,
        customProfileImage: user.customProfileImage ?? undefined,
      },
      email: user.email ?? undefined,
      isAdmin: user.isAdmin,
      isEnabled: user.isEnabled,
      hasAcceptedTerms: user.hasAcceptedTerms,
      createdAt: user.createdAt,
      updatedAt: user.updatedAt,
    },
    { source: SOURCE },
  );
}
