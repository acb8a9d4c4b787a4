import { readChunks, requireCurrentAdmin, requireMember, requireService, requireUser, type Handlers } from '@snapcracks/kit';
import type { AuthServiceServer, User as UserMessage } from '@snapcracks/proto/auth/v1';
import type { AuthService } from '../auth.service.js';
import type { AvatarService } from '../avatar.service.js';
import type { User } from '../user.repository.js';
import type { AuthBackfillHandlers } from './backfill.server.js';

/**
 * Protocol edge: maps proto messages to the service's calls and back; the rules live in AuthService (and the avatar
 * upload's steps in AvatarService). The backfill for other components' rebuilds is in backfill.server.ts.
 */
export function authHandlers(service: AuthService, avatars: AvatarService): Omit<Handlers<AuthServiceServer>, keyof AuthBackfillHandlers> {
  return {
    async signIn(request, ctx) {
      requireService(ctx, 'gateway');
      const { user, created } = await service.signIn(request);
      return { user: toMessage(user), created };
    },
    async getUser(request, ctx) {
      return { user: toMessage(await service.getUser(request.id, ctx)) };
    },
    async acceptTerms(_request, ctx) {
      return { user: toMessage(await service.acceptTerms(requireUser(ctx))) };
    },
    async updateProfile(request, ctx) {
      return { user: toMessage(await service.updateProfile(requireMember(ctx), request.displayName)) };
    },
    async uploadAvatar(stream, ctx) {
      requireService(ctx, 'gateway');
      const caller = requireMember(ctx);
      // Storage holds the avatar's rules (type, size) and refuses as it reads: auth relays the bytes, holding none.
      const { user, facesDetected } = await avatars.upload(caller, readChunks(stream, (m) => m.chunk));
      return { user: toMessage(user), facesDetected };
    },
    async listUsers(request, ctx) {
      await requireCurrentAdmin(ctx, service.adminRecord);
      const { users, total, totalPages } = await service.listUsers({ page: request.page, limit: request.limit, query: request.query });
      return { users: users.map(toMessage), total, totalPages };
    },
    async updateUser(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, service.adminRecord);
      const { id, ...edit } = request;
      return { user: toMessage(await service.updateUser(admin, id, edit)) };
    },
    async deleteUser(request, ctx) {
      await service.deleteUser(await requireCurrentAdmin(ctx, service.adminRecord), request.id);
      return {};
    },
    async findReferencedAvatars(request, ctx) {
      requireService(ctx, 'moderation');
      return { names: await service.findReferencedAvatars(request.names) };
    },
  };
}

export function toMessage(user: User): UserMessage {
  return {
    id: user.id,
    email: user.email ?? undefined,
    firstName: user.firstName ?? undefined,
    lastName: user.lastName ?? undefined,
    profileImageUrl: user.profileImageUrl ?? undefined,
    displayName: user.displayName ?? undefined,
    customProfileImage: user.customProfileImage ?? undefined,
    isAdmin: user.isAdmin,
    isEnabled: user.isEnabled,
    hasAcceptedTerms: user.hasAcceptedTerms,
    termsAcceptedAt: user.termsAcceptedAt ?? undefined,
    createdAt: user.createdAt,
    updatedAt: user.updatedAt,
  };
}
