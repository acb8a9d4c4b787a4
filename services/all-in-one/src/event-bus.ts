import { createMemoryEventBus, createNatsEventBus, natsStreamOptions, type EventBus, type IdentityKeyring, type Logger, type StreamSettings } from '@snapcracks/kit';

/**
 * The all-in-one process's bus: NATS JetStream when given (its streams as configured), otherwise the in-process one.
 * On NATS this process holds every component's private key, so it signs each event with its owner's key, as the split
 * processes do with one key each; the in-process bus carries no signatures, since nothing outside the process can
 * publish on it.
 */
export async function openEventBus(options: {
  natsUrl?: string | undefined;
  natsStream?: string | undefined;
  natsStreams?: StreamSettings | undefined;
  logger: Logger;
  identity: IdentityKeyring;
}): Promise<EventBus> {
  const { natsUrl, natsStream, natsStreams, logger, identity } = options;
  return natsUrl
    ? createNatsEventBus({ servers: natsUrl, logger, identity, ...(natsStreams ? { streams: natsStreams } : {}), ...natsStreamOptions(natsStream) })
    : createMemoryEventBus({ logger });
}
