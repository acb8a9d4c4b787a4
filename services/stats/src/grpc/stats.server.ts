import { requireAdmin, requireMember, type Handlers } from '@snapcracks/kit';
import type { StatsServiceServer } from '@snapcracks/proto/stats/v1';
import type { RatedPhoto, StatsService } from '../stats.service.js';

/** Protocol edge: maps proto messages to the service's calls and back, and says who may ask. */
export function statsHandlers(service: StatsService): Handlers<StatsServiceServer> {
  return {
    // A member's own dashboard: the caller is the only user it is about.
    async getUserStats(_request, ctx) {
      const caller = requireMember(ctx);
      const { highestRatedPhoto, lowestRatedPhoto, rankByUploads, rankByAverageRating, ...figures } = await service.user(caller.userId);
      return {
        ...figures,
        rankByUploads: rankByUploads ?? undefined,
        rankByAverageRating: rankByAverageRating ?? undefined,
        highestRatedPhoto: ratedPhoto(highestRatedPhoto),
        lowestRatedPhoto: ratedPhoto(lowestRatedPhoto),
      };
    },

    // Public: the gallery's stats strip is shown to visitors too.
    async getGalleryStats() {
      return service.gallery();
    },

    async getAdminStats(_request, ctx) {
      requireAdmin(ctx);
      return service.admin();
    },
  };
}

const ratedPhoto = (photo: RatedPhoto | null) => (photo ? { ...photo, description: photo.description ?? undefined } : undefined);
