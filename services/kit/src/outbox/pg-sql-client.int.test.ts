import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { poolOptions } from '../db.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres.js';
import { inTransaction, sendTogether } from './pg-sql-client.js';

let database: TestDatabase;
let pool: pg.Pool;
/** Writes to the socket of the pool's one connection. */
let writes = 0;

beforeAll(async () => {
  database = await createTestDatabase('pg_sql_client');
  // The kit's own pool settings (pipelining), with one connection so every transaction uses the one watched here.
  pool = new pg.Pool(poolOptions({ connectionString: database.url, component: 'test', max: 1 }));
  pool.on('error', () => undefined);
  const client = await pool.connect();
  const socket = (client as unknown as { connection: { stream: { _write: (...a: unknown[]) => void; _writev: (...a: unknown[]) => void } } }).connection.stream;
  for (const method of ['_write', '_writev'] as const) {
    const original = socket[method].bind(socket);
    socket[method] = (...args: unknown[]) => {
      writes += 1;
      original(...args);
    };
  }
  await client.query('CREATE TABLE t (x int NOT NULL)');
  client.release();
});
afterAll(async () => {
  await pool?.end();
  await database?.drop();
});
beforeEach(async () => {
  await pool.query('TRUNCATE t');
  writes = 0;
});

const values = async () => (await pool.query<{ x: number }>('SELECT x FROM t ORDER BY x')).rows.map((r) => r.x);

describe('inTransaction on a pipelining pool', () => {
  it('sends BEGIN with the first statement and COMMIT with the last: two writes for a transaction of two statements', async () => {
    const answer = await inTransaction(pool, async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', 1);
      const [inserted] = await tx.commitWith({ text: 'INSERT INTO t VALUES ($1), ($2) RETURNING x', values: [2, 3] });
      return inserted!.rows;
    });
    expect(writes).toBe(2);
    expect(answer).toEqual([{ x: 2 }, { x: 3 }]);
    expect(await values()).toEqual([1, 2, 3]);
  });

  it('commits on its own when the work does not call commitWith', async () => {
    await inTransaction(pool, async (tx) => void (await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', 4)));
    expect(await values()).toEqual([4]);
  });

  it('rolls everything back when a statement sent with COMMIT fails, rejects with its error and leaves the connection idle', async () => {
    const failing = inTransaction(pool, async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', 1);
      await tx.commitWith({ text: 'INSERT INTO t VALUES ($1)', values: [null] });
    });
    await expect(failing).rejects.toMatchObject({ code: '23502' });
    expect(await values()).toEqual([]);
    await inTransaction(pool, async (tx) => void (await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', 5)));
    expect(await values()).toEqual([5]);
  });

  it('rolls back when the first statement, sent with BEGIN, fails', async () => {
    const failing = inTransaction(pool, async (tx) => {
      await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', null);
    });
    await expect(failing).rejects.toMatchObject({ code: '23502' });
    await inTransaction(pool, async (tx) => void (await tx.$executeRawUnsafe('INSERT INTO t VALUES ($1)', 6)));
    expect(await values()).toEqual([6]);
  });
});

describe('sendTogether', () => {
  it('answers each statement in its order, from one write', async () => {
    const client = await pool.connect();
    try {
      writes = 0;
      const results = await sendTogether(client, ['SELECT 1 AS a', { text: 'SELECT $1::int AS b', values: [2] }]);
      expect(results.map((r) => r.rows)).toEqual([[{ a: 1 }], [{ b: 2 }]]);
      expect(writes).toBe(1);
    } finally {
      client.release();
    }
  });

  it('rejects with the first failure once every statement has answered', async () => {
    const client = await pool.connect();
    try {
      await expect(sendTogether(client, ['SELECT 1', 'SELECT 1/0', 'INSERT INTO t VALUES (7)'])).rejects.toMatchObject({ code: '22012' });
      // Each statement is answered on its own: the one after the failure still ran.
      expect((await client.query('SELECT x FROM t')).rows).toEqual([{ x: 7 }]);
      expect((await client.query('SELECT 2 AS ok')).rows).toEqual([{ ok: 2 }]);
    } finally {
      client.release();
    }
  });
});
