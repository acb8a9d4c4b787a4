/**
 * `tsx scripts/bench/outbox-relay.ts [options]`: whether a service's outbox relay keeps up with votes, on the machine's
 * PostgreSQL and NATS JetStream (a database and a stream of its own), as a service runs it (the kit's createOutbox on a
 * pg pool, the relay nudged after each commit).
 *
 * - Backlog: N events committed while no relay runs, then one relay starts; events/s until the last is published.
 * - Steady rate: writers commit RATE events/s (in transactions of --per-commit, each followed by a nudge, as the vote
 *   service's group commit does) for --seconds while one relay runs (two with --relays 2, sharing the outbox by leases);
 *   the figures are the events published per second and how long an event waited between its commit and its publish
 *   (p50, p99, max). An event is published once JetStream stored it.
 *
 * Figures only: no target is checked.
 *
 *   --backlog N      events in the backlog run (default 20000)
 *   --rate N         events per second in the steady run (default 1500)
 *   --seconds N      length of the steady run (default 10)
 *   --per-commit N   events per transaction in the steady run (default 10)
 *   --relays N       relays in the steady run (default 1)
 */
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { createLogger, createNatsEventBus, createOutbox, IdentityKeyring, inTransaction, makeEvent, poolSqlClient, type EventBus, type Outbox } from '../../services/kit/src/index.js';
import { createOutboxTables, createTestDatabase, createTestStream, openTestPool } from '../../services/kit/src/testing/index.js';
import type { Pool } from '../seed/db.js';
import { VoteCast } from '../../proto/gen/snapcracks/events/v1/events.js';

const { values } = parseArgs({
  options: {
    backlog: { type: 'string', default: '20000' },
    rate: { type: 'string', default: '1500' },
    seconds: { type: 'string', default: '10' },
    'per-commit': { type: 'string', default: '10' },
    relays: { type: 'string', default: '1' },
  },
});
const backlog = Number(values.backlog);
const rate = Number(values.rate);
const seconds = Number(values.seconds);
const perCommit = Number(values['per-commit']);
const relayCount = Number(values.relays);
const SCHEMA = 'vote';
const logger = createLogger('bench-outbox', 'warn');
const load = () => loadavg().map((l) => l.toFixed(1)).join(', ');

let sequence = 0;
const voteEvent = () => {
  sequence += 1;
  return makeEvent('vote.vote.cast', VoteCast, { photoId: 1 + (sequence % 1000), userId: `voter-${sequence}`, rating: 1 + (sequence % 5), voteCount: sequence, ratingSum: sequence * 3, version: sequence }, { source: 'vote' });
};

/** When each event id reached the bus. */
function timedBus(bus: EventBus, publishedAt: Map<string, number>): EventBus {
  return {
    ...bus,
    async publish(event) {
      await bus.publish(event);
      publishedAt.set(event.id, performance.now());
    },
  };
}

async function unpublished(pool: Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(`SELECT count(*)::int AS "n" FROM "${SCHEMA}"."outbox" WHERE "published_at" IS NULL`);
  return rows[0]!.n;
}

async function drained(pool: Pool, deadlineMs = 5 * 60_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  while ((await unpublished(pool)) > 0) {
    if (Date.now() > deadline) throw new Error('The outbox did not drain in time');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

const cpuMicros = (usage: NodeJS.CpuUsage) => usage.user + usage.system;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;

async function backlogRun(pool: Pool, bus: EventBus): Promise<void> {
  const outbox = createOutbox({ db: poolSqlClient(pool), schema: SCHEMA, bus, logger });
  for (let i = 0; i < backlog; i += 500) {
    const events = Array.from({ length: Math.min(500, backlog - i) }, voteEvent);
    await inTransaction(pool, (tx) => outbox.enqueueAll(tx, events));
  }
  const cpu = process.cpuUsage();
  const started = performance.now();
  outbox.startRelay();
  outbox.nudge();
  await drained(pool);
  const elapsed = (performance.now() - started) / 1000;
  await outbox.stopRelay();
  console.log(
    `  backlog      ${backlog.toLocaleString('en')} events published in ${elapsed.toFixed(2)} s: ${Math.round(backlog / elapsed).toLocaleString('en')} events/s, ` +
      `${(cpuMicros(process.cpuUsage(cpu)) / backlog).toFixed(0)} µs of Node CPU per event`,
  );
}

async function steadyRun(pool: Pool, bus: EventBus): Promise<void> {
  const committedAt = new Map<string, number>();
  const publishedAt = new Map<string, number>();
  const relays: Outbox[] = Array.from({ length: relayCount }, () => createOutbox({ db: poolSqlClient(pool), schema: SCHEMA, bus: timedBus(bus, publishedAt), logger }));
  for (const relay of relays) relay.startRelay();
  const writer = relays[0]!;
  const commitsPerSecond = rate / perCommit;
  const started = performance.now();
  const total = Math.round(rate * seconds);
  let committed = 0;
  const writes: Promise<void>[] = [];
  // Commits on a fixed schedule, not one after the other: a slow relay shows as a growing wait, not a slower writer.
  while (committed < total) {
    const due = started + (committed / perCommit / commitsPerSecond) * 1000;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const events = Array.from({ length: Math.min(perCommit, total - committed) }, voteEvent);
    committed += events.length;
    writes.push(
      inTransaction(pool, (tx) => writer.enqueueAll(tx, events)).then(() => {
        const now = performance.now();
        for (const event of events) committedAt.set(event.id, now);
        for (const relay of relays) relay.nudge();
      }),
    );
  }
  await Promise.all(writes);
  const writtenIn = (performance.now() - started) / 1000;
  await drained(pool);
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(relays.map((relay) => relay.stopRelay()));
  const waits = [...committedAt].map(([id, at]) => (publishedAt.get(id) ?? Number.NaN) - at).sort((a, b) => a - b);
  console.log(
    `  steady       ${total.toLocaleString('en')} events at ${rate.toLocaleString('en')}/s in commits of ${perCommit}, ${relayCount} relay(s): written in ${writtenIn.toFixed(1)} s, ` +
      `all published after ${elapsed.toFixed(1)} s (${Math.round(total / elapsed).toLocaleString('en')} events/s); ` +
      `commit → publish p50 ${percentile(waits, 50).toFixed(1)} ms, p99 ${percentile(waits, 99).toFixed(1)} ms, max ${(waits.at(-1) ?? 0).toFixed(1)} ms`,
  );
}

async function main(): Promise<void> {
  console.log(`Outbox relay on PostgreSQL and NATS JetStream; load average ${load()}`);
  const database = await createTestDatabase('bench_outbox');
  const stream = await createTestStream('bench-outbox');
  const bus = await createNatsEventBus({ servers: stream.url, stream: stream.stream, subjectPrefix: stream.subjectPrefix, logger, identity: IdentityKeyring.generate() });
  const pool = openTestPool(database.url, 10);
  try {
    await createOutboxTables(database.url, SCHEMA);
    await backlogRun(pool, bus);
    await steadyRun(pool, bus);
    console.log(`Load average at the end: ${load()}`);
  } finally {
    await pool.end();
    await bus.close();
    await stream.delete();
    await database.drop();
  }
}

await main();
