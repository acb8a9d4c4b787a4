import type pg from 'pg';
import type { SqlClient } from './sql-client.js';

/*
 * The kit's SqlClient on node-postgres, for hot paths where Prisma's per-call cost matters (docs/PERFORMANCE.md,
 * Hot paths): an interactive Prisma transaction costs several times the same statements on the pool. Values come back as
 * pg gives them: bigint and numeric columns as strings, not BigInt.
 */

/** A statement with its values, sent as a prepared statement (named after its text, as every statement here). */
export interface Statement {
  text: string;
  values: unknown[];
}

/** A transaction on one pooled connection: the kit's SqlClient, and the connection for pg's own API. */
export interface PgTransaction extends SqlClient {
  readonly client: pg.PoolClient;
  /**
   * The transaction's last call: sends `statements` and COMMIT in one write and answers the statements' results once
   * all have answered. On a pipelining connection (every kit pool) that is one round trip instead of two. When a
   * statement fails, PostgreSQL turns the COMMIT into a rollback and this rejects with that statement's error.
   */
  commitWith(...statements: Statement[]): Promise<pg.QueryResult[]>;
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
 * Sends `queries` on one connection in one write and waits until every one has answered: on a pipelining client (every
 * kit pool, `pipeline: true`) they cost one round trip; PostgreSQL still runs them in order, each on its own. Rejects
 * with the first failure, once the connection is idle again (so the caller may roll back). On a client that does not
 * pipeline they simply run one after the other.
 */
export async function sendTogether(client: pg.ClientBase, queries: (string | pg.QueryConfig)[]): Promise<pg.QueryResult[]> {
  const settled = await Promise.allSettled(corked(client, () => queries.map((q) => client.query(q))));
  const failed = settled.find((outcome) => outcome.status === 'rejected');
  if (failed) throw failed.reason;
  return settled.map((outcome) => (outcome as PromiseFulfilledResult<pg.QueryResult>).value);
}

/** What `send` writes to the connection's socket goes out in one write (pg writes each statement as it is queued). */
function corked<T>(client: pg.ClientBase, send: () => T): T {
  const stream = (client as unknown as { connection?: { stream?: { cork?(): void; uncork?(): void } } }).connection?.stream;
  stream?.cork?.();
  try {
    return send();
  } finally {
    stream?.uncork?.();
  }
}

const named = ({ text, values }: Statement): pg.QueryConfig => ({ name: statementName(text), text, values });

/**
 * Runs `work` in a transaction on one pooled connection: BEGIN, the work, COMMIT (or the work's own commitWith);
 * ROLLBACK when it throws. On a pipelining connection BEGIN goes out in one write with the work's first statement
 * (sent before its first await) rather than in a round trip of its own: should BEGIN fail, so does what follows it on
 * the connection (a broken connection, or one still inside a failed transaction). A connection that cannot even roll
 * back is dropped from the pool rather than handed out again.
 */
export async function inTransaction<R>(pool: pg.Pool, work: (tx: PgTransaction) => Promise<R>): Promise<R> {
  const client = await pool.connect();
  let broken: Error | undefined;
  let committed = false;
  const tx: PgTransaction = {
    ...poolSqlClient(client),
    client,
    async commitWith(...statements) {
      committed = true;
      return (await sendTogether(client, [...statements.map(named), 'COMMIT'])).slice(0, -1);
    },
  };
  try {
    const [begun, working] = corked(client, () => [client.query('BEGIN').then(noFailure, (error: unknown) => error), work(tx)] as const);
    const result = await working.finally(() => begun);
    const beginFailure = await begun;
    if (beginFailure !== undefined) throw beginFailure;
    if (!committed) await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError));
    throw error;
  } finally {
    client.release(broken);
  }
}

const noFailure = (): undefined => undefined;
