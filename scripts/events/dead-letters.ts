/**
 * `pnpm events:dead-letters [options]`: the events consumers gave up on (docs/events.md, The kit → Dead letters),
 * read from the NATS dead-letter stream `<NATS_STREAM>_DLQ` (NATS_URL, default the local server; NATS_STREAM, default
 * SNAPCRACKS). Without options it lists them, oldest first. Replaying publishes an event to its subject again: every
 * consumer of its type receives it, and those that handled it already skip it by its id. A dead letter keeps the
 * message as its owner signed it (an event of a batch, the whole batch) and goes back with that signature, so this
 * script needs no key; one stored unsigned, by a version before events were signed, cannot be replayed from here.
 *
 *   --consumer NAME      only those of one durable consumer (e.g. stats-votes)
 *   --limit N            list at most N (default 100)
 *   --replay SEQ,…|all   replay these dead letters (their numbers in the list), or all listed, then remove them
 *   --discard SEQ,…      remove these without replaying them
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { createLogger, loadConfig, natsStreamOptions, openNatsDeadLetters, optionalString } from '../../services/kit/src/index.js';

const { values } = parseArgs({
  options: {
    consumer: { type: 'string' },
    limit: { type: 'string', default: '100' },
    replay: { type: 'string' },
    discard: { type: 'string' },
  },
});
const config = loadConfig(z.object({ NATS_URL: z.string().default('nats://127.0.0.1:4222'), NATS_STREAM: optionalString }));
const { stream = 'SNAPCRACKS', subjectPrefix = 'snapcracks.events' } = natsStreamOptions(config.NATS_STREAM);
const sequences = (list: string | undefined) =>
  (list ?? '')
    .split(',')
    .filter(Boolean)
    .map((s) => z.coerce.number().int().positive().parse(s.trim()));

const logger = createLogger('dead-letters', 'warn');
const queue = await openNatsDeadLetters({ servers: config.NATS_URL, stream, subjectPrefix, logger, publishTimeoutMs: 5_000 });
try {
  const letters = await queue.list({ consumer: values.consumer, limit: Number(values.limit) });
  const replay = values.replay === 'all' ? letters.map((l) => l.seq) : sequences(values.replay);
  const discard = sequences(values.discard);
  if (replay.length === 0 && discard.length === 0) {
    console.log(`${letters.length} dead letter(s) in ${stream}_DLQ${values.consumer ? ` of ${values.consumer}` : ''}`);
    for (const l of letters) {
      console.log(`#${l.seq}  ${l.failedAt.toISOString()}  ${l.consumer}  ${l.type || '(undecodable)'}  ${l.eventId}  after ${l.deliveries} deliveries: ${l.error}`);
    }
  }
  for (const seq of replay) {
    await queue.replay(seq);
    console.log(`#${seq} replayed`);
  }
  for (const seq of discard) {
    await queue.discard(seq);
    console.log(`#${seq} discarded`);
  }
} finally {
  await queue.close();
}
