import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Logger } from './logger.js';

/** Any generated Prisma client class (each service generates its own into its own package). */
type PrismaClientClass<C> = new (options: { adapter: PrismaPg; transactionOptions?: TransactionOptions }) => C;

interface TransactionOptions {
  maxWait?: number;
  timeout?: number;
}

/**
 * Prisma's defaults (2 s to get a connection, 5 s to finish) turn a burst on one hot row into errors: the
 * transactions queue for the row's lock while holding the pool's few connections. Waiting longer is what a
 * request would want; the gRPC deadline still bounds it.
 */
const TRANSACTION_OPTIONS: TransactionOptions = { maxWait: 10_000, timeout: 15_000 };

export interface Database<C> {
  prisma: C;
  /** The connection pool under the Prisma client, for the rare hot query that skips Prisma's per-call cost. */
  pool: pg.Pool;
  close(): Promise<void>;
}

/**
 * A component's Prisma client, bound to its own Postgres schema, over a pg pool this code owns: a
 * connection the server drops while idle (a restart, a failover) is logged and replaced on next use,
 * instead of crashing the process with an unhandled error. `max` keeps the many components of one
 * all-in-one process from exhausting the server's connections.
 */
export function openDatabase<C extends { $disconnect(): Promise<void> }>(
  PrismaClient: PrismaClientClass<C>,
  options: { databaseUrl: string; schema: string; logger: Logger; max?: number },
): Database<C> {
  const pool = new pg.Pool({ connectionString: options.databaseUrl, max: options.max ?? 5 });
  pool.on('error', (error) => options.logger.warn({ err: error, schema: options.schema }, 'database connection lost'));
  const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema: options.schema }), transactionOptions: TRANSACTION_OPTIONS });
  return {
    prisma,
    pool,
    async close() {
      await prisma.$disconnect();
      await pool.end();
    },
  };
}
