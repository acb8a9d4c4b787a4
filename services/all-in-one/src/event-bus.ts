import { createMemoryEventBus, createNatsEventBus, natsStreamOptions, type EventBus, type Logger } from '@snapcracks/kit';

/** The all-in-one process's bus: NATS JetStream when given, otherwise the in-process one. */
export async function openEventBus(options: { natsUrl?: string | undefined; natsStream?: string | undefined; logger: Logger }): Promise<EventBus> {
  const { natsUrl, natsStream, logger } = options;
  return natsUrl ? createNatsEventBus({ servers: natsUrl, logger, ...natsStreamOptions(natsStream) }) : createMemoryEventBus({ logger });
}
