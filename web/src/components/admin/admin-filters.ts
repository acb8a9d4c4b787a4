import { CheckCircle2, Clock, Images, XCircle, type LucideIcon } from 'lucide-react';
import type { AdminPhotoList, AdminStats } from '@/lib/types';

export interface AdminFilter {
  id: AdminPhotoList;
  /** The stat card's label, also the list's heading. */
  label: string;
  icon: LucideIcon;
  count: (stats: AdminStats) => number;
  /** What the list says when it is empty. */
  empty: string;
}

/** SPEC §2 Admin panel: the stat cards, each also the filter of the review list below them. */
export const ADMIN_FILTERS: readonly AdminFilter[] = [
  { id: 'pending', label: 'Pending Reviews', icon: Clock, count: (s) => s.pendingReviews, empty: 'No photos are waiting for review.' },
  { id: 'approved-today', label: 'Approved Today', icon: CheckCircle2, count: (s) => s.approvedToday, empty: 'No photos have been approved today.' },
  { id: 'rejected-today', label: 'Rejected Today', icon: XCircle, count: (s) => s.rejectedToday, empty: 'No photos have been rejected today.' },
  { id: 'all', label: 'Total Photos', icon: Images, count: (s) => s.totalPhotos, empty: 'No photos have been uploaded yet.' },
];

export const DEFAULT_ADMIN_FILTER: AdminPhotoList = 'pending';

export function adminFilter(id: AdminPhotoList): AdminFilter {
  return ADMIN_FILTERS.find((filter) => filter.id === id) ?? ADMIN_FILTERS[0]!;
}
