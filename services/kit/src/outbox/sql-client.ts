/**
 * The part of a Prisma client, or of the transaction client `$transaction` hands its callback, that the kit
 * needs: raw SQL with positional parameters. Structural, so every service's generated client fits.
 */
export interface SqlClient {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

export interface TransactionOptions {
  /** Longest wait for a connection, in ms. */
  maxWait?: number;
  /** Longest the transaction may run before it is rolled back, in ms. */
  timeout?: number;
}

/** A client that runs interactive transactions, handing the callback a transaction client `Tx`. */
export interface TransactionalClient<Tx extends SqlClient = SqlClient> {
  $transaction<R>(fn: (tx: Tx) => Promise<R>, options?: TransactionOptions): Promise<R>;
}

/** A Prisma client: raw SQL on its own and in interactive transactions. */
export type TransactionalSqlClient = SqlClient & TransactionalClient;

/** `"schema"."table"`, quoted so that any schema name is taken literally. */
export function qualifiedTable(schema: string, table: string): string {
  return `${quoteIdentifier(schema)}.${quoteIdentifier(table)}`;
}

export function quoteIdentifier(name: string): string {
  if (name === '') throw new Error('An SQL identifier cannot be empty');
  return `"${name.replaceAll('"', '""')}"`;
}
