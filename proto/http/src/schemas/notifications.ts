import { z } from 'zod';
import { NOTIFICATIONS, PAGES } from '../rules.js';
import { pageQuery, timestamp, wholeNumber } from '../fields.js';

export const notificationKind = z.enum(NOTIFICATIONS.kinds).meta({ id: 'NotificationKind' });

export const notification = z
  .object({
    id: z.number().int().meta({ description: 'Grows with every notification: the stream\'s event id, for Last-Event-ID.' }),
    kind: notificationKind,
    photoId: z.number().int().nullable(),
    title: z.string(),
    body: z.string(),
    read: z.boolean(),
    createdAt: timestamp,
  })
  .meta({ id: 'Notification' });

export const notificationQuery = pageQuery(PAGES.limits.notifications);

export const notificationPage = z
  .object({
    notifications: z.array(notification),
    total: z.number().int(),
    totalPages: z.number().int(),
    unread: z.number().int().meta({ description: 'Unread notifications in all.' }),
  })
  .meta({ id: 'NotificationPage' });

export const notificationIdParams = z.object({ id: wholeNumber(NOTIFICATIONS.idInvalid, 999_999_999_999_999).meta({ description: 'The notification id.' }) });

export const unreadCount = z.object({ unread: z.number().int() }).meta({ id: 'UnreadNotifications' });

const toggle = (name: string) => z.boolean({ error: `${name} must be true or false` });

export const notificationSettings = z
  .object({
    email: z.boolean().meta({ description: 'Email notifications for votes, comments and updates (spec: Notification Preferences).' }),
    push: z.boolean().meta({ description: 'Push notifications: notices shown live in the app as they happen.' }),
    emailAvailable: z.boolean().meta({ description: 'Whether this installation sends email at all (SMTP configured).' }),
  })
  .meta({ id: 'NotificationSettings' });

export const notificationSettingsBody = z
  .object({ email: toggle('email').optional(), push: toggle('push').optional() })
  .meta({ id: 'NotificationSettingsUpdate' });
