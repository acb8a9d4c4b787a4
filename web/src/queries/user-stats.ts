import { useQuery } from '@tanstack/react-query';
import { apiJson } from '@/lib/api';

/** One of the member's approved photos with votes (the dashboard's top-rated and lowest-rated cards). */
export interface RatedPhoto {
  id: number;
  filename: string;
  description: string | null;
  averageRating: number;
  voteCount: number;
}

/** The answer of GET /api/user/stats (SPEC §3 User stats); definitions in docs/stats.md. */
export interface UserStats {
  totalUploads: number;
  approvedUploads: number;
  pendingUploads: number;
  rejectedUploads: number;
  /** Uploads since Monday 00:00 UTC. */
  uploadsThisWeek: number;
  /** All votes on the approved photos: their ratings' sum over their count; 0 without votes. */
  averageRating: number;
  /** The same over the last 5 approved photos; 0 when they have no votes (recentVoteCount 0). */
  recentAverageRating: number;
  recentVoteCount: number;
  totalVotes: number;
  /** Null without an approved photo. */
  rankByUploads: number | null;
  /** Null with fewer than 3 votes received in total (SPEC §9). */
  rankByAverageRating: number | null;
  totalActiveUsers: number;
  highestRatedPhoto: RatedPhoto | null;
  lowestRatedPhoto: RatedPhoto | null;
  /** Votes received on the approved photos per rating, 1 star first: five counts summing to totalVotes. */
  ratingDistribution: number[];
}

export const userStatsQueryKey = ['/api/user/stats'] as const;

/** The caller's dashboard figures; refreshed with every change of their photos (refreshAfterUserPhotoChange). */
export function useUserStatsQuery() {
  return useQuery({ queryKey: userStatsQueryKey, queryFn: () => apiJson<UserStats>('GET', '/api/user/stats') });
}

/** SPEC §9: approval rate is approved divided by total, as a rounded percentage (0 with no uploads). */
export function approvalRate(stats: Pick<UserStats, 'approvedUploads' | 'totalUploads'>): number {
  return stats.totalUploads > 0 ? Math.round((stats.approvedUploads / stats.totalUploads) * 100) : 0;
}
