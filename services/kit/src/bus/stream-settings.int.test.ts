import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StorageType } from '@nats-io/jetstream';
import { createTestStream, type TestStream } from '../testing/nats.js';
import { createRecordingLogger } from '../testing/recording-logger.js';
import { IdentityKeyring } from '../grpc/identity.js';
import type { EventBus } from './event-bus.js';
import { createNatsEventBus } from './nats-event-bus.js';
import { deadLetterStream } from './nats-dead-letters.js';
import { DEFAULT_STREAM_SETTINGS, type StreamSettings } from './stream-settings.js';

const HOUR_MS = 3_600_000;
const identity = IdentityKeyring.generate();
const NANOS_PER_MS = 1e6;

describe('JetStream stream settings', () => {
  let nats: TestStream;
  const buses: EventBus[] = [];

  beforeEach(async () => {
    nats = await createTestStream('streams');
  });
  afterEach(async () => {
    await Promise.all(buses.splice(0).map((bus) => bus.close()));
    await nats.delete();
  });

  async function open(streams: StreamSettings, logger = createRecordingLogger().logger): Promise<EventBus> {
    const bus = await createNatsEventBus({ servers: nats.url, stream: nats.stream, subjectPrefix: nats.subjectPrefix, identity, logger, streams });
    buses.push(bus);
    return bus;
  }
  const info = async (name: string) => (await nats.jsm.streams.info(name)).config;

  it('creates both streams with the configured replicas, storage and maximum age', async () => {
    await open({ events: { replicas: 1, storage: 'memory', maxAgeMs: HOUR_MS }, deadLetters: { replicas: 1, maxAgeMs: 2 * HOUR_MS } });
    const events = await info(nats.stream);
    expect(events).toMatchObject({ num_replicas: 1, storage: StorageType.Memory, max_age: HOUR_MS * NANOS_PER_MS });
    const dead = await info(deadLetterStream(nats.stream));
    expect(dead).toMatchObject({ num_replicas: 1, storage: StorageType.Memory, max_age: 2 * HOUR_MS * NANOS_PER_MS });
  });

  it('keeps events 7 days and dead letters 30 days on file by default', async () => {
    await open(DEFAULT_STREAM_SETTINGS);
    expect(await info(nats.stream)).toMatchObject({ storage: StorageType.File, max_age: 7 * 24 * HOUR_MS * NANOS_PER_MS });
    expect(await info(deadLetterStream(nats.stream))).toMatchObject({ storage: StorageType.File, max_age: 30 * 24 * HOUR_MS * NANOS_PER_MS });
  });

  it('brings existing streams to a new maximum age, and keeps events already stored', async () => {
    const first = await open(DEFAULT_STREAM_SETTINGS);
    await first.close();
    buses.splice(0);
    const { logger, records } = createRecordingLogger();
    await open({ events: { replicas: 1, storage: 'file', maxAgeMs: 36 * HOUR_MS }, deadLetters: { replicas: 1, maxAgeMs: 0 } }, logger);
    expect((await info(nats.stream)).max_age).toBe(36 * HOUR_MS * NANOS_PER_MS);
    // 0: dead letters kept until replayed or discarded.
    expect((await info(deadLetterStream(nats.stream))).max_age).toBe(0);
    expect(records.filter((r) => r.msg === 'JetStream stream settings updated')).toHaveLength(2);
  });

  it('changes nothing when the settings already hold', async () => {
    await (await open(DEFAULT_STREAM_SETTINGS)).close();
    buses.splice(0);
    const { logger, records } = createRecordingLogger();
    await open(DEFAULT_STREAM_SETTINGS, logger);
    expect(records.some((r) => r.msg === 'JetStream stream settings updated')).toBe(false);
    expect(records.some((r) => r.level === 40)).toBe(false);
  });

  it('keeps the storage type of an existing stream, which JetStream cannot change, and says how to move it', async () => {
    await (await open(DEFAULT_STREAM_SETTINGS)).close();
    buses.splice(0);
    const { logger, records } = createRecordingLogger();
    await open({ ...DEFAULT_STREAM_SETTINGS, events: { ...DEFAULT_STREAM_SETTINGS.events, storage: 'memory' } }, logger);
    expect((await info(nats.stream)).storage).toBe(StorageType.File);
    const warnings = records.filter((r) => r.level === 40).map((r) => String(r.msg));
    expect(warnings).toHaveLength(2);
    expect(warnings[0]).toContain(`JetStream stream ${nats.stream} keeps its file storage`);
    expect(warnings[0]).toContain('NATS_STREAM_STORAGE=file');
  });
});

describe('JetStream stream settings JetStream refuses', () => {
  it('says which settings were refused, e.g. replicas on a server that is not a cluster', async () => {
    const nats = await createTestStream('replicas');
    try {
      await expect(
        createNatsEventBus({
          servers: nats.url,
          stream: nats.stream,
          subjectPrefix: nats.subjectPrefix,
          logger: createRecordingLogger().logger,
          identity,
          streams: { events: { replicas: 3, storage: 'file', maxAgeMs: HOUR_MS }, deadLetters: { replicas: 1, maxAgeMs: 0 } },
        }),
      ).rejects.toThrow(new RegExp(`^JetStream refused stream ${nats.stream} with 3 replica\\(s\\), file storage, maximum age 3600000 ms: .*replicas`));
    } finally {
      await nats.delete();
    }
  });

  it('creates and shortens a stream below the five-minute duplicate window', async () => {
    const nats = await createTestStream('short');
    const logger = createRecordingLogger().logger;
    const short = (maxAgeMs: number): StreamSettings => ({ events: { replicas: 1, storage: 'file', maxAgeMs }, deadLetters: { replicas: 1, maxAgeMs } });
    try {
      await (await createNatsEventBus({ servers: nats.url, stream: nats.stream, subjectPrefix: nats.subjectPrefix, identity, logger })).close();
      const bus = await createNatsEventBus({ servers: nats.url, stream: nats.stream, subjectPrefix: nats.subjectPrefix, identity, logger, streams: short(60_000) });
      await bus.close();
      expect((await nats.jsm.streams.info(nats.stream)).config).toMatchObject({ max_age: 60_000 * NANOS_PER_MS, duplicate_window: 60_000 * NANOS_PER_MS });
    } finally {
      await nats.delete();
    }
  });
});
