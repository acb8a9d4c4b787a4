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
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import type { SignInRequest } from '@snapcracks/proto/auth/v1';
import { DuplicateUserError, type User, type UserChanges, type UserRepository } from './user.repository.js';
import type { AuthConfig } from './config.js';

export const displayNameSchema = z
  .string()
  .trim()
  .min(1, 'Display name is required')
  .max(50, 'Display name must be 50 characters or less');

const emailSchema = z.string().trim().toLowerCase().email('Please enter a valid email address');

export const userEditSchema = z.object({
  displayName: displayNameSchema.optional(),
  email: emailSchema.optional(),
  isEnabled: z.boolean().optional(),
  isAdmin: z.boolean().optional(),
});
export type UserEdit = z.output<typeof userEditSchema>;

const SOURCE = 'auth';
const EMAIL_TAKEN = 'Another account already uses this email address';

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
   * provider owns (names, email, picture).
   *
   * ADMIN_EMAILS only bootstraps admins, and only for a verified email: it makes the account admin when the
   * sign-in creates or links it, or at any sign-in while no enabled admin exists (the operator added their
   * email after signing in). Once an admin exists, admins decide: an admin whom another admin demoted stays demoted.
   */
  async signIn(claims: SignInRequest): Promise<{ user: User; created: boolean }> {
    const oidcSubject = `${claims.issuer}|${claims.subject}`;
    const email = claims.email ? emailSchema.parse(claims.email) : undefined;
    const emailVerified = email !== undefined && claims.emailVerified;
    const fromProvider: UserChanges = {
      email: email ?? null,
      firstName: claims.firstName ?? null,
      lastName: claims.lastName ?? null,
      profileImageUrl: claims.profileImageUrl ?? null,
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
    const name = displayNameSchema.parse(displayName);
    return this.update(caller.userId, { displayName: name });
  }

  async setAvatar(caller: Caller, customProfileImage: string): Promise<User> {
    if (!/^[\w.-]{1,200}$/.test(customProfileImage)) throw new InvalidArgumentError('Invalid avatar file name');
    return this.update(caller.userId, { customProfileImage });
  }

  listUsers(): Promise<User[]> {
    return this.users.list();
  }

  /** Admin edit. An admin cannot disable or demote themself, so the product never loses its last way in by accident. */
  async updateUser(admin: Caller, id: string, edit: UserEdit): Promise<User> {
    const changes = userEditSchema.parse(edit);
    if (id === admin.userId && (changes.isEnabled === false || changes.isAdmin === false)) {
      throw new FailedPreconditionError('You cannot disable or remove admin rights from your own account');
    }
    return this.update(id, changes);
  }

  async deleteUser(id: string): Promise<void> {
    const user = found(await this.users.findById(id));
    if (user.isAdmin) throw new FailedPreconditionError('Admin accounts cannot be deleted');
    found(await this.users.delete(id, () => makeEvent('auth.user.deleted', UserDeleted, { userId: id }, { source: SOURCE })));
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
