import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { headers } from '@nats-io/transport-node';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { Envelope, UserDeleted, VoteCast } from '@snapcracks/proto/events/v1';
import { IdentityKeyring } from '../grpc/identity.js';
import { processMetrics, startMetrics } from '../metrics/provider.js';
import { renderPrometheus } from '../metrics/server.js';
import { createTestStream, type TestStream } from '../testing/nats.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import type { EventBus, EventHandler } from './event-bus.js';
import { encodeEvents } from './event-messages.js';
import { eventSignatures, SIGNATURE_HEADER } from './event-signatures.js';
import { makeEvent } from './event-types.js';
import { natsDeadLetterQueue } from './nats-dead-letters.js';
import { createNatsEventBus } from './nats-event-bus.js';
import { durableConsumerName } from './nats-jetstream-setup.js';

/** Every component's keys, as the all-in-one process holds them; `only(name)` is one split process's keyring. */
const everyone = IdentityKeyring.generate();
const only = (component: string) => IdentityKeyring.fromConfig(component, everyone.privateKeyConfig(component), everyone.publicKeysConfig());

const userDeleted = (userId: string) => makeEvent('auth.user.deleted', UserDeleted, { userId }, { source: 'auth' });
const voteCast = (photoId: number) => makeEvent('vote.vote.cast', VoteCast, { photoId, userId: 'u1', rating: 5 }, { source: 'vote' });
const bytes = (event: Envelope) => Envelope.encode(event).finish();

/** Generous, because other integration tests share the machine. */
const eventually = { timeout: 10_000, interval: 20 };

let telemetry: { shutdown(): Promise<void> };
beforeAll(() => {
  telemetry = startMetrics({ component: 'snapcracks', resource: resourceFromAttributes({}) });
});
afterAll(() => telemetry.shutdown());

/** The refusals counted so far for a consumer, by reason, from the Prometheus rendering (the counters outlive a test). */
async function refusalTotals(consumer: string): Promise<Record<string, number>> {
  const { resourceMetrics } = await processMetrics()!.prometheus.collect();
  const counts: Record<string, number> = {};
  for (const line of renderPrometheus(resourceMetrics).split('\n')) {
    const match = /^snapcracks_events_refused_total\{(.*)\} (\d+)$/.exec(line);
    if (!match || !match[1]!.includes(`consumer="${consumer}"`)) continue;
    counts[/reason="([^"]+)"/.exec(match[1]!)![1]!] = Number(match[2]);
  }
  return counts;
}

/** The refusals counted for a consumer since `before` (refusalTotals), the reasons with none left out. */
async function refusalsSince(consumer: string, before: Record<string, number>): Promise<Record<string, number>> {
  const totals = await refusalTotals(consumer);
  return Object.fromEntries(Object.entries(totals).flatMap(([reason, count]) => (count > (before[reason] ?? 0) ? [[reason, count - (before[reason] ?? 0)]] : [])));
}

describe('signed events on NATS', () => {
  const { logger, records } = createRecordingLogger();
  let nats: TestStream;
  const buses: EventBus[] = [];

  beforeEach(async () => {
    nats = await createTestStream('signed');
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await nats.delete();
  });

  async function newBus(identity: IdentityKeyring = everyone, maxDeliveries = 3): Promise<EventBus> {
    const bus = await createNatsEventBus({
      servers: nats.url,
      stream: nats.stream,
      subjectPrefix: nats.subjectPrefix,
      logger,
      identity,
      retry: { initialDelayMs: 50, maxDelayMs: 100, maxDeliveries },
    });
    buses.push(bus);
    return bus;
  }

  /** Publishes bytes straight to the events subject of `type`, as anyone holding the NATS credential can. */
  async function publishRaw(type: string, data: Uint8Array, signature?: string): Promise<void> {
    const h = headers();
    if (signature !== undefined) h.set(SIGNATURE_HEADER, signature);
    await nats.jsm.jetstream().publish(`${nats.subjectPrefix}.${type}`, data, { headers: h });
  }

  /** Resolves once the durable consumer has been handed, and has answered, every stored message. */
  async function consumerSettled(durable: string, type: string): Promise<void> {
    const name = durableConsumerName(durable, type);
    await vi.waitFor(async () => {
      const [{ state }, consumer] = await Promise.all([nats.jsm.streams.info(nats.stream), nats.jsm.consumers.info(nats.stream, name)]);
      expect(consumer.delivered.stream_seq).toBe(state.last_seq);
      expect(consumer.num_pending + consumer.num_ack_pending + consumer.num_redelivered).toBe(0);
    }, eventually);
  }

  function recorder() {
    const events: Envelope[] = [];
    const handler: EventHandler = async (event) => void events.push(event);
    return { events, handler };
  }

  it('refuses an unsigned, a foreign-signed, a wrongly claimed and a tampered auth.user.deleted, and handles the genuine one', async () => {
    const before = await refusalTotals('photo');
    const auth = await newBus(only('auth'));
    const photo = recorder();
    // The photo service's consumer, in a process of its own: it holds only its own private key.
    await (await newBus(only('photo'))).subscribe(photo.handler, { durable: 'photo', types: ['auth.user.deleted'] });

    const storage = eventSignatures(only('storage'));
    const genuineSigner = eventSignatures(only('auth'));
    const forgedData = bytes(userDeleted('victim'));
    const storageSignature = storage.sign('storage.anything', Buffer.concat([Buffer.from('auth.user.deleted\n'), forgedData]));
    await publishRaw('auth.user.deleted', forgedData); // no signature at all
    await publishRaw('auth.user.deleted', forgedData, `storage.${storageSignature.split('.')[1]}`); // storage signs as itself
    // storage's signature over the right bytes, claimed to be auth's
    const storageKeySigning = eventSignatures({ privateKeyOf: () => only('storage').privateKeyOf('storage'), publicKeyOf: () => undefined });
    await publishRaw('auth.user.deleted', forgedData, storageKeySigning.sign('auth.user.deleted', forgedData));
    const genuine = userDeleted('someone-else');
    const tampered = bytes({ ...genuine, payload: Buffer.from(UserDeleted.encode({ userId: 'victim' }).finish()) });
    await publishRaw('auth.user.deleted', tampered, genuineSigner.sign('auth.user.deleted', bytes(genuine))); // genuine signature, other bytes
    await auth.publish(genuine);

    await vi.waitFor(() => expect(photo.events.map((e) => e.id)).toEqual([genuine.id]), eventually);
    await consumerSettled('photo', 'auth.user.deleted');
    expect(photo.events).toEqual([genuine]);
    expect(await refusalsSince('photo', before)).toEqual({ unsigned: 1, wrong_signer: 1, bad_signature: 2 });
    const warnings = records.filter((r) => r.msg === 'event refused: not signed by the component that owns its type');
    expect(warnings.map((w) => [w.reason, w.claimedSigner, w.subject])).toEqual([
      ['unsigned', null, `${nats.subjectPrefix}.auth.user.deleted`],
      ['wrong_signer', 'storage', `${nats.subjectPrefix}.auth.user.deleted`],
      ['bad_signature', 'auth', `${nats.subjectPrefix}.auth.user.deleted`],
      ['bad_signature', 'auth', `${nats.subjectPrefix}.auth.user.deleted`],
    ]);
    expect(warnings.every((w) => w.level === 40 && !('data' in w) && !('payload' in w))).toBe(true);
    // Refused is not failed: nothing for an operator to replay.
    expect(await auth.deadLetters.list()).toEqual([]);
  });

  it("refuses a batch the owner signed that smuggles another owner's type, and an event moved to another type's subject", async () => {
    const before = await refusalTotals('stats');
    const vote = await newBus(only('vote'));
    const stats = recorder();
    await (await newBus(only('stats'))).subscribe(stats.handler, { durable: 'stats', types: ['vote.vote.cast', 'auth.user.deleted'] });
    const voteSigner = eventSignatures(only('vote'));
    const mixed = encodeEvents([voteCast(1), userDeleted('victim')]);
    await publishRaw('vote.vote.cast', mixed, voteSigner.sign('vote.vote.cast', mixed));
    // auth's genuine message, republished under the vote subject with its signature: the type is signed too.
    const authMessage = bytes(userDeleted('victim'));
    await publishRaw('vote.vote.cast', authMessage, eventSignatures(only('auth')).sign('auth.user.deleted', authMessage));
    const genuine = [voteCast(2), voteCast(3)];
    await vote.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(genuine) });

    await vi.waitFor(() => expect(stats.events).toEqual(genuine), eventually);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(stats.events).toEqual(genuine);
    expect(await refusalsSince('stats', before)).toEqual({ foreign_type: 1, wrong_signer: 1 });
  });

  it('refuses on a broadcast subscription too', async () => {
    const before = await refusalTotals('ephemeral');
    const auth = await newBus(only('auth'));
    const gateway = recorder();
    await (await newBus(only('gateway'))).subscribe(gateway.handler, { types: ['auth.user.deleted'] });
    await publishRaw('auth.user.deleted', bytes(userDeleted('victim')));
    const genuine = userDeleted('someone');
    await auth.publish(genuine);
    await vi.waitFor(() => expect(gateway.events).toEqual([genuine]), eventually);
    expect(await refusalsSince('ephemeral', before)).toEqual({ unsigned: 1 });
  });

  it("will not publish a type whose owner's private key the process does not hold", async () => {
    const storage = await newBus(only('storage'));
    await expect(storage.publish(userDeleted('victim'))).rejects.toThrow(/signed by auth, whose private key this process does not hold/);
    expect((await nats.jsm.streams.info(nats.stream)).state.messages).toBe(0);
  });

  it("replays a dead letter of a batch with the producer's signature: the consumer verifies and handles it", async () => {
    const before = await refusalTotals('stats');
    const vote = await newBus(only('vote'));
    let failing = true;
    const stats = recorder();
    await (
      await newBus(only('stats'), 1)
    ).subscribe(
      async (event) => {
        if (failing && event.id === batch[1]!.id) throw new Error('projection broken');
        await stats.handler(event);
      },
      { durable: 'stats', types: ['vote.vote.cast'] },
    );
    const batch = [voteCast(1), voteCast(2)];
    await vote.publishEncoded({ id: 'batch-1', type: 'vote.vote.cast', data: encodeEvents(batch) });
    await vi.waitFor(async () => expect(await vote.deadLetters.list()).toHaveLength(1), eventually);
    const [letter] = await vote.deadLetters.list();
    expect(letter).toMatchObject({ consumer: 'stats', eventId: batch[1]!.id, type: 'vote.vote.cast' });

    failing = false;
    // Replayed by an operator's process that holds no private key at all (`pnpm events:dead-letters`).
    const operator = natsDeadLetterQueue(nats.jsm, { stream: nats.stream, subjectPrefix: nats.subjectPrefix, logger, publishTimeoutMs: 5_000 });
    await operator.replay(letter!.seq);
    // The whole batch comes again; a real consumer skips the event it handled already (processed_events).
    await vi.waitFor(() => expect(stats.events.map((e) => e.id)).toEqual([batch[0]!.id, batch[0]!.id, batch[1]!.id]), eventually);
    await consumerSettled('stats', 'vote.vote.cast');
    expect(await refusalsSince('stats', before)).toEqual({});
  });

  it("signs a dead letter stored without a signature only with its owner's key when replaying it", async () => {
    const before = await refusalTotals('stats');
    const stats = recorder();
    await (await newBus(only('stats'))).subscribe(stats.handler, { durable: 'stats', types: ['vote.vote.cast'] });
    const event = voteCast(1);
    const options = { stream: nats.stream, subjectPrefix: nats.subjectPrefix, logger, publishTimeoutMs: 5_000 };
    const keyless = natsDeadLetterQueue(nats.jsm, options);
    // As a version that did not sign events left it.
    await keyless.add({ consumer: 'stats', subject: `${nats.subjectPrefix}.vote.vote.cast`, streamSeq: 1, data: bytes(event), signature: '', event, deliveries: 3, error: new Error('old') });
    const [letter] = await keyless.list();
    await expect(keyless.replay(letter!.seq)).rejects.toThrow(/carries no signature, and only a process holding the private key of vote can sign it/);
    await expect(natsDeadLetterQueue(nats.jsm, { ...options, signatures: eventSignatures(only('auth')) }).replay(letter!.seq)).rejects.toThrow(/private key this process does not hold/);
    await natsDeadLetterQueue(nats.jsm, { ...options, signatures: eventSignatures(only('vote')) }).replay(letter!.seq);
    await vi.waitFor(() => expect(stats.events).toEqual([event]), eventually);
    expect(await refusalsSince('stats', before)).toEqual({});
  });
});
