import type pg from 'pg';
import type { SqlClient } from './sql-client.js';

/*
 * The kit's SqlClient on node-postgres, for hot paths where Prisma's per-call cost matters (docs/PERFORMANCE.md,
 * Hot paths): an interactive Prisma transaction costs several times the same statements on the pool. Values come back as
 * pg gives them: bigint and numeric columns as strings, not BigInt.
 */

/** A transaction on one pooled connection: the kit's SqlClient, and the connection for pg's own API. */
export interface PgTransaction extends SqlClient {
  readonly client: pg.PoolClient;
}

/**
 * Each distinct statement text gets a name, so pg prepares it once per connection and then only binds and executes
 * it: parsing and planning a statement again on every call is most of its cost on a hot path. The texts come from
 * code, so there are few; past the cap (a statement built from data would be a bug) they run unnamed.
 */
const MAX_PREPARED = 500;
const statementNames = new Map<string, string>();

function statementName(text: string): string | undefined {
  let name = statementNames.get(text);
  if (name === undefined && statementNames.size < MAX_PREPARED) {
    name = `kit_${statementNames.size}`;
    statementNames.set(text, name);
  }
  return name;
}

function query(db: pg.Pool | pg.PoolClient, text: string, values: unknown[]): Promise<pg.QueryResult> {
  return db.query({ name: statementName(text), text, values });
}

/** Statements on the pool, each on whichever connection is free (not a transaction). */
export function poolSqlClient(db: pg.Pool | pg.PoolClient): SqlClient {
  return {
    $executeRawUnsafe: async (text, ...values) => (await query(db, text, values)).rowCount ?? 0,
    $queryRawUnsafe: async <T>(text: string, ...values: unknown[]) => (await query(db, text, values)).rows as T,
  };
}

/**
 * Runs `work` in a transaction on one pooled connection: BEGIN, the work, COMMIT; ROLLBACK when it throws. A
 * connection that cannot even roll back is dropped from the pool rather than handed out again.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (tx: PgTransaction) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  try {
    await client.query('BEGIN');
    const result = await work({ ...poolSqlClient(client), client });
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}
