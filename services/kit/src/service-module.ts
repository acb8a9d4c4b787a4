import type * as grpc from '@grpc/grpc-js';
import type pg from 'pg';
import type { PrismaPg } from '@prisma/adapter-pg';
import { openDatabase, openDirectPool } from './db.js';
import { GrpcServer } from './grpc/server.js';
import { IdentitySigner } from './grpc/identity.js';
import { createServiceClient, type ServiceClient } from './grpc/client.js';
import {
  consumeIdempotently,
  createBatchConsumer,
  createOutbox,
  poolSqlClient,
  type BatchStatement,
  type Outbox,
  type PgTransaction,
  type SqlClient,
  type TransactionalClient,
  type TransactionalSqlClient,
} from './outbox/index.js';
import { EventTypes, decodeEventOfType, type DecodedEvent, type EventType } from './bus/event-types.js';
import type { Subscription } from './bus/event-bus.js';
import type { Envelope } from '@snapcracks/proto/events/v1';
import { SERVICE_PEERS } from './call-graph.js';
import { peerAddress, type Platform, type ServiceModule, type ServiceName } from './component.js';
import type { Logger } from './logger.js';

/** A generated Prisma client: the outbox writes through its transactions, and it disconnects at stop. */
type ServicePrismaClient = TransactionalSqlClient & { $disconnect(): Promise<void> };

/** A ts-proto grpc-js client class, e.g. StorageServiceClient. */
type GeneratedClientClass<C extends grpc.Client> = (new (address: string, credentials: grpc.ChannelCredentials, options?: Partial<grpc.ClientOptions>) => C) & {
  service: grpc.ServiceDefinition;
};

/** The transaction client a Prisma client hands its `$transaction` callback. */
type TransactionOf<P> = P extends TransactionalClient<infer Tx> ? Tx : SqlClient;

export interface ServiceSetup<P> {
  platform: Platform;
  logger: Logger;
  server: GrpcServer;
  /** The service's Prisma client, bound to its own schema. */
  prisma: P;
  /** The connection pool under it, for a hot path where Prisma's per-call cost matters (raw SQL; name the schema). */
  pool: pg.Pool;
  /**
   * One connection straight to PostgreSQL (DATABASE_DIRECT_URL), opened on first use, without the pool's statement
   * timeout: for a session advisory lock (a pooler in transaction mode would hand the session to others) and the long
   * statements of a rebuild. Closed when the service stops.
   */
  directPool(): pg.Pool;
  /** Only for a service that owns event types (EventTypes): the others publish nothing and run no relay. */
  outbox: Outbox;
  /**
   * A client for one of its peers in SERVICE_PEERS, e.g. `connect('storage', StorageServiceClient)`: deadlines, trace
   * context and this service's signed identity on every call; closed when the service stops.
   */
  connect<C extends grpc.Client>(peer: ServiceName, Client: GeneratedClientClass<C>): ServiceClient<C>;
  /**
   * Reacts to events of `types`. Each event is handled once by this consumer however often the bus delivers
   * it: `handle` runs in a transaction that also records the event id, so a redelivery changes nothing.
   * Throwing makes the bus deliver it again later, up to the retry policy's last delivery, after which it becomes a
   * dead letter. Every replica subscribes under one durable name, so an event is handled by one of them.
   */
  consume<T extends EventType>(name: string, types: readonly T[], handle: (event: DecodedEvent<T>, tx: TransactionOf<P>) => Promise<void>): void;
  /**
   * `consume` for a busy consumer: on the pool instead of Prisma, many events per transaction (createBatchConsumer).
   * `handle` gets the events of a batch not handled before, each once, and the transaction that records them (raw SQL);
   * a batch that fails is handled again one event per transaction, so a bad event fails alone. Events arrive up to
   * `2 × maxBatch` at once, in no guaranteed order, so this suits events that carry state with a version. Batches of
   * replicas run at once: write a batch's rows in one fixed order (sorted by key) so that they cannot deadlock.
   */
  consumeBatches<T extends EventType>(
    name: string,
    types: readonly T[],
    handle: (events: DecodedEvent<T>[], tx: PgTransaction) => Promise<void>,
    options?: BatchOptions,
  ): void;
  /**
   * `consumeBatches` for a reaction that fits one statement: no transaction around it, one round trip a batch
   * (BatchInOneStatement). `deduplicate` for a statement that is not idempotent by itself: it then reads the batch's
   * ids not handled before from `"recorded"("event_id")`.
   */
  consumeBatchesInOneStatement<T extends EventType>(
    name: string,
    types: readonly T[],
    statementOf: (events: DecodedEvent<T>[]) => BatchStatement | null,
    options: BatchOptions & { deduplicate: boolean },
  ): void;
}

interface BatchOptions {
  maxBatch?: number;
}

/** Events per transaction of a batch consumer: past a few dozen, the per-batch costs it spreads are already small. */
const DEFAULT_MAX_BATCH = 64;

/**
 * The one place a service's process wiring lives: its Prisma client on its own schema, its outbox relay,
 * its clients for the peers it calls, its event consumers, its gRPC server with health and identity, and an
 * orderly stop. A service only registers its handlers and consumers in `setup`.
 */
export function defineService<P extends ServicePrismaClient>(spec: {
  name: ServiceName;
  /** `poolSize`: connections for this service (5 by default; DATABASE_POOL_MAX wins); a hot path may want more. */
  database: { schema: string; migrationsDir: string; PrismaClient: new (options: { adapter: PrismaPg; transactionOptions?: { maxWait?: number; timeout?: number } }) => P; poolSize?: number };
  setup(context: ServiceSetup<P>): Promise<{ stop?(): Promise<void> } | void>;
}): ServiceModule {
  const { name, database } = spec;
  const peers: readonly ServiceName[] = SERVICE_PEERS[name];
  // The owner of an event type is its first segment (EventTypes groups them so); a service that owns none publishes
  // nothing, and an outbox relay would only poll an empty table.
  const publishes = Object.hasOwn(EventTypes, name);
  return {
    name,
    database: { schema: database.schema, migrationsDir: database.migrationsDir },
    async start(platform, listen) {
      const logger = platform.logger.child({ component: name });
      const db = openDatabase(database.PrismaClient, {
        databaseUrl: platform.databaseUrl,
        schema: database.schema,
        component: name,
        logger,
        max: database.poolSize,
        settings: platform.database,
      });
      let direct: pg.Pool | undefined;
      const directPool = () => (direct ??= openDirectPool({ databaseUrl: platform.databaseUrl, component: name, logger, settings: platform.database }));
      const { prisma } = db;
      // The relay's claims and marks are single statements on the pool: a vote's event is claimed and marked like any other.
      const outbox = publishes ? createOutbox({ db: poolSqlClient(db.pool), schema: database.schema, bus: platform.bus, logger }) : undefined;
      // A reaction may store events of its own (a notification, a recount): they leave once its transaction commits,
      // not at the relay's next poll.
      const nudgeOutbox = () => outbox?.nudge();
      const signer = new IdentitySigner(platform.identity, name);
      const server = new GrpcServer({ name, signer, logger, ...(platform.grpcMaxConnectionAgeMs ? { maxConnectionAgeMs: platform.grpcMaxConnectionAgeMs } : {}) });
      const clients: ServiceClient<grpc.Client>[] = [];
      const connect = <C extends grpc.Client>(peer: ServiceName, Client: GeneratedClientClass<C>): ServiceClient<C> => {
        if (!peers.includes(peer)) throw new Error(`${name}: add "${peer}" to its peers in SERVICE_PEERS before connecting to it`);
        const client = createServiceClient(Client, peerAddress(platform, peer), { signer, peer });
        clients.push(client as unknown as ServiceClient<grpc.Client>);
        return client;
      };

      const consumers: { name: string; types: readonly EventType[]; handle: (event: DecodedEvent, tx: TransactionOf<P>) => Promise<void> }[] = [];
      const consume: ServiceSetup<P>['consume'] = (consumer, types, handle) => {
        consumers.push({ name: consumer, types, handle: handle as (event: DecodedEvent, tx: TransactionOf<P>) => Promise<void> });
      };
      type Reaction =
        | { handle: (events: DecodedEvent[], tx: PgTransaction) => Promise<void> }
        | { statementOf: (events: DecodedEvent[]) => BatchStatement | null; deduplicate: boolean };
      const batchConsumers: { name: string; types: readonly EventType[]; options: BatchOptions; reaction: Reaction }[] = [];
      const consumeBatches: ServiceSetup<P>['consumeBatches'] = (consumer, types, handle, options = {}) => {
        batchConsumers.push({ name: consumer, types, options, reaction: { handle: handle as (events: DecodedEvent[], tx: PgTransaction) => Promise<void> } });
      };
      const consumeBatchesInOneStatement: ServiceSetup<P>['consumeBatchesInOneStatement'] = (consumer, types, statementOf, options) => {
        const reaction = { statementOf: statementOf as (events: DecodedEvent[]) => BatchStatement | null, deduplicate: options.deduplicate };
        batchConsumers.push({ name: consumer, types, options, reaction });
      };

      const extra =
        (await spec.setup({
          platform,
          logger,
          server,
          prisma,
          pool: db.pool,
          directPool,
          get outbox(): Outbox {
            if (!outbox) throw new Error(`${name} owns no event types: add its events to EventTypes before it stores any`);
            return outbox;
          },
          connect,
          consume,
          consumeBatches,
          consumeBatchesInOneStatement,
        })) ?? {};
      const subscriptions: Subscription[] = [];
      for (const consumer of consumers) {
        const consumerName = `${name}.${consumer.name}`;
        subscriptions.push(
          await platform.bus.subscribe(
            (envelope) =>
              consumeIdempotently({
                prisma: prisma as unknown as TransactionalClient<TransactionOf<P>>,
                schema: database.schema,
                consumer: consumerName,
                event: envelope,
                handle: (tx) => consumer.handle(decodeEventOfType(envelope, consumer.types), tx),
              }).then((handled) => {
                if (handled) nudgeOutbox();
              }),
            { durable: `${name}-${consumer.name}`, types: [...consumer.types] },
          ),
        );
      }
      for (const { name: consumerName, types, options, reaction } of batchConsumers) {
        const { maxBatch = DEFAULT_MAX_BATCH } = options;
        const decode = (envelope: Envelope) => decodeEventOfType(envelope, types);
        const handle = createBatchConsumer({
          pool: db.pool,
          schema: database.schema,
          consumer: `${name}.${consumerName}`,
          maxBatch,
          afterCommit: nudgeOutbox,
          logger,
          ...('handle' in reaction
            ? { handle: (envelopes: Envelope[], tx: PgTransaction) => reaction.handle(envelopes.map(decode), tx) }
            : { statementOf: (envelopes: Envelope[]) => reaction.statementOf(envelopes.map(decode)), deduplicate: reaction.deduplicate }),
        });
        // Twice a batch in flight: the next batch gathers while one commits.
        const subscription = { durable: `${name}-${consumerName}`, types: [...types], concurrency: 2 * maxBatch };
        subscriptions.push(await platform.bus.subscribe(handle, subscription));
      }
      const port = await server.start(listen.host, listen.port);
      return {
        port,
        activate: () => outbox?.startRelay(),
        async stop() {
          await server.shutdown();
          await Promise.all(subscriptions.map((subscription) => subscription.close()));
          await extra.stop?.();
          await outbox?.stopRelay();
          for (const client of clients) client.close();
          await direct?.end();
          await db.close();
        },
      };
    },
  };
}
