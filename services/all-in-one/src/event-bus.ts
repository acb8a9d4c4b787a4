import { createMemoryEventBus, createNatsEventBus, natsStreamOptions, type EventBus, type Logger, type StreamSettings } from '@snapcracks/kit';

/** The all-in-one process's bus: NATS JetStream when given (its streams as configured), otherwise the in-process one. */
export async function openEventBus(options: {
  natsUrl?: string | undefined;
  natsStream?: string | undefined;
  natsStreams?: StreamSettings | undefined;
  logger: Logger;
}): Promise<EventBus> {
  const { natsUrl, natsStream, natsStreams, logger } = options;
  return natsUrl
    ? createNatsEventBus({ servers: natsUrl, logger, ...(natsStreams ? { streams: natsStreams } : {}), ...natsStreamOptions(natsStream) })
    : createMemoryEventBus({ logger });
}
