import { requireAdmin, unimplemented, type Handlers } from '@snapcracks/kit';
import { ModerationServiceService, type ModerationAction as ActionMessage, type ModerationServiceServer } from '@snapcracks/proto/moderation/v1';
import type { ModerationService } from '../moderation.service.js';
import type { ModerationAction } from '../moderation-action.repository.js';

/** Protocol edge: every call is an admin's; the rules live in ModerationService. */
export function moderationHandlers(service: ModerationService): Handlers<ModerationServiceServer> {
  return {
    async reviewPhoto(request, ctx) {
      const admin = requireAdmin(ctx);
      return { photo: await service.reviewPhoto(admin, request) };
    },
    async deletePhoto(request, ctx) {
      const admin = requireAdmin(ctx);
      await service.deletePhoto(admin, request.photoId);
      return {};
    },
    async listPhotos(request, ctx) {
      const admin = requireAdmin(ctx);
      return service.listPhotos(admin, { list: request.list, page: request.page });
    },
    async listActions(request, ctx) {
      requireAdmin(ctx);
      return { actions: (await service.listActions(request)).map(toMessage) };
    },
    // Cleanups come with a later change.
    cleanup: unimplemented<ModerationServiceServer>(ModerationServiceService).cleanup,
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
