/**
 * `tsx scripts/bench/consumers.ts [options]`: how fast the vote consumers drain a backlog of `vote.vote.cast` events,
 * the stats service's `votes` (community counters, owners) and the photo service's `ratings` (gallery totals, raters),
 * each started as the product starts it (defineService, its own pool and migrations) on a fresh database.
 *
 * The events are published before the services start, so the consumers find a backlog and nothing else runs in this
 * process while they drain it. Figures per consumer: events/s between the first and the last event it recorded
 * (processed_events.processed_at), and the CPU each event cost: this process (every consumer at once, Node) and the
 * database's backends, the load average beside them. No target is checked; it is a measurement.
 *
 *   --events N          vote events (default 20000)
 *   --photos N          photos they fall on, at random (default 1000); --photos 1 is one hot photo
 *   --bus nats|memory   NATS JetStream (a stream of its own, the default) or the in-process bus
 *   --per-message N     votes a NATS message carries, as the outbox relay publishes a batch committed together (default
 *                       1; the product's vote batches hold about 20 under load); the in-process bus delivers each alone
 *   --consumers a,b     stats, photo (default both)
 */
import { randomUUID } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import {
  applyMigrations,
  createLogger,
  createMemoryEventBus,
  createNatsEventBus,
  encodeEvents,
  IdentityKeyring,
  makeEvent,
  type EncodedEvents,
  type EventBus,
  type ServiceModule,
} from '../../services/kit/src/index.js';
import { createTestDatabase, createTestStream, startTestServices } from '../../services/kit/src/testing/index.js';
import { PhotoStatus } from '../../proto/gen/snapcracks/common/v1/common.js';
import { PhotoStatusChanged, PhotoUploaded, VoteCast } from '../../proto/gen/snapcracks/events/v1/events.js';
import { statsService } from '../../services/stats/src/index.js';
import { photoService } from '../../services/photo/src/index.js';
import { withClient } from '../seed/db.js';
import { backendsCpu, backendsCpuBetween } from './lib-cpu.js';

const { values } = parseArgs({
  options: {
    events: { type: 'string', default: '20000' },
    photos: { type: 'string', default: '1000' },
    bus: { type: 'string', default: 'nats' },
    'per-message': { type: 'string', default: '1' },
    consumers: { type: 'string', default: 'stats,photo' },
  },
});
const eventCount = Number(values.events);
const photoCount = Number(values.photos);
const perMessage = Math.max(1, Number(values['per-message']));
const consumers = new Set(values.consumers.split(','));
const logger = createLogger('bench-consumers', 'warn');
const load = () => loadavg().map((l) => l.toFixed(1)).join(', ');

/** The photo service calls storage only for uploads and deletions, which this benchmark makes none of. */
const storageStub: ServiceModule = { name: 'storage', start: async () => ({ port: 1, stop: async () => undefined }) };

const approvedAt = new Date(Date.UTC(2030, 0, 2));
const photoState = (photoId: number, status: PhotoStatus, version: number) => ({
  photoId,
  userId: `owner-${photoId % 97}`,
  filename: `${photoId}.webp`,
  status,
  createdAt: new Date(Date.UTC(2030, 0, 1)),
  approvedAt: status === PhotoStatus.PHOTO_STATUS_APPROVED ? approvedAt : undefined,
  version,
});

/** Every photo uploaded and approved (stats learns of them from these), then the votes, each with the photo's new totals. */
function history() {
  const photos = Array.from({ length: photoCount }, (_, i) => i + 1);
  const photoEvents = photos.flatMap((photoId) => [
    makeEvent('photo.photo.uploaded', PhotoUploaded, { photo: photoState(photoId, PhotoStatus.PHOTO_STATUS_PENDING, 1) }, { source: 'photo' }),
    makeEvent(
      'photo.photo.status_changed',
      PhotoStatusChanged,
      { photo: photoState(photoId, PhotoStatus.PHOTO_STATUS_APPROVED, 2), previousStatus: PhotoStatus.PHOTO_STATUS_PENDING, changedAt: approvedAt, actionId: `a-${photoId}` },
      { source: 'photo' },
    ),
  ]);
  const totals = new Map<number, { voteCount: number; ratingSum: number; version: number }>();
  const votes = Array.from({ length: eventCount }, (_, i) => {
    const photoId = photos[Math.floor(Math.random() * photos.length)]!;
    const rating = 1 + Math.floor(Math.random() * 5);
    const before = totals.get(photoId) ?? { voteCount: 0, ratingSum: 0, version: 0 };
    const after = { voteCount: before.voteCount + 1, ratingSum: before.ratingSum + rating, version: before.version + 1 };
    totals.set(photoId, after);
    return makeEvent('vote.vote.cast', VoteCast, { photoId, userId: `voter-${i}`, rating, ...after }, { source: 'vote' });
  });
  return { photoEvents, votes };
}

async function openBus(): Promise<{ bus: EventBus; close(): Promise<void> }> {
  if (values.bus === 'memory') {
    // Events published before anyone subscribes wait in the bus's history for the durable names that come.
    const bus = createMemoryEventBus({ logger, historyMs: 60 * 60_000 });
    return { bus, close: () => bus.close() };
  }
  const stream = await createTestStream('bench-consumers');
  const bus = await createNatsEventBus({ servers: stream.url, stream: stream.stream, subjectPrefix: stream.subjectPrefix, logger, identity: IdentityKeyring.generate() });
  return {
    bus,
    async close() {
      await bus.close();
      await stream.delete();
    },
  };
}

async function publishAll(bus: EventBus, events: ReturnType<typeof history>['votes'], perMessage = 1): Promise<void> {
  // The in-process bus resolves a publish once its subscribers handled it: they are not running, so nobody waits.
  if (bus.inProcess) return events.forEach((event) => void bus.publish(event).catch(() => undefined));
  const messages: EncodedEvents[] = [];
  for (let i = 0; i < events.length; i += perMessage) {
    const batch = events.slice(i, i + perMessage);
    messages.push({ id: batch.length === 1 ? batch[0]!.id : randomUUID(), type: batch[0]!.type, data: encodeEvents(batch) });
  }
  // A few hundred at once: the NATS client pipelines them.
  for (let i = 0; i < messages.length; i += 500) await Promise.all(messages.slice(i, i + 500).map((message) => bus.publishEncoded(message)));
}

interface Progress {
  consumer: string;
  handled: number;
  firstMs: number;
  lastMs: number;
}

/** A consumer's progress as its tables tell it: what it handled, and when it handled the first and the last if they say. */
interface Watched {
  consumer: string;
  sql: string;
  values: unknown[];
}

function recordedBy(consumer: string, schema: string): Watched {
  return {
    consumer,
    sql: `SELECT count(*)::int AS "n", extract(epoch FROM min("processed_at")) * 1000 AS "first", extract(epoch FROM max("processed_at")) * 1000 AS "last"
          FROM "${schema}"."processed_events" WHERE "consumer" = $1`,
    values: [consumer],
  };
}

/**
 * Photo's ratings consumer records no event ids (its statement is idempotent by itself): the votes its totals count
 * are its progress (every vote is a new voter's, so they reach the events published), timed by the polls.
 */
const ratingsCounted: Watched = {
  consumer: 'photo.ratings',
  sql: `SELECT coalesce(sum("vote_count"), 0)::int AS "n", NULL AS "first", NULL AS "last" FROM "photo"."ratings"`,
  values: [],
};

const POLL_MS = 250;

/** Polls every consumer until each handled `count` events; times that its tables do not hold are the polls' (±POLL_MS). */
async function waitFor(databaseUrl: string, watched: Watched[], count: number): Promise<Progress[]> {
  const deadline = Date.now() + 15 * 60_000;
  const polled = new Map<string, { firstMs?: number; lastMs?: number }>();
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    const now = Date.now();
    const results = await withClient(databaseUrl, (c) =>
      Promise.all(
        watched.map(async ({ consumer, sql, values }): Promise<Progress> => {
          const { rows } = await c.query<{ n: number; first: number | null; last: number | null }>(sql, values);
          const { n, first, last } = rows[0]!;
          const times = polled.get(consumer) ?? {};
          if (n > 0) times.firstMs ??= now - POLL_MS;
          if (n >= count) times.lastMs ??= now;
          polled.set(consumer, times);
          return { consumer, handled: n, firstMs: first === null ? (times.firstMs ?? 0) : Number(first), lastMs: last === null ? (times.lastMs ?? now) : Number(last) };
        }),
      ),
    );
    if (results.every((r) => r.handled >= count)) return results;
    if (Date.now() > deadline) throw new Error(`Not drained after 15 minutes: ${results.map((r) => `${r.consumer} ${r.handled}`).join(', ')}`);
  }
}

async function main(): Promise<void> {
  console.log(
    `Vote consumers: ${eventCount.toLocaleString('en')} events on ${photoCount.toLocaleString('en')} photo(s), ${values.bus} bus, ${perMessage} a message, ${[...consumers].join(' + ')}; load average ${load()}`,
  );
  const database = await createTestDatabase('bench_consumers');
  const { bus, close } = await openBus();
  try {
    const services: ServiceModule[] = [];
    if (consumers.has('photo')) services.push(storageStub, photoService);
    if (consumers.has('stats')) services.push(statsService);
    const watched: Watched[] = [];
    if (consumers.has('stats')) watched.push(recordedBy('stats.votes', 'stats'));
    if (consumers.has('photo')) watched.push(ratingsCounted);
    const { photoEvents, votes } = history();

    // First the photos: the photo service's rows (and with them the ratings rows its ratings land on), stats' from the
    // photo events, so that the votes move the counters of approved photos as they do in the product.
    for (const service of services) if (service.database) await applyMigrations({ databaseUrl: database.url, ...service.database });
    if (consumers.has('photo')) {
      await withClient(database.url, (c) =>
        c.query(
          `INSERT INTO "photo"."photos" ("id", "user_id", "filename", "original_name", "mime_type", "size", "status", "approved_at", "updated_at")
           SELECT i, 'owner-' || (i % 97), i || '.webp', i || '.jpg', 'image/jpeg', 1, 'approved', now(), now() FROM generate_series(1, $1::int) AS i`,
          [photoCount],
        ),
      );
    }
    await publishAll(bus, photoEvents);
    if (consumers.has('stats')) {
      const warmUp = await startTestServices({ services: [statsService], database, bus });
      await waitFor(database.url, [recordedBy('stats.photos', 'stats')], photoEvents.length);
      await warmUp.stop();
    }

    // Then the votes, all waiting before the consumers start.
    await publishAll(bus, votes, perMessage);
    const cpuBefore = process.cpuUsage();
    const pgBefore = backendsCpu(database.name);
    const started = performance.now();
    const running = await startTestServices({ services, database, bus });
    let results: Progress[] = [];
    try {
      results = await waitFor(database.url, watched, eventCount);
    } finally {
      const wallMs = performance.now() - started;
      const cpu = process.cpuUsage(cpuBefore);
      const pgMs = backendsCpuBetween(pgBefore, backendsCpu(database.name));
      await running.stop();
      const nodeMs = (cpu.user + cpu.system) / 1000;
      for (const r of results) {
        const seconds = Math.max(0.001, (r.lastMs - r.firstMs) / 1000);
        console.log(`  ${r.consumer.padEnd(14)} ${r.handled.toLocaleString('en')} events in ${seconds.toFixed(2)} s: ${Math.round(r.handled / seconds).toLocaleString('en')} events/s`);
      }
      const handled = results.reduce((sum, r) => sum + r.handled, 0) || 1;
      console.log(
        `  all: ${(wallMs / 1000).toFixed(2)} s from start to drained; per event handled: CPU ${((nodeMs / handled) * 1000).toFixed(0)} µs node + ${((pgMs / handled) * 1000).toFixed(0)} µs PostgreSQL; load average ${load()}`,
      );
    }
  } finally {
    await close();
    await database.drop();
  }
}

await main();
