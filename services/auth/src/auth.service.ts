import { z } from 'zod';
import {
  FailedPreconditionError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  makeEvent,
  prismaErrorCode,
  AlreadyExistsError,
  type Caller,
} from '@snapcracks/kit';
import { UserDeleted, UserUpdated } from '@snapcracks/proto/events/v1';
import type { SignInRequest } from '@snapcracks/proto/auth/v1';
import type { User, UserRepository } from './user.repository.js';
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

/** Account rules: provisioning at sign-in, terms, profile, and what admins may change. */
export class AuthService {
  constructor(
    private readonly users: UserRepository,
    private readonly config: AuthConfig,
  ) {}

  /** First sign-in creates the account; later ones refresh what the provider owns (names, email, picture). */
  async signIn(claims: SignInRequest): Promise<{ user: User; created: boolean }> {
    const oidcSubject = `${claims.issuer}|${claims.subject}`;
    const email = claims.email ? emailSchema.parse(claims.email) : undefined;
    const makeAdmin = email !== undefined && this.config.ADMIN_EMAILS.includes(email);
    const existing = await this.users.findBySubject(oidcSubject);
    if (email) {
      const holder = await this.users.findByEmail(email);
      if (holder && holder.id !== existing?.id) {
        throw new FailedPreconditionError('Another account already uses this email address. Please contact support.');
      }
    }
    const providerFields = {
      email: email ?? null,
      firstName: claims.firstName ?? null,
      lastName: claims.lastName ?? null,
      profileImageUrl: claims.profileImageUrl ?? null,
    };
    return this.users.write(async (tx) => {
      const user = existing
        ? await tx.user.update({ where: { id: existing.id }, data: { ...providerFields, ...(makeAdmin ? { isAdmin: true } : {}) } })
        : await tx.user.create({ data: { oidcSubject, ...providerFields, isAdmin: makeAdmin } });
      return { result: { user, created: !existing }, event: userUpdatedEvent(user) };
    });
  }

  /** The gateway reads any user (sessions); a user reads themself; admins read anyone. */
  async getUser(id: string, reader: { caller: Caller | null; service: string }): Promise<User> {
    const allowed = reader.service === 'gateway' || reader.caller?.userId === id || reader.caller?.isAdmin;
    if (!allowed) throw new PermissionDeniedError();
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError('User not found');
    return user;
  }

  async acceptTerms(caller: Caller): Promise<User> {
    const user = await this.getUser(caller.userId, { caller, service: SOURCE });
    if (user.hasAcceptedTerms) return user;
    return this.users.write(async (tx) => {
      const updated = await tx.user.update({ where: { id: user.id }, data: { hasAcceptedTerms: true, termsAcceptedAt: new Date() } });
      return { result: updated, event: userUpdatedEvent(updated) };
    });
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
    const user = await this.users.findById(id);
    if (!user) throw new NotFoundError('User not found');
    if (user.isAdmin) throw new FailedPreconditionError('Admin accounts cannot be deleted');
    await this.users.write(async (tx) => {
      await tx.user.delete({ where: { id } });
      return { result: undefined, event: makeEvent('auth.user.deleted', UserDeleted, { userId: id }, { source: SOURCE }) };
    });
  }

  private async update(id: string, data: Partial<Pick<User, 'displayName' | 'email' | 'isEnabled' | 'isAdmin' | 'customProfileImage'>>): Promise<User> {
    try {
      return await this.users.write(async (tx) => {
        const user = await tx.user.update({ where: { id }, data });
        return { result: user, event: userUpdatedEvent(user) };
      });
    } catch (error) {
      if (prismaErrorCode(error) === 'P2025') throw new NotFoundError('User not found');
      if (prismaErrorCode(error) === 'P2002') throw new AlreadyExistsError('Another account already uses this email address');
      throw error;
    }
  }
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
    },
    { source: SOURCE },
  );
}
