import { useNavigate } from 'react-router-dom';
import type { MemberNotification } from '@/lib/types';
import { useReadAllNotificationsMutation, useReadNotificationMutation } from '@/queries/notifications';
import { notificationTarget } from './notification-targets';

const READ_FAILED = { title: 'Error', description: 'Failed to mark the notification as read. Please try again.' };
const READ_ALL_FAILED = { title: 'Error', description: 'Failed to mark your notifications as read. Please try again.' };

/**
 * What a click on a notification does: marks it read (when it is not yet) and goes where it points, without waiting
 * for the server; and "Mark all as read".
 */
export function useNotificationActions() {
  const navigate = useNavigate();
  const read = useReadNotificationMutation(READ_FAILED);
  const readAll = useReadAllNotificationsMutation(READ_ALL_FAILED);
  return {
    open: (notification: MemberNotification) => {
      if (!notification.read) read.mutate(notification.id);
      void navigate(notificationTarget(notification));
    },
    markRead: (notification: MemberNotification) => read.mutate(notification.id),
    isMarkingRead: (notification: MemberNotification) => read.isPending && read.variables === notification.id,
    markAllRead: () => readAll.mutate(),
    isMarkingAllRead: readAll.isPending,
  };
}
