import pg from 'pg';
import { PrismaPg } from '@prisma/adapter-pg';
import type { Logger } from './logger.js';
import { instrumentPool } from './metrics/pg.js';

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
 * How a component's connections behave, from the process's configuration (databaseSettings in config.ts). Each
 * process reads it once and hands it to its components through the platform.
 */
export interface DatabaseSettings {
  /** DATABASE_POOL_MAX: connections of the component's pool; absent, each component's own default. */
  poolMax?: number | undefined;
  /** DATABASE_CONNECT_TIMEOUT_MS: a connection not made by then fails the query instead of waiting on a dead server. */
  connectTimeoutMs: number;
  /** DATABASE_STATEMENT_TIMEOUT_MS: the server cancels a statement running longer (0: no limit). */
  statementTimeoutMs: number;
  /**
   * DATABASE_DIRECT_URL: PostgreSQL itself, not a pooler in transaction mode, for what holds a session advisory lock
   * (migrations, the stats rebuild, the medium backfill); absent, the database URL.
   */
  directUrl?: string | undefined;
}

export const DEFAULT_DATABASE_SETTINGS: DatabaseSettings = { connectTimeoutMs: 5_000, statementTimeoutMs: 30_000 };

/** An idle connection is closed after this long: the pool shrinks back after a burst, and PostgreSQL's slots come free. */
const IDLE_TIMEOUT_MS = 30_000;

/** The pg pool options every pool of a component gets: its name in pg_stat_activity and its timeouts. */
export function poolOptions(options: { connectionString: string; component: string; max: number; settings?: Partial<DatabaseSettings> | undefined }): pg.PoolConfig {
  const settings = { ...DEFAULT_DATABASE_SETTINGS, ...options.settings };
  return {
    connectionString: options.connectionString,
    max: options.max,
    application_name: `snapcracks-${options.component}`,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    // A statement is sent as soon as it is queued, not after the one before has answered: code that awaits each one
    // behaves as before, and a transaction's BEGIN and first statement, or last statement and COMMIT, share a round
    // trip (inTransaction, sendTogether).
    pipeline: true,
    idleTimeoutMillis: IDLE_TIMEOUT_MS,
    // Sent at connection start; 0 sends nothing, leaving the server's (or the role's) setting.
    ...(settings.statementTimeoutMs > 0 ? { statement_timeout: settings.statementTimeoutMs } : {}),
  };
}

/**
 * A component's Prisma client, bound to its own Postgres schema, over a pg pool this code owns: a
 * connection the server drops while idle (a restart, a failover) is logged and replaced on next use,
 * instead of crashing the process with an unhandled error. `max` keeps the many components of one
 * all-in-one process from exhausting the server's connections; `settings.poolMax`, when given, wins over it.
 */
export function openDatabase<C extends { $disconnect(): Promise<void> }>(
  PrismaClient: PrismaClientClass<C>,
  options: { databaseUrl: string; schema: string; logger: Logger; max?: number; component?: string; settings?: Partial<DatabaseSettings> | undefined },
): Database<C> {
  const max = options.settings?.poolMax ?? options.max ?? 5;
  const pool = new pg.Pool(poolOptions({ connectionString: options.databaseUrl, component: options.component ?? options.schema, max, settings: options.settings }));
  pool.on('error', (error) => options.logger.warn({ err: error, schema: options.schema }, 'database connection lost'));
  instrumentPool(pool, { component: options.component ?? options.schema, schema: options.schema });
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

/**
 * One connection straight to PostgreSQL (DATABASE_DIRECT_URL), opened when first used, for work that holds a session
 * advisory lock or runs statements longer than the pool's statement timeout allows: no statement timeout on it. Its
 * connection closes once idle, so it costs a connection only while that work runs.
 */
export function openDirectPool(options: { databaseUrl: string; component: string; logger: Logger; settings?: Partial<DatabaseSettings> | undefined }): pg.Pool {
  const pool = new pg.Pool(
    poolOptions({
      connectionString: options.settings?.directUrl ?? options.databaseUrl,
      component: `${options.component}-direct`,
      max: 1,
      settings: { ...options.settings, statementTimeoutMs: 0 },
    }),
  );
  pool.on('error', (error) => options.logger.warn({ err: error, component: options.component }, 'direct database connection lost'));
  return pool;
}
