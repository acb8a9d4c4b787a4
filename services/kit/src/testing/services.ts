import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as grpc from '@grpc/grpc-js';
import { startOrder } from '../index.js';
import { createMemoryEventBus, type EventBus } from '../bus/index.js';
import { createServiceClient, type ServiceClient } from '../grpc/client.js';
import { IdentityKeyring, IdentitySigner, forwardedCaller, type Caller } from '../grpc/identity.js';
import { openDatabase, type Database } from '../db.js';
import { applyMigrations } from '../migrations.js';
import { createLogger } from '../logger.js';
import type { Platform, RunningComponent, ServiceModule, ServiceName } from '../component.js';
import { createTestDatabase, type TestDatabase } from './postgres.js';

const identity = IdentityKeyring.generate();

export interface TestServices {
  platform: Platform;
  database: TestDatabase;
  dataDir: string;
  /**
   * A client of one of the services, signed as the component `as` (e.g. 'gateway'), closed at stop. `of` is the
   * service it calls: by default the last one listed, the service under test. As another component, a caller given to
   * a call is one that component was handed: it carries a fresh gateway assertion, as a forwarded caller does.
   */
  client<C extends grpc.Client>(
    Client: Parameters<typeof createServiceClient<C>>[0],
    options: { as: string; of?: ServiceName; deadlineMs?: number },
  ): ServiceClient<C>;
  /** A Prisma client on one schema of the test database, for a test's own queries and assertions; closed at stop. */
  openDatabase<P extends { $disconnect(): Promise<void> }>(PrismaClient: Parameters<typeof openDatabase<P>>[0], schema: string): Database<P>;
  /** Stops the services and removes what was made for them (not what was passed in); a second call does nothing. */
  stop(): Promise<void>;
}

/**
 * Starts `services` over real gRPC on 127.0.0.1, as the all-in-one process runs them: on a fresh test database
 * named after the last one listed (the service under test) with each one's migrations applied, an in-memory bus
 * and a temporary data directory, in dependency order, each told the addresses of those started before it.
 * A test that needs a peer stubbed lists a hand-made ServiceModule under the peer's name.
 *
 * `database`, `dataDir` and `bus` let several starts share one (a restart with other settings, a bus with other
 * options); what is passed in is left for the caller to remove.
 */
export async function startTestServices(options: {
  services: ServiceModule[];
  database?: TestDatabase;
  dataDir?: string;
  bus?: EventBus;
}): Promise<TestServices> {
  const logger = createLogger('test', (process.env.TEST_LOG_LEVEL as 'silent' | undefined) ?? 'silent');
  const underTest = options.services.at(-1)!.name;
  const cleanups: (() => Promise<void> | void)[] = [];
  const database = options.database ?? (await createTestDatabase(underTest));
  if (!options.database) cleanups.push(() => database.drop());
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), `${underTest}-data-`)));
  if (!options.dataDir) cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  const bus = options.bus ?? createMemoryEventBus({ logger });
  if (!options.bus) cleanups.push(() => bus.close());
  const platform: Platform = { nodeEnv: 'test', logger, bus, databaseUrl: database.url, dataDir, identity, addresses: {} };

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const cleanup of cleanups.reverse()) await cleanup();
  };

  try {
    for (const service of options.services) {
      if (service.database) await applyMigrations({ databaseUrl: database.url, ...service.database });
    }
    const running: RunningComponent[] = [];
    for (const service of startOrder(options.services)) {
      const component = await service.start(platform, { host: '127.0.0.1', port: 0 });
      cleanups.push(() => component.stop());
      running.push(component);
      platform.addresses[service.name] = `127.0.0.1:${component.port}`;
    }
    // Only once all have started, so that every consumer has subscribed before an outbox relay publishes.
    for (const component of running) component.activate?.();
  } catch (error) {
    await stop();
    throw error;
  }

  return {
    platform,
    database,
    dataDir,
    client(Client, { as, of = underTest, deadlineMs }) {
      const address = platform.addresses[of];
      if (!address) throw new Error(`startTestServices: no ${of} service was started`);
      const signer = as === 'gateway' ? new IdentitySigner(identity, as) : new ForwardingSigner(identity, as, new IdentitySigner(identity, 'gateway'));
      const client = createServiceClient(Client, address, { signer, peer: of, deadlineMs });
      cleanups.push(() => client.close());
      return client;
    },
    openDatabase(PrismaClient, schema) {
      const db = openDatabase(PrismaClient, { databaseUrl: database.url, schema, logger });
      cleanups.push(() => db.close());
      return db;
    },
    stop,
  };
}

/** A service's signer in a test: what it forwards for a caller is an assertion the gateway made for that caller just now. */
class ForwardingSigner extends IdentitySigner {
  constructor(
    keyring: IdentityKeyring,
    service: string,
    private readonly gateway: IdentitySigner,
  ) {
    super(keyring, service);
  }

  override userAssertion(caller: Caller | null, target: string): string | undefined {
    return caller ? super.userAssertion(forwardedCaller(this.gateway, caller, target), target) : undefined;
  }
}
