import pg from 'pg';
import { quoteIdentifier } from '../outbox/sql-client.js';
import { uniqueTestName } from './unique-name.js';

export interface TestDatabase {
  name: string;
  /** Connection URL of the new database. */
  url: string;
  /** Drops the database, disconnecting whoever is still connected. */
  drop(): Promise<void>;
}

/** The server tests create their databases on: `TEST_DATABASE_URL`, else the machine's local PostgreSQL. */
export function testDatabaseServerUrl(): string {
  return process.env.TEST_DATABASE_URL ?? 'postgresql://postgres@127.0.0.1:5432/postgres';
}

async function onServer(query: string): Promise<void> {
  const client = new pg.Client({ connectionString: testDatabaseServerUrl() });
  await client.connect();
  try {
    await client.query(query);
  } finally {
    await client.end();
  }
}

/** A fresh, uniquely named database, so parallel test runs never see each other's rows. */
export async function createTestDatabase(prefix: string): Promise<TestDatabase> {
  const name = uniqueTestName(prefix);
  await onServer(`CREATE DATABASE ${quoteIdentifier(name)}`);
  const url = new URL(testDatabaseServerUrl());
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => onServer(`DROP DATABASE IF EXISTS ${quoteIdentifier(name)} WITH (FORCE)`),
  };
}

/**
 * A pg pool for a test's own queries. pool.end() resolves before its connections have closed, and dropping the
 * database then terminates them (57P01): without a listener the pool would raise that as an uncaught error. The
 * services' pools log it instead (db.ts).
 */
export function openTestPool(url: string, max = 4): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max });
  pool.on('error', () => undefined);
  return pool;
}
