import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { PrismaPg } from '@prisma/adapter-pg';
import { VoteCast, type Envelope } from '@snapcracks/proto/events/v1';
import type { EventBus } from '../bus/event-bus.js';
import { makeEvent } from '../bus/event-types.js';
import { createNatsEventBus } from '../bus/nats-event-bus.js';
import { durableConsumerName } from '../bus/nats-jetstream-setup.js';
import { createTestStream, type TestStream } from '../testing/nats.js';
import { createOutboxTables } from '../testing/outbox-tables.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres.js';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { startTcpProxy, type TcpProxy } from '../testing/tcp-proxy.js';
import { IdentityKeyring } from '../grpc/identity.js';
import { createOutbox, type Outbox } from './outbox.js';

const SCHEMA = 'vote';
/** Generous: reconnecting and the relay's backoff take a moment, and other integration tests share the machine. */
const eventually = { timeout: 20_000, interval: 20 };
const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });

describe('outbox relaying to NATS', () => {
  const { logger, records } = createRecordingLogger();
  let db: TestDatabase;
  let prisma: PrismaClient;
  let nats: TestStream;
  let proxy: TcpProxy;
  let producerBus: EventBus;
  let consumerBus: EventBus;
  let outbox: Outbox;
  const received: Envelope[] = [];

  beforeEach(async () => {
    db = await createTestDatabase('outage');
    await createOutboxTables(db.url, SCHEMA);
    prisma = new PrismaClient({ adapter: new PrismaPg({ connectionString: db.url }, { schema: SCHEMA }) });
    nats = await createTestStream('outage');
    const natsAddress = new URL(nats.url);
    proxy = await startTcpProxy({ host: natsAddress.hostname, port: Number(natsAddress.port || 4222) });

    const busOptions = { stream: nats.stream, subjectPrefix: nats.subjectPrefix, logger, identity: IdentityKeyring.generate() };
    // The producing service reaches NATS only through the proxy; short timeouts keep the outage test quick.
    producerBus = await createNatsEventBus({ ...busOptions, servers: `nats://127.0.0.1:${proxy.port}`, publishTimeoutMs: 500, reconnectTimeWaitMs: 100 });
    consumerBus = await createNatsEventBus({ ...busOptions, servers: nats.url });
    await consumerBus.subscribe(async (event) => void received.push(event), { durable: 'stats', types: ['vote.vote.cast'] });
    outbox = createOutbox({ prisma, schema: SCHEMA, bus: producerBus, logger, retryBackoff: { initialDelayMs: 100, maxDelayMs: 500 } });
    outbox.startRelay();
  });

  afterEach(async () => {
    await outbox.stopRelay();
    await proxy.restore(); // so the producer's connection can drain
    await Promise.all([producerBus.close(), consumerBus.close()]);
    await proxy.close();
    await nats.delete();
    await prisma.$disconnect();
    await db.drop();
  });

  async function commitVote(event: Envelope): Promise<void> {
    await prisma.$transaction((tx) => outbox.enqueue(tx, event));
    outbox.nudge();
  }

  const publishedAt = async (event: Envelope) => (await prisma.outboxEvent.findUniqueOrThrow({ where: { id: event.id } })).publishedAt;

  it('delivers an event exactly once after NATS was unreachable when the change was made', async () => {
    const before = voteCast(1);
    await commitVote(before);
    await vi.waitFor(() => expect(received).toEqual([before]), eventually);

    await proxy.cut();
    const during = voteCast(2);
    await commitVote(during);
    await vi.waitFor(() => expect(records.some((r) => r.msg === 'outbox relay failed; will retry')).toBe(true), eventually);
    expect(received).toEqual([before]);
    expect(await publishedAt(during)).toBeNull();

    await proxy.restore();
    await vi.waitFor(() => expect(received).toEqual([before, during]), eventually);
    await vi.waitFor(async () => expect(await publishedAt(during)).not.toBeNull(), eventually);

    // Exactly once: the stream holds one copy (a publish lost in the outage and retried is deduplicated),
    // and the consumer has nothing left to deliver.
    const { state } = await nats.jsm.streams.info(nats.stream);
    expect(state.messages).toBe(2);
    await vi.waitFor(async () => {
      const consumer = await nats.jsm.consumers.info(nats.stream, durableConsumerName('stats', 'vote.vote.cast'));
      expect(consumer.num_pending + consumer.num_ack_pending).toBe(0);
    }, eventually);
    expect(received).toEqual([before, during]);
  });
});
