import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import { Envelope, PhotoUpdated, VoteCast } from '@snapcracks/proto/events/v1';
import type { EventBus } from '../bus/event-bus.js';
import { createMemoryEventBus } from '../bus/memory-event-bus.js';
import { makeEvent } from '../bus/event-types.js';
import { decodeEvents, type EncodedEvents } from '../bus/event-messages.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, openTestPool, type TestDatabase } from '../testing/postgres.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { createOutbox, type Outbox, type OutboxOptions } from './outbox.js';
import { inTransaction, poolSqlClient } from './pg-sql-client.js';
import type { SqlClient } from './sql-client.js';

const SCHEMA = 'svc';
const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });

/** A bus that records what it is given (each message, and the events in them) and fails while `failNext` is positive. */
function recordingBus() {
  const published: Envelope[] = [];
  const messages: EncodedEvents[] = [];
  const bus = {
    published,
    messages,
    failNext: 0,
    async publishEncoded(message: EncodedEvents) {
      if (bus.failNext > 0) {
        bus.failNext -= 1;
        throw new Error('bus unreachable');
      }
      messages.push(message);
      published.push(...decodeEvents(message.data));
    },
    publish: (event: Envelope): Promise<void> => bus.publishEncoded({ id: event.id, type: event.type, data: Envelope.encode(event).finish() }),
    subscribe: () => Promise.reject(new Error('not used')),
    deadLetters: createMemoryEventBus().deadLetters,
    close: async () => undefined,
  } satisfies EventBus & Record<string, unknown>;
  return bus;
}

const ids = (events: Envelope[]) => events.map((event) => event.id);
/** Generous, because the relay shares the machine with every other integration test. */
const eventually = { timeout: 10_000, interval: 20 };

// The relay on the service's Prisma client, and on its pool (as defineService runs it).
describe.each(['prisma', 'pool'] as const)('outbox (relay on %s)', (mode) => {
  const { logger } = createRecordingLogger('warn');
  let db: TestDatabase;
  let prisma: PrismaClient;
  let pool: pg.Pool;
  const outboxes: Outbox[] = [];

  beforeEach(async () => {
    db = await createTestDatabase('outbox');
    await createOutboxTables(db.url, SCHEMA);
    prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }, { schema: SCHEMA }) });
    pool = openTestPool(db.url);
  });
  afterEach(async () => {
    await Promise.all(outboxes.splice(0).map((outbox) => outbox.stopRelay()));
    await pool.end();
    await prisma.$disconnect();
    await db.drop();
  });

  /** Statements the relays sent (claims, with their marks, and clean-ups). */
  let relayStatements = 0;
  function startOutbox(bus: EventBus, options: Partial<OutboxOptions> = {}): Outbox {
    const base = mode === 'prisma' ? prisma : poolSqlClient(pool);
    const relayDb: SqlClient = {
      $executeRawUnsafe: (text, ...values) => (relayStatements++, base.$executeRawUnsafe(text, ...values)),
      $queryRawUnsafe: (text, ...values) => (relayStatements++, base.$queryRawUnsafe(text, ...values)),
    };
    const outbox = createOutbox({ db: relayDb, schema: SCHEMA, bus, logger, retryBackoff: { initialDelayMs: 10, maxDelayMs: 50 }, ...options });
    outboxes.push(outbox);
    outbox.startRelay();
    return outbox;
  }

  async function commit(outbox: Outbox, ...events: Envelope[]): Promise<void> {
    await prisma.$transaction(async (tx) => {
      for (const event of events) await outbox.enqueue(tx, event);
    });
    outbox.nudge();
  }

  it('publishes nothing for a transaction that rolled back', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus);
    const rolledBack = voteCast(1);
    await expect(
      prisma.$transaction(async (tx) => {
        await outbox.enqueue(tx, rolledBack);
        throw new Error('change refused');
      }),
    ).rejects.toThrow('change refused');
    const committed = voteCast(2);
    await commit(outbox, committed);

    await vi.waitFor(() => expect(ids(bus.published)).toContain(committed.id), eventually);
    expect(ids(bus.published)).toEqual([committed.id]);
    expect(await prisma.outboxEvent.count()).toBe(1);
  });

  it('publishes a committed event exactly once and marks it published', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus);
    const event = voteCast(1);
    await commit(outbox, event);

    await vi.waitFor(async () => expect((await prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).publishedAt).not.toBeNull(), eventually);
    const row = await prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } });
    expect(row).toMatchObject({ type: 'vote.vote.cast', traceParent: null });
    expect(Envelope.decode(row.payload)).toEqual(event);

    // Later passes of the relay leave it alone.
    const next = voteCast(2);
    await commit(outbox, next);
    await vi.waitFor(() => expect(bus.published).toHaveLength(2), eventually);
    expect(bus.published).toEqual([event, next]);
  });

  it('publishes without a nudge at the next poll', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus, { pollIntervalMs: 50 });
    const event = voteCast(1);
    await prisma.$transaction((tx) => outbox.enqueue(tx, event));
    await vi.waitFor(() => expect(bus.published).toEqual([event]), eventually);
  });

  it('checks less often while it finds nothing, and still publishes a commit at once', async () => {
    const bus = recordingBus();
    relayStatements = 0;
    const outbox = startOutbox(bus, { pollIntervalMs: 20, idlePollIntervalMs: 2_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_300));
    // Every 20 ms that would be 65 checks; doubling from the second on, 7 (20, 40, …, 640 ms apart), and the clean-up.
    expect(relayStatements).toBeLessThanOrEqual(12);
    const event = voteCast(1);
    await commit(outbox, event);
    await vi.waitFor(() => expect(bus.published).toEqual([event]), { timeout: 1_000, interval: 10 });
  });

  it('publishes in the order events were enqueued, across batches', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus, { batchSize: 7 });
    const first = Array.from({ length: 25 }, (_, i) => voteCast(i));
    const second = Array.from({ length: 25 }, (_, i) => voteCast(100 + i));
    await commit(outbox, ...first);
    await commit(outbox, ...second);
    await vi.waitFor(() => expect(bus.published).toHaveLength(50), eventually);
    expect(ids(bus.published)).toEqual(ids([...first, ...second]));
  });

  it('stores a batch in one statement, in a Prisma or a pool transaction, one row and one message per run of a type, each event as built, in order', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus);
    const traced = { ...voteCast(1), traceparent: '00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01' };
    const photoUpdated = makeEvent('photo.photo.updated', PhotoUpdated, { photo: { photoId: 9, userId: 'u9', filename: 'f', status: 1, version: 2 } }, { source: 'photo' });
    const viaPrisma = [traced, voteCast(2), voteCast(3), photoUpdated];
    await prisma.$transaction((tx) => outbox.enqueueAll(tx, viaPrisma));
    const viaPool = [voteCast(4), voteCast(5)];
    await inTransaction(pool, (tx) => outbox.enqueueAll(tx, viaPool));
    await inTransaction(pool, (tx) => outbox.enqueueAll(tx, []));
    outbox.nudge();
    await vi.waitFor(() => expect(bus.published).toHaveLength(6), eventually);
    expect(bus.published).toEqual([...viaPrisma, ...viaPool]);
    // Three votes, then the photo event alone (a row of its own, as enqueue stores it), then two votes.
    expect(bus.messages.map((m) => [m.type, decodeEvents(m.data).length])).toEqual([['vote.vote.cast', 3], ['photo.photo.updated', 1], ['vote.vote.cast', 2]]);
    expect(bus.messages[1]!.id).toBe(photoUpdated.id);
    expect(new Set(bus.messages.map((m) => m.id)).size).toBe(3);
    expect(await prisma.outboxEvent.count()).toBe(3);
  });

  it('keeps events while the bus fails and then publishes each once, in order', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus);
    bus.failNext = 3;
    const events = [voteCast(1), voteCast(2), voteCast(3)];
    await commit(outbox, ...events);
    await vi.waitFor(() => expect(bus.published).toHaveLength(3), eventually);
    expect(ids(bus.published)).toEqual(ids(events));
    await vi.waitFor(async () => expect(await prisma.outboxEvent.count({ where: { publishedAt: null } })).toBe(0), eventually);
  });

  it('marks what got out when the bus failed mid-batch, and retries only the rest', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus);
    const events = [voteCast(1), voteCast(2), voteCast(3)];
    const publish = bus.publishEncoded.bind(bus);
    let calls = 0;
    bus.publishEncoded = async (message) => {
      calls += 1;
      if (calls === 2) throw new Error('bus unreachable');
      return publish(message);
    };
    await commit(outbox, ...events);
    await vi.waitFor(() => expect(bus.published).toHaveLength(3), eventually);
    // The third went out beside the second, which overtakes nobody when it is retried: order holds except across a failure.
    expect(ids(bus.published)).toEqual(ids([events[0]!, events[2]!, events[1]!]));
    expect(calls).toBe(4);
  });

  it('marks the rows published since its last claim in its next claim: one statement a round under load', async () => {
    // The bus holds each publish until the test lets it through.
    const bus = recordingBus();
    const publish = bus.publishEncoded.bind(bus);
    const held: (() => void)[] = [];
    bus.publishEncoded = (message) => new Promise<void>((resolve) => held.push(() => resolve(publish(message))));
    // Each relay statement: the ids it marked published and the rows it claimed.
    const rounds: { marked: string[]; claimed: string[] }[] = [];
    const relayDb = mode === 'prisma' ? prisma : poolSqlClient(pool);
    const db = {
      $executeRawUnsafe: (query: string, ...values: unknown[]) => relayDb.$executeRawUnsafe(query, ...values),
      async $queryRawUnsafe<T>(query: string, ...values: unknown[]): Promise<T> {
        const rows = await relayDb.$queryRawUnsafe<{ id: string }[]>(query, ...values);
        if (query.includes('"published" AS')) rounds.push({ marked: values[3] as string[], claimed: rows.map((r) => r.id) });
        return rows as T;
      },
    };
    const outbox = startOutbox(bus, { db });
    const [first, second] = [voteCast(1), voteCast(2)];

    await commit(outbox, first!);
    await vi.waitFor(() => expect(held).toHaveLength(1), eventually);
    // The second commits while the first is still being published; the first's publish then settles.
    await prisma.$transaction(async (tx) => outbox.enqueue(tx, second!));
    held.shift()!();
    await vi.waitFor(() => expect(held).toHaveLength(1), eventually);
    held.shift()!();
    await vi.waitFor(async () => expect(await prisma.outboxEvent.count({ where: { publishedAt: null } })).toBe(0), eventually);

    expect(rounds.filter((r) => r.marked.length > 0 || r.claimed.length > 0)).toEqual([
      { marked: [], claimed: [first!.id] },
      { marked: [first!.id], claimed: [second!.id] },
      { marked: [second!.id], claimed: [] },
    ]);
    expect(ids(bus.published)).toEqual(ids([first!, second!]));
  });

  it('lets several replicas relay the same outbox without publishing an event twice', async () => {
    const bus = recordingBus();
    const replicas = [startOutbox(bus, { batchSize: 10 }), startOutbox(bus, { batchSize: 10 }), startOutbox(bus, { batchSize: 10 })];
    const events = Array.from({ length: 150 }, (_, i) => voteCast(i));
    for (let i = 0; i < events.length; i += 50) await commit(replicas[(i / 50) % 3]!, ...events.slice(i, i + 50));
    replicas.forEach((replica) => replica.nudge());

    await vi.waitFor(async () => expect(await prisma.outboxEvent.count({ where: { publishedAt: null } })).toBe(0), eventually);
    expect(ids(bus.published).sort()).toEqual(ids(events).sort());
  });

  it('deletes published events once they are older than the retention', async () => {
    const bus = recordingBus();
    const outbox = startOutbox(bus, { retentionMs: 60 * 60_000, cleanupIntervalMs: 0 });
    const old = voteCast(1);
    await commit(outbox, old);
    // Marked published in the table, not only handed to the bus: the relay records it after the bus returns.
    await vi.waitFor(async () => expect(await prisma.outboxEvent.count({ where: { publishedAt: { not: null } } })).toBe(1), eventually);
    await prisma.$executeRawUnsafe(`UPDATE "${SCHEMA}"."outbox" SET "published_at" = now() - interval '2 hours' WHERE "id" = $1::uuid`, old.id);

    const recent = voteCast(2);
    await commit(outbox, recent);
    await vi.waitFor(async () => expect((await prisma.outboxEvent.findMany()).map((row) => row.id)).toEqual([recent.id]), eventually);
  });

  it('quotes the schema name', async () => {
    const schema = 'Odd "schema"';
    await createOutboxTables(db.url, schema);
    const bus = recordingBus();
    const outbox = startOutbox(bus, { schema });
    const event = voteCast(1);
    await commit(outbox, event);
    await vi.waitFor(() => expect(bus.published).toEqual([event]), eventually);
    expect(await prisma.outboxEvent.count()).toBe(0);
  });
});
