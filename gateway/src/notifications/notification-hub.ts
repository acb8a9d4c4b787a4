import type { ServerResponse } from 'node:http';
import { NOTIFICATIONS, type Notification } from '@snapcracks/http-contract';
import { decodeEvent, type Subscription } from '@snapcracks/kit';
import type { EventSource } from '../gateway-events.js';
import { NotificationCreated } from '@snapcracks/proto/events/v1';

type AdminTopic = (typeof NOTIFICATIONS.adminTopics)[number];

/** What changes each admin topic: the review lists and counters follow photos, the support badge contact messages. */
const ADMIN_TOPICS: Record<string, AdminTopic[]> = {
  'photo.photo.uploaded': ['photos', 'stats'],
  'photo.photo.status_changed': ['photos', 'stats'],
  'photo.photo.updated': ['photos'],
  'photo.photo.deleted': ['photos', 'stats'],
  'support.contact_form.submitted': ['support'],
  'support.contact_form.status_changed': ['support'],
  'moderation.reports.decided': ['photos'],
};

/** What the streams are told of: members' notices, and the events that change an admin page. */
export const NOTIFICATION_EVENTS = ['support.notification.created', ...Object.keys(ADMIN_TOPICS)];

/** Admin topics that changed within this long go out once. */
const ADMIN_COALESCE_MS = 250;

interface Stream {
  userId: string;
  isAdmin: boolean;
  out: ServerResponse;
  /** The newest notice this stream has been sent: one replayed on reconnection may also arrive from the bus after. */
  lastId: number;
}

/** One server-sent event, as the stream writes it. */
export function sseEvent(event: string, data: unknown, id?: number): string {
  return `${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;
}

export function toNotificationJson(n: { id: number; kind: string; photoId?: number | undefined; title: string; body: string; read?: boolean; createdAt?: Date | undefined }): Notification {
  return {
    id: n.id,
    kind: n.kind as Notification['kind'],
    photoId: n.photoId ?? null,
    title: n.title,
    body: n.body,
    read: n.read ?? false,
    createdAt: n.createdAt?.toISOString() ?? null,
  };
}

/**
 * The open notification streams of this gateway replica, one per signed-in tab. Every replica hears every
 * support.notification.created on the bus (a broadcast subscription, like the caches'), and writes it to the streams of
 * its member that this replica holds; a member's tabs on other replicas get it from theirs. Admins' streams also hear
 * when the review lists, counters or support messages change (coalesced), so their pages refetch instead of polling.
 */
export class NotificationHub {
  private readonly streams = new Map<string, Set<Stream>>();
  private subscription: Subscription | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private readonly pendingTopics = new Set<AdminTopic>();
  private adminTimer: NodeJS.Timeout | undefined;

  constructor(private readonly heartbeatMs = NOTIFICATIONS.heartbeatSeconds * 1000) {}

  async listen(bus: EventSource): Promise<void> {
    this.subscription = await bus.subscribe(
      async (event) => {
        if (event.type === 'support.notification.created') {
          const created = decodeEvent(event, NotificationCreated);
          this.sendNotice(created.userId, created.id, sseEvent(NOTIFICATIONS.streamEvents.notification, toNotificationJson(created), created.id));
          return;
        }
        for (const topic of ADMIN_TOPICS[event.type] ?? []) this.pendingTopics.add(topic);
        this.adminTimer ??= setTimeout(() => this.flushAdminTopics(), ADMIN_COALESCE_MS);
      },
      { types: NOTIFICATION_EVENTS },
    );
    this.heartbeat = setInterval(() => this.writeAll(': alive\n\n'), this.heartbeatMs);
    this.heartbeat.unref();
  }

  /** Holds a member's stream until it closes; `lastId` is the newest notice already written to it. */
  add(userId: string, isAdmin: boolean, out: ServerResponse, lastId = 0): () => void {
    const stream: Stream = { userId, isAdmin, out, lastId };
    const mine = this.streams.get(userId) ?? this.streams.set(userId, new Set()).get(userId)!;
    mine.add(stream);
    return () => {
      mine.delete(stream);
      if (mine.size === 0 && this.streams.get(userId) === mine) this.streams.delete(userId);
    };
  }

  /** Open streams, for the metrics and tests. */
  get size(): number {
    let count = 0;
    for (const set of this.streams.values()) count += set.size;
    return count;
  }

  /** Writes a notice to the member's streams that have not had it (notice ids grow). */
  sendNotice(userId: string, id: number, text: string): void {
    for (const stream of this.streams.get(userId) ?? []) {
      if (id <= stream.lastId) continue;
      stream.lastId = id;
      stream.out.write(text);
    }
  }

  /** Ends every stream (the gateway is stopping): browsers reconnect to another replica. */
  async close(): Promise<void> {
    clearInterval(this.heartbeat);
    clearTimeout(this.adminTimer);
    await this.subscription?.close();
    for (const set of this.streams.values()) for (const stream of set) stream.out.end();
    this.streams.clear();
  }

  private flushAdminTopics(): void {
    this.adminTimer = undefined;
    const topics = [...this.pendingTopics];
    this.pendingTopics.clear();
    for (const set of this.streams.values()) {
      for (const stream of set) if (stream.isAdmin) for (const topic of topics) stream.out.write(sseEvent(NOTIFICATIONS.streamEvents.admin, { topic }));
    }
  }

  private writeAll(text: string): void {
    for (const set of this.streams.values()) for (const stream of set) stream.out.write(text);
  }
}
