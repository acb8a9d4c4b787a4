export { createOutbox, type Outbox, type OutboxOptions } from './outbox.js';
export type { OutboxRelayOptions } from './outbox-relay.js';
export { consumeIdempotently, type IdempotentConsumption } from './consume-idempotently.js';
export { createBatchConsumer, type BatchConsumption, type BatchStatement } from './consume-batch.js';
export { inTransaction, poolSqlClient, sendTogether, type PgTransaction, type Statement } from './pg-sql-client.js';
export type { SqlClient, TransactionalClient, TransactionalSqlClient, TransactionOptions } from './sql-client.js';
