import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import type { UserStats } from '@/lib/types';

export const userStatsQueryKey = ['user', 'stats'] as const;

/** The caller's dashboard figures; refreshed with every change of their photos (refreshAfterUserPhotoChange). */
export function useUserStatsQuery() {
  return useQuery({ queryKey: userStatsQueryKey, queryFn: api.user.stats });
}

/** SPEC §9: approval rate is approved divided by total, as a rounded percentage (0 with no uploads). */
export function approvalRate(stats: Pick<UserStats, 'approvedUploads' | 'totalUploads'>): number {
  return stats.totalUploads > 0 ? Math.round((stats.approvedUploads / stats.totalUploads) * 100) : 0;
}
