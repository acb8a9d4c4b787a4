import type { MemberNotification, NotificationKind } from '@/lib/types';

/**
 * Where each kind of notification leads: news of one's photos and their votes to the dashboard (My Uploads), a
 * reviewed report to the dashboard too (Your reports live there), an answered support message to the contact page.
 */
const TARGETS: Record<NotificationKind, string> = {
  photo_approved: '/dashboard',
  photo_rejected: '/dashboard',
  photo_removed: '/dashboard',
  photo_reinstated: '/dashboard',
  first_vote: '/dashboard',
  vote_milestone: '/dashboard',
  high_rating: '/dashboard',
  report_outcome: '/dashboard',
  support_resolved: '/contact',
};

export function notificationTarget(notification: Pick<MemberNotification, 'kind'>): string {
  return TARGETS[notification.kind] ?? '/dashboard';
}

/** The bell's accessible name: "Notifications", with the unread count when there are any. */
export function bellLabel(unread: number | undefined): string {
  return unread ? `Notifications, ${unread} unread` : 'Notifications';
}
