import { afterEach, describe, expect, it } from 'vitest';
import { PrismaClient } from './testing/prisma/generated/client.js';
import { createMemoryEventBus } from './bus/index.js';
import { IdentityKeyring } from './grpc/identity.js';
import { defineService } from './service-module.js';
import type { RunningComponent, ServiceName } from './component.js';
import { createRecordingLogger } from './testing/recording-logger.js';
import { createTestDatabase, type TestDatabase } from './testing/postgres.js';

const keys = IdentityKeyring.generate();
const running: { service: RunningComponent; database: TestDatabase }[] = [];
afterEach(async () => {
  for (const { service, database } of running.splice(0)) {
    await service.stop();
    await database.drop();
  }
});

/**
 * Runs a service named `name` on a schema without an outbox table, so a relay, had it one, would fail (and say so) on
 * every poll. Answers what its setup got when it asked for its outbox, and what was logged.
 */
async function runFor(name: ServiceName, ms: number) {
  const { logger, records } = createRecordingLogger('warn');
  const database = await createTestDatabase(`service_module_${name}`);
  const bus = createMemoryEventBus({ logger });
  let outbox: unknown;
  const module = defineService({
    name,
    database: { schema: name, migrationsDir: '/nonexistent', PrismaClient, poolSize: 2 },
    async setup(context) {
      try {
        outbox = context.outbox;
      } catch (error) {
        outbox = error;
      }
    },
  });
  const service = await module.start({ nodeEnv: 'test', logger, bus, databaseUrl: database.url, dataDir: '/tmp', identity: keys, addresses: {} }, { host: '127.0.0.1', port: 0 });
  running.push({ service, database });
  service.activate?.();
  await new Promise((resolve) => setTimeout(resolve, ms));
  return { outbox, warnings: records.filter((record) => /outbox/.test(String(record.msg))) };
}

describe('a service’s outbox relay', () => {
  it('runs for a service that owns event types', async () => {
    const { outbox, warnings } = await runFor('support', 1_500);
    expect(outbox).toMatchObject({ enqueue: expect.any(Function) });
    expect(warnings.length).toBeGreaterThan(0);
  });

  it('does not run for one that owns none, whose setup is told so when it asks for an outbox', async () => {
    const { outbox, warnings } = await runFor('storage', 1_500);
    expect(outbox).toEqual(new Error('storage owns no event types: add its events to EventTypes before it stores any'));
    expect(warnings).toEqual([]);
  });
});
