import type { FastifyInstance } from 'fastify';
import { NOTIFICATIONS, routes } from '@snapcracks/http-contract';
import type { NotificationSettings } from '@snapcracks/proto/support/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { sseEvent, toNotificationJson, type NotificationHub } from '../notifications/notification-hub.js';

function settingsJson(settings: NotificationSettings | undefined) {
  if (!settings) throw new Error('The support service answered without the settings');
  return { email: settings.email, push: settings.push, emailAvailable: settings.emailAvailable };
}

/** Reconnect after this long when the stream drops (the browser's EventSource waits this before trying again). */
const RETRY_MS = 3000;

/**
 * A member's notifications: the list, marking read, their preferences, and the live stream. The support service keeps
 * the notices; the stream is this replica's (NotificationHub), fed from the bus.
 */
export default async function notificationRoutes(app: FastifyInstance, { clients, hub }: { clients: Clients; hub: NotificationHub }) {
  const serve = contractRoutes(app);

  serve(routes.notifications, async (request, reply) => {
    const caller = await request.requireMember();
    const { page, limit } = request.query;
    const answer = await clients.support.call.listNotifications({ page: { page, limit } }, { caller });
    reply.header('cache-control', 'private, no-store');
    return { notifications: answer.notifications.map(toNotificationJson), total: answer.total, totalPages: answer.totalPages, unread: answer.unread };
  });

  serve(routes.readNotification, async (request) => {
    const caller = await request.requireMember();
    return clients.support.call.markNotificationRead({ id: request.params.id }, { caller });
  });

  serve(routes.readAllNotifications, async (request) => {
    const caller = await request.requireMember();
    return clients.support.call.markAllNotificationsRead({}, { caller });
  });

  serve(routes.notificationSettings, async (request, reply) => {
    const caller = await request.requireMember();
    reply.header('cache-control', 'private, no-store');
    return settingsJson((await clients.support.call.getNotificationSettings({}, { caller })).settings);
  });

  serve(routes.updateNotificationSettings, async (request) => {
    const caller = await request.requireMember();
    return settingsJson((await clients.support.call.updateNotificationSettings(request.body, { caller })).settings);
  });

  serve(routes.notificationStream, async (request, reply) => {
    const caller = await request.requireMember();
    // A reconnection names the last notice it had: those after it come first, so none is lost between two streams.
    const lastEventId = Number(request.headers['last-event-id']);
    const missed = Number.isSafeInteger(lastEventId) && lastEventId > 0;
    const answer = await clients.support.call.listNotifications(missed ? { afterId: lastEventId } : { page: { page: 1, limit: 1 } }, { caller });
    reply.hijack();
    const out = reply.raw;
    out.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      connection: 'keep-alive',
      // Proxies (nginx ingress) must pass each event on at once instead of buffering the response.
      'x-accel-buffering': 'no',
    });
    out.write(`retry: ${RETRY_MS}\n\n`);
    if (missed) for (const n of answer.notifications) out.write(sseEvent(NOTIFICATIONS.streamEvents.notification, toNotificationJson(n), n.id));
    out.write(sseEvent(NOTIFICATIONS.streamEvents.unread, { unread: answer.unread }));
    // Held from now on, and told the newest notice it was sent: one the bus brings again after the replay is skipped.
    const replayedUpTo = missed ? Math.max(lastEventId, ...answer.notifications.map((n) => n.id)) : 0;
    const remove = hub.add(caller.userId, caller.isAdmin, out, replayedUpTo);
    request.raw.on('close', remove);
    out.on('close', remove);
  });
}
