import { REVIEW } from '@snapcracks/http-contract';
import { InvalidArgumentError, requireAdmin, requireCurrentAdmin, type AdminRecordReader, type Handlers } from '@snapcracks/kit';
import { CleanupKind, type ModerationAction as ActionMessage, type ModerationServiceServer } from '@snapcracks/proto/moderation/v1';
import type { ModerationService } from '../moderation.service.js';
import type { ModerationAction } from '../moderation-action.repository.js';
import type { CleanupService } from '../cleanup.service.js';

const CLEANUPS = { [CleanupKind.CLEANUP_KIND_ORPHANED]: 'orphaned', [CleanupKind.CLEANUP_KIND_REJECTED]: 'rejected' } as const;

/**
 * Protocol edge: every call is an admin's, and every change is made by an admin whose account (read from the auth
 * service) is still an enabled admin's; the rules live in ModerationService and CleanupService.
 */
export function moderationHandlers(service: ModerationService, cleanups: Pick<CleanupService, 'run'>, adminRecord: AdminRecordReader): Handlers<ModerationServiceServer> {
  return {
    async reviewPhoto(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      return { photo: await service.reviewPhoto(admin, request) };
    },
    async deletePhoto(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      await service.deletePhoto(admin, request.photoId);
      return {};
    },
    async listPhotos(request, ctx) {
      const admin = requireAdmin(ctx);
      const { actions, ...page } = await service.listPhotos(admin, { list: request.list, page: request.page });
      return { ...page, actions: actions.map(toMessage) };
    },
    async listActions(request, ctx) {
      requireAdmin(ctx);
      return { actions: (await service.listActions(request)).map(toMessage) };
    },
    async cleanup(request, ctx) {
      const admin = await requireCurrentAdmin(ctx, adminRecord);
      const kind = request.kind === CleanupKind.CLEANUP_KIND_ORPHANED || request.kind === CleanupKind.CLEANUP_KIND_REJECTED ? CLEANUPS[request.kind] : undefined;
      if (!kind) throw new InvalidArgumentError(REVIEW.unknownCleanup);
      return cleanups.run(admin, kind);
    },
  };
}

export function toMessage(action: ModerationAction): ActionMessage {
  return {
    id: action.id,
    actorId: action.actorId,
    action: action.action,
    photoId: action.photoId ?? undefined,
    detail: action.reason ?? undefined,
    createdAt: action.createdAt,
  };
}
