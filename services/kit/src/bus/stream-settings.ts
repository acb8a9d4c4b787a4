import { nanos } from '@nats-io/transport-node';
import { StorageType, type JetStreamManager, type StreamConfig, type StreamInfo } from '@nats-io/jetstream';
import type { Logger } from '../logger.js';

/** One JetStream stream's operator settings: replicas, where it keeps messages, how long (0: no age limit). */
export interface StreamLimits {
  replicas: number;
  storage: 'file' | 'memory';
  maxAgeMs: number;
}

/** The events stream's and the dead-letter stream's settings (NATS_STREAM_*, NATS_DEAD_LETTER_*). */
export interface StreamSettings {
  events: StreamLimits;
  /** The dead letters keep the events stream's storage type. */
  deadLetters: Omit<StreamLimits, 'storage'>;
}

export const DEFAULT_STREAM_SETTINGS: StreamSettings = {
  events: { replicas: 1, storage: 'file', maxAgeMs: 7 * 24 * 60 * 60_000 },
  deadLetters: { replicas: 1, maxAgeMs: 30 * 24 * 60 * 60_000 },
};

/** The part of a stream's configuration these settings decide. */
export function streamLimitsConfig(limits: StreamLimits): Pick<StreamConfig, 'num_replicas' | 'storage' | 'max_age'> {
  return {
    num_replicas: limits.replicas,
    storage: limits.storage === 'memory' ? StorageType.Memory : StorageType.File,
    max_age: nanos(limits.maxAgeMs),
  };
}

/**
 * Brings an existing stream to the configured replicas and maximum age (JetStream changes both in place). Its storage
 * type cannot change: a stream created with the other one keeps it, with a warning saying how to move it.
 */
export async function updateStreamLimits(jsm: JetStreamManager, info: StreamInfo, limits: StreamLimits, logger: Logger): Promise<void> {
  const wanted = streamLimitsConfig(limits);
  const { config } = info;
  if (config.storage !== wanted.storage) {
    logger.warn(
      { stream: config.name, storage: config.storage, configured: wanted.storage },
      `JetStream stream ${config.name} keeps its ${config.storage} storage: a stream's storage type cannot change (back it up, delete it and let the next start create it, or set NATS_STREAM_STORAGE=${config.storage})`,
    );
  }
  if (config.num_replicas === wanted.num_replicas && config.max_age === wanted.max_age) return;
  // JetStream wants the duplicate window no longer than the maximum age.
  const duplicateWindow = wanted.max_age > 0 && config.duplicate_window > wanted.max_age ? { duplicate_window: wanted.max_age } : {};
  await explained(config.name, limits, () => jsm.streams.update(config.name, { num_replicas: wanted.num_replicas, max_age: wanted.max_age, ...duplicateWindow }));
  logger.info(
    { stream: config.name, replicas: { from: config.num_replicas, to: wanted.num_replicas }, maxAgeMs: { from: config.max_age / 1e6, to: limits.maxAgeMs } },
    'JetStream stream settings updated',
  );
}

/** Runs a stream's creation or update; JetStream's refusal (e.g. replicas on a single server) says which settings it refused. */
export async function explained<T>(stream: string, limits: StreamLimits, change: () => Promise<T>): Promise<T> {
  try {
    return await change();
  } catch (error) {
    const settings = `${limits.replicas} replica(s), ${limits.storage} storage, maximum age ${limits.maxAgeMs > 0 ? `${limits.maxAgeMs} ms` : 'none'}`;
    throw new Error(`JetStream refused stream ${stream} with ${settings}: ${(error as Error).message} (NATS_STREAM_*, NATS_DEAD_LETTER_* settings)`, { cause: error });
  }
}
