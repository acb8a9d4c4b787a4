import { z } from 'zod';
import { RATING } from '../rules.js';

/** One of the member's approved photos with votes, as the dashboard's top-rated and lowest-rated cards show it. */
export const ratedPhoto = z
  .object({ id: z.number().int(), filename: z.string(), description: z.string().nullable(), averageRating: z.number(), voteCount: z.number().int() })
  .meta({ id: 'RatedPhoto' });

/** The member's dashboard figures (spec §3 User stats); definitions in docs/stats.md. */
export const userStats = z
  .object({
    totalUploads: z.number().int(),
    approvedUploads: z.number().int(),
    pendingUploads: z.number().int(),
    rejectedUploads: z.number().int(),
    uploadsThisWeek: z.number().int(),
    averageRating: z.number(),
    recentAverageRating: z.number(),
    recentVoteCount: z.number().int(),
    totalVotes: z.number().int(),
    rankByUploads: z.number().int().nullable(),
    rankByAverageRating: z.number().int().nullable(),
    totalActiveUsers: z.number().int(),
    highestRatedPhoto: ratedPhoto.nullable(),
    lowestRatedPhoto: ratedPhoto.nullable(),
    ratingDistribution: z
      .array(z.number().int())
      .length(RATING.max)
      .meta({ description: 'Votes received on the approved photos per rating, 1 star first; they sum to totalVotes.' }),
  })
  .meta({ id: 'UserStats' });

/** The admin panel's counters (spec §3 Admin stats); "today" is the UTC day. */
export const adminStats = z
  .object({ pendingReviews: z.number().int(), approvedToday: z.number().int(), rejectedToday: z.number().int(), totalPhotos: z.number().int() })
  .meta({ id: 'AdminStats' });
