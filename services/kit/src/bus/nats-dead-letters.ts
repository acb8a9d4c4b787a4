import { connect, headers, nanos } from '@nats-io/transport-node';
import { JetStreamApiCodes, JetStreamApiError, RetentionPolicy, jetstreamManager, type JetStreamManager } from '@nats-io/jetstream';
import { z } from 'zod';
import type { Logger } from '../logger.js';
import { errorLine, identify, logDeadLetter, type DeadLetter, type DeadLetterQueue } from './dead-letters.js';
import { eventOwner, SIGNATURE_HEADER, type EventSignatures } from './event-signatures.js';
import type { Envelope } from '@snapcracks/proto/events/v1';
import { DEFAULT_STREAM_SETTINGS, explained, streamLimitsConfig, updateStreamLimits, type StreamLimits } from './stream-settings.js';

/**
 * Dead letters on NATS: a stream of their own, `<stream>_DLQ`, on subjects `<prefix>_dead.<consumer>` (outside the
 * events stream's `<prefix>.>`: streams may not share subjects, and no event consumer should ever see one). A dead
 * letter is the message's bytes as published (one Envelope, or the whole EventBatch the event came in) with the
 * producer's signature kept beside them, so that a replay republishes exactly what the owner signed and consumers
 * verify it as any other message; its story in headers (readable with `nats stream view <stream>_DLQ`):
 */
const HEADER = {
  consumer: 'Snapcracks-Consumer',
  subject: 'Snapcracks-Subject',
  eventId: 'Snapcracks-Event-Id',
  type: 'Snapcracks-Event-Type',
  deliveries: 'Snapcracks-Deliveries',
  error: 'Snapcracks-Error',
  failedAt: 'Snapcracks-Failed-At',
  signature: SIGNATURE_HEADER,
} as const;

/** The headers as read back: written by this module, but a stream is an edge (an operator may publish into it). */
const DeadLetterHeaders = z.object({
  consumer: z.string().min(1),
  subject: z.string().min(1),
  eventId: z.string(),
  type: z.string(),
  deliveries: z.coerce.number().int().nonnegative(),
  error: z.string(),
  failedAt: z.coerce.date(),
});

export interface NatsDeadLetterOptions {
  stream: string;
  subjectPrefix: string;
  logger: Logger;
  /** How long a publish waits for JetStream's acknowledgement. */
  publishTimeoutMs: number;
  /**
   * Signs a replayed dead letter that carries no signature (stored before events were signed), when this process holds
   * the private key of its type's owner; without it, or without that key, such a letter cannot be replayed.
   */
  signatures?: EventSignatures;
}

/** What a consumer hands over when it gives up on a message. */
export interface GivenUp {
  consumer: string;
  /** The subject it was published to, where a replay publishes it again. */
  subject: string;
  /** The stream sequence of the message, so that giving up on an event twice (a crash in between) keeps one dead letter. */
  streamSeq: number;
  /** The message's bytes as delivered: one Envelope, an EventBatch, or bytes that could not be read. */
  data: Uint8Array;
  /** The signature the message came with (SIGNATURE_HEADER), kept for the replay. */
  signature: string;
  /** The event given up on; none when the message could not be read. */
  event?: Envelope | undefined;
  deliveries: number;
  error: unknown;
}

export interface NatsDeadLetterQueue extends DeadLetterQueue {
  /** Stores the message as a dead letter (resolves once JetStream has it) and logs it. */
  add(givenUp: GivenUp): Promise<void>;
}

/**
 * Creates the dead-letter stream unless it exists, or brings it to the configured replicas and maximum age. Dead
 * letters stay until replayed, discarded or older than that age (NATS_DEAD_LETTER_MAX_AGE; 0 keeps them for good).
 */
export async function ensureDeadLetterStream(
  jsm: JetStreamManager,
  stream: string,
  subjectPrefix: string,
  options: { limits?: StreamLimits; logger?: Logger } = {},
): Promise<void> {
  const name = deadLetterStream(stream);
  const limits = options.limits ?? { ...DEFAULT_STREAM_SETTINGS.deadLetters, storage: DEFAULT_STREAM_SETTINGS.events.storage };
  let info;
  try {
    info = await jsm.streams.info(name);
  } catch (error) {
    if (!(error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound)) throw error;
    await explained(name, limits, () =>
      jsm.streams.add({
        name,
        subjects: [`${deadLetterPrefix(subjectPrefix)}.>`],
        retention: RetentionPolicy.Limits,
        ...streamLimitsConfig(limits),
        duplicate_window: nanos(limits.maxAgeMs > 0 ? Math.min(5 * 60_000, limits.maxAgeMs) : 5 * 60_000),
        // Listing reads message by message with direct gets.
        allow_direct: true,
      }),
    );
    return;
  }
  if (options.logger) await updateStreamLimits(jsm, info, limits, options.logger);
}

export const deadLetterStream = (stream: string) => `${stream}_DLQ`;
const deadLetterPrefix = (subjectPrefix: string) => `${subjectPrefix}_dead`;

export function natsDeadLetterQueue(jsm: JetStreamManager, options: NatsDeadLetterOptions): NatsDeadLetterQueue {
  const { logger, publishTimeoutMs, signatures } = options;
  const js = jsm.jetstream();
  const stream = deadLetterStream(options.stream);
  const prefix = deadLetterPrefix(options.subjectPrefix);

  async function get(seq: number): Promise<StoredDeadLetter> {
    const stored = await jsm.streams.getMessage(stream, { seq });
    if (!stored) throw new Error(`No dead letter ${seq} in ${stream}`);
    return toDeadLetter(stored.seq, stored.header, stored.data, stored.time);
  }

  async function remove(seq: number): Promise<void> {
    await jsm.streams.deleteMessage(stream, seq, false);
  }

  /** Signs a letter stored without a signature, with its owner's key only: consumers would refuse it unsigned. */
  function signUnsigned(letter: StoredDeadLetter, seq: number): string {
    const type = letter.subject.slice(options.subjectPrefix.length + 1);
    if (!signatures) throw new Error(`Dead letter ${seq} carries no signature, and only a process holding the private key of ${eventOwner(type)} can sign it`);
    return signatures.sign(type, letter.data);
  }

  return {
    async add({ consumer, subject, streamSeq, data, signature, event, deliveries, error }) {
      const { eventId, type } = identify(data, event);
      const h = headers();
      h.set(HEADER.consumer, consumer);
      h.set(HEADER.subject, subject);
      h.set(HEADER.eventId, eventId);
      h.set(HEADER.type, type);
      h.set(HEADER.deliveries, String(deliveries));
      h.set(HEADER.error, errorLine(error));
      h.set(HEADER.failedAt, new Date().toISOString());
      if (signature) h.set(HEADER.signature, signature);
      const ack = await js.publish(`${prefix}.${consumer}`, data, { headers: h, msgID: `${options.stream}:${streamSeq}:${consumer}:${eventId}`, timeout: publishTimeoutMs });
      logDeadLetter(logger, { seq: ack.seq, consumer, eventId, type, deliveries }, error, stream);
    },

    async list({ consumer, limit = 1_000 } = {}) {
      const filter = `${prefix}.${consumer ?? '>'}`;
      const letters: DeadLetter[] = [];
      // A direct get from a stream that is not there times out rather than failing: ask first.
      const info = await jsm.streams.info(stream).catch((error: unknown) => {
        if (error instanceof JetStreamApiError && error.code === JetStreamApiCodes.StreamNotFound) return undefined;
        throw error;
      });
      if (!info || info.state.messages === 0) return letters;
      for (let seq = info.state.first_seq; letters.length < limit; ) {
        const stored = await jsm.direct.getMessage(stream, { seq, next_by_subj: filter });
        if (!stored) break;
        letters.push(toDeadLetter(stored.seq, stored.header, stored.data, stored.time));
        seq = stored.seq + 1;
      }
      return letters;
    },

    async replay(seq) {
      const letter = await get(seq);
      const subject = letter.subject;
      const signed = headers();
      signed.set(SIGNATURE_HEADER, letter.signature || signUnsigned(letter, seq));
      // A new message id: the events stream would drop the original id as a duplicate within its window.
      await js.publish(subject, letter.data, { msgID: `${letter.eventId || 'undecodable'}:replay:${stream}:${seq}`, timeout: publishTimeoutMs, headers: signed });
      await remove(seq);
      logger.info({ deadLetter: seq, consumer: letter.consumer, eventId: letter.eventId, type: letter.type }, 'dead letter replayed');
    },

    async discard(seq) {
      const letter = await get(seq);
      await remove(seq);
      logger.info({ deadLetter: seq, consumer: letter.consumer, eventId: letter.eventId, type: letter.type }, 'dead letter discarded');
    },
  };
}

/** The dead letters of a NATS installation from outside the product (`pnpm events:dead-letters`); close when done. */
export async function openNatsDeadLetters(options: NatsDeadLetterOptions & { servers: string }): Promise<NatsDeadLetterQueue & { close(): Promise<void> }> {
  const nc = await connect({ servers: options.servers });
  const queue = natsDeadLetterQueue(await jetstreamManager(nc, { timeout: options.publishTimeoutMs }), options);
  return { ...queue, close: () => nc.close() };
}

type Headers = { get(key: string): string } | undefined;

/** A dead letter as the stream holds it: where it goes back to, and the signature it goes back with ('' if none). */
type StoredDeadLetter = DeadLetter & { subject: string; signature: string };

function toDeadLetter(seq: number, header: Headers, data: Uint8Array, time: Date): StoredDeadLetter {
  const read = (key: string) => header?.get(key) ?? '';
  const parsed = DeadLetterHeaders.safeParse({
    consumer: read(HEADER.consumer),
    subject: read(HEADER.subject),
    eventId: read(HEADER.eventId),
    type: read(HEADER.type),
    deliveries: read(HEADER.deliveries) || '0',
    error: read(HEADER.error),
    failedAt: read(HEADER.failedAt) || time.toISOString(),
  });
  if (!parsed.success) throw new Error(`Dead letter ${seq} has unreadable headers: ${z.prettifyError(parsed.error)}`);
  return { seq, ...parsed.data, data, signature: read(HEADER.signature) };
}
