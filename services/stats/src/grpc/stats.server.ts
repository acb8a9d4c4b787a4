import { requireAdmin, unimplemented, type Handlers } from '@snapcracks/kit';
import { StatsServiceService, type StatsServiceServer } from '@snapcracks/proto/stats/v1';
import type { StatsService } from '../stats.service.js';

/** Protocol edge: maps proto messages to the service's calls and back, and says who may ask. */
export function statsHandlers(service: StatsService): Handlers<StatsServiceServer> {
  return {
    // Per-user stats come later, from the same photos table (by owner) and owners' rows.
    getUserStats: unimplemented<StatsServiceServer>(StatsServiceService).getUserStats,

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
