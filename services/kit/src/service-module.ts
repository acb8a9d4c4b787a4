import type { PrismaPg } from '@prisma/adapter-pg';
import { openDatabase } from './db.js';
import { GrpcServer } from './grpc/server.js';
import { IdentitySigner } from './grpc/identity.js';
import { createOutbox, type Outbox, type TransactionalSqlClient } from './outbox/index.js';
import type { Platform, ServiceModule, ServiceName } from './component.js';
import type { Logger } from './logger.js';

/** A generated Prisma client: the outbox writes through its transactions, and it disconnects at stop. */
type ServicePrismaClient = TransactionalSqlClient & { $disconnect(): Promise<void> };

export interface ServiceSetup<P> {
  platform: Platform;
  logger: Logger;
  server: GrpcServer;
  /** The service's Prisma client, bound to its own schema. */
  prisma: P;
  outbox: Outbox;
}

/**
 * The one place a service's process wiring lives: its Prisma client on its own schema, its outbox relay,
 * its gRPC server with health and identity, and an orderly stop. A service only registers its handlers
 * and consumers in `setup`.
 */
export function defineService<P extends ServicePrismaClient>(spec: {
  name: ServiceName;
  dependsOn?: ServiceName[];
  database: { schema: string; migrationsDir: string; PrismaClient: new (options: { adapter: PrismaPg }) => P };
  setup(context: ServiceSetup<P>): Promise<{ stop?(): Promise<void> } | void>;
}): ServiceModule {
  const { name, database } = spec;
  return {
    name,
    dependsOn: spec.dependsOn ?? [],
    database: { schema: database.schema, migrationsDir: database.migrationsDir },
    async start(platform, listen) {
      const logger = platform.logger.child({ component: name });
      const db = openDatabase(database.PrismaClient, { databaseUrl: platform.databaseUrl, schema: database.schema, logger });
      const { prisma } = db;
      const outbox = createOutbox({ prisma, schema: database.schema, bus: platform.bus, logger });
      const server = new GrpcServer({ name, signer: new IdentitySigner(platform.identitySecret, name), logger });
      const extra = (await spec.setup({ platform, logger, server, prisma, outbox })) ?? {};
      outbox.startRelay();
      const port = await server.start(listen.host, listen.port);
      return {
        port,
        async stop() {
          await server.shutdown();
          await extra.stop?.();
          await outbox.stopRelay();
          await db.close();
        },
      };
    },
  };
}
