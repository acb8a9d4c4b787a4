import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger } from '@snapcracks/kit';
import { createTestDatabase, openTestPool, testDatabaseServerUrl, type TestDatabase } from '@snapcracks/kit/testing';
import { MIGRATED_DATABASES } from './databases.js';
import { runMigrationJob } from './job.js';
import { scramSha256Verifier } from './scram.js';
import { confineSchemaRoles } from './schema-roles.js';
import type { SchemaRole } from './schema-roles-config.js';

const SCHEMAS = MIGRATED_DATABASES.map((d) => d.schema);
const logger = createLogger('test', 'silent');
const databases: TestDatabase[] = [];
const createdRoles = new Set<string>();

afterEach(async () => {
  for (const database of databases.splice(0)) await database.drop();
});
// Roles belong to the server: dropped once their databases (and the grants in them) are gone.
afterAll(async () => {
  await onServer(async (client) => {
    for (const role of createdRoles) await client.query(`DROP ROLE IF EXISTS "${role}"`);
  });
});

async function freshDatabase(): Promise<TestDatabase> {
  const database = await createTestDatabase('roles');
  databases.push(database);
  return database;
}

/** A role per schema, named after the database (roles are the server's: parallel runs must not share them). */
function rolesFor(database: TestDatabase): SchemaRole[] {
  const roles = SCHEMAS.map((schema) => ({ schema, role: `${database.name}_${schema}`, password: randomBytes(18).toString('base64url') }));
  for (const r of roles) createdRoles.add(r.role);
  return roles;
}

function urlOf(database: TestDatabase, role: SchemaRole): string {
  const url = new URL(database.url);
  url.username = role.role;
  url.password = role.password;
  return url.toString();
}

type Pool = ReturnType<typeof openTestPool>;

/** One connection (a pool of one, which pg types fully) to the server or a database, closed after `work`. */
async function onServer<T>(work: (client: Pool) => Promise<T>, url = testDatabaseServerUrl()): Promise<T> {
  const pool = openTestPool(url, 1);
  try {
    return await work(pool);
  } finally {
    await pool.end();
  }
}

/** The SQLSTATE of a statement run as `role`, or 'ok'. */
async function attempt(database: TestDatabase, role: SchemaRole, sql: string): Promise<string> {
  return onServer(
    (client) =>
      client.query(sql).then(
        () => 'ok',
        (error: { code?: string }) => error.code ?? 'error',
      ),
    urlOf(database, role),
  );
}

const INSERT_OUTBOX = (schema: string) => `INSERT INTO "${schema}"."outbox" ("id", "type", "payload") VALUES (gen_random_uuid(), 'test', '\\x00')`;
const SELECT_OUTBOX = (schema: string) => `SELECT count(*) FROM "${schema}"."outbox"`;
const PERMISSION_DENIED = '42501';

/** Every role reads and writes its own schema, and is refused every other one, as well as DDL and the migrations' record. */
async function expectConfined(database: TestDatabase, roles: SchemaRole[]): Promise<void> {
  for (const role of roles) {
    const own = role.schema;
    expect(await attempt(database, role, INSERT_OUTBOX(own)), `${role.role} inserts into ${own}`).toBe('ok');
    expect(await attempt(database, role, SELECT_OUTBOX(own)), `${role.role} reads ${own}`).toBe('ok');
    expect(await attempt(database, role, `UPDATE "${own}"."outbox" SET "published_at" = now()`)).toBe('ok');
    expect(await attempt(database, role, `DELETE FROM "${own}"."processed_events"`)).toBe('ok');
    // Every table of its own schema but the migrations' record, read as the role itself.
    const tables = await onServer(
      (client) => client.query<{ name: string }>(`SELECT tablename AS "name" FROM pg_tables WHERE schemaname = $1 AND tablename <> '_migrations'`, [own]),
      database.url,
    );
    expect(tables.rows.length, own).toBeGreaterThanOrEqual(3);
    for (const { name } of tables.rows) expect(await attempt(database, role, `SELECT * FROM "${own}"."${name}" LIMIT 1`), `${own}.${name}`).toBe('ok');
    expect(await attempt(database, role, `SELECT * FROM "${own}"."_migrations"`)).toBe(PERMISSION_DENIED);
    expect(await attempt(database, role, `CREATE TABLE "${own}"."extra" ("id" int)`)).toBe(PERMISSION_DENIED);
    expect(await attempt(database, role, `CREATE TABLE public.extra ("id" int)`)).toBe(PERMISSION_DENIED);
    expect(await attempt(database, role, `DROP TABLE "${own}"."outbox"`)).toBe(PERMISSION_DENIED);
    for (const other of SCHEMAS.filter((s) => s !== own)) {
      expect(await attempt(database, role, SELECT_OUTBOX(other)), `${role.role} reads ${other}`).toBe(PERMISSION_DENIED);
      expect(await attempt(database, role, INSERT_OUTBOX(other)), `${role.role} writes ${other}`).toBe(PERMISSION_DENIED);
    }
  }
  // The auth service's users, the example, out of the storage role's reach.
  const storage = roles.find((r) => r.schema === 'storage')!;
  expect(await attempt(database, storage, `UPDATE auth.users SET "is_admin" = true`)).toBe(PERMISSION_DENIED);
}

/** PostgreSQL's stored verifier of a role, checked against `password` with its own salt and iterations. */
async function storedVerifierMatches(role: string, password: string): Promise<boolean> {
  const stored = await onServer(async (client) => (await client.query<{ v: string }>('SELECT rolpassword AS "v" FROM pg_authid WHERE rolname = $1', [role])).rows[0]?.v);
  const match = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored ?? '');
  if (!match) return false;
  return scramSha256Verifier(password, Buffer.from(match[2]!, 'base64'), Number(match[1])) === stored;
}

describe('the migration job’s roles', () => {
  it('gives each component a role that reads and writes its own schema and is refused every other', async () => {
    const database = await freshDatabase();
    const roles = rolesFor(database);
    await runMigrationJob({ databaseUrl: database.url, roles, logger });
    await expectConfined(database, roles);
  }, 120_000);

  it('runs again without complaint, and a changed password takes effect', async () => {
    const database = await freshDatabase();
    const roles = rolesFor(database);
    await runMigrationJob({ databaseUrl: database.url, roles, logger });
    const rotated = roles.map((r) => ({ ...r, password: randomBytes(18).toString('base64url') }));
    await runMigrationJob({ databaseUrl: database.url, roles: rotated, logger });
    await runMigrationJob({ databaseUrl: database.url, roles: rotated, logger });
    for (const role of rotated) expect(await storedVerifierMatches(role.role, role.password), role.role).toBe(true);
    expect(await storedVerifierMatches(roles[0]!.role, roles[0]!.password)).toBe(false);
    await expectConfined(database, rotated);
  }, 120_000);

  it('takes over a database migrated the old way (one admin role owning everything, with data) and keeps the data', async () => {
    const database = await freshDatabase();
    // The old job: migrations only, as the admin, then rows written through the admin's connection string.
    for (const d of MIGRATED_DATABASES) await applyMigrations({ databaseUrl: database.url, ...d });
    await onServer(async (client) => {
      await client.query(`INSERT INTO auth.users ("id", "oidc_subject", "email", "updated_at") VALUES ('u-1', 'issuer|1', 'old@example.com', now())`);
      await client.query(`INSERT INTO support.contact_forms ("name", "email", "subject", "message", "updated_at") VALUES ('Sam', 'sam@example.com', 'Hi', 'Hello', now())`);
      for (const schema of SCHEMAS) await client.query(INSERT_OUTBOX(schema));
    }, database.url);
    const roles = rolesFor(database);
    await runMigrationJob({ databaseUrl: database.url, roles, logger });
    const as = (schema: string) => urlOf(database, roles.find((r) => r.schema === schema)!);
    expect(await onServer(async (c) => (await c.query('SELECT "email" FROM auth.users')).rows, as('auth'))).toEqual([{ email: 'old@example.com' }]);
    // A new row takes the sequence's next id after the old one: the role may use its schema's sequences.
    const support = await onServer(async (c) => {
      await c.query(`INSERT INTO support.contact_forms ("name", "email", "subject", "message", "updated_at") VALUES ('Ann', 'ann@example.com', 'Hi', 'Again', now())`);
      return (await c.query('SELECT "id", "name" FROM support.contact_forms ORDER BY "id"')).rows;
    }, as('support'));
    expect(support).toEqual([
      { id: 1, name: 'Sam' },
      { id: 2, name: 'Ann' },
    ]);
    for (const schema of SCHEMAS) expect(await onServer(async (c) => (await c.query(SELECT_OUTBOX(schema))).rows[0].count, as(schema)), schema).toBe('1');
    await expectConfined(database, roles);
  }, 120_000);

  it('gives the tables a later migration adds to the component too', async () => {
    const database = await freshDatabase();
    const roles = rolesFor(database);
    await runMigrationJob({ databaseUrl: database.url, roles, logger });
    // The admin creates a table as a migration would, before the job has run again: default privileges cover it.
    await onServer((c) => c.query('CREATE TABLE vote.later ("id" serial PRIMARY KEY, "note" text)'), database.url);
    const vote = roles.find((r) => r.schema === 'vote')!;
    expect(await attempt(database, vote, `INSERT INTO vote.later ("note") VALUES ('x')`)).toBe('ok');
    expect(await attempt(database, roles.find((r) => r.schema === 'photo')!, 'SELECT * FROM vote.later')).toBe(PERMISSION_DENIED);
  }, 120_000);

  it('sends the verifier PostgreSQL itself makes from the password', async () => {
    const role = `${(await freshDatabase()).name}_verifier`;
    createdRoles.add(role);
    // PostgreSQL hashes a clear password itself here; the job's verifier, with the same salt, must be byte for byte the same.
    await onServer(async (c) => {
      await c.query(`SET password_encryption = 'scram-sha-256'`);
      await c.query(`CREATE ROLE "${role}" LOGIN PASSWORD 'correct horse battery staple'`);
    });
    expect(await storedVerifierMatches(role, 'correct horse battery staple')).toBe(true);
    expect(await storedVerifierMatches(role, 'correct horse battery stapler')).toBe(false);
  });

  it('refuses a role that no grant confines, and changes nothing', async () => {
    const database = await freshDatabase();
    const roles = rolesFor(database);
    const wide = roles.find((r) => r.schema === 'storage')!;
    await onServer((c) => c.query(`CREATE ROLE "${wide.role}" LOGIN BYPASSRLS`));
    await expect(runMigrationJob({ databaseUrl: database.url, roles, logger })).rejects.toThrow(new RegExp(`${wide.role} \\(storage\\) exists with BYPASSRLS`));
    const created = await onServer(async (c) => (await c.query('SELECT rolname FROM pg_roles WHERE rolname = ANY($1::text[])', [roles.map((r) => r.role)])).rows);
    expect(created).toEqual([{ rolname: wide.role }]);
  }, 120_000);

  it('fails, naming the tables, when the admin does not own what it must grant', async () => {
    const database = await freshDatabase();
    const [admin] = rolesFor(database).map((r) => ({ ...r, role: `${r.role}_admin` }));
    createdRoles.add(admin!.role);
    await onServer((c) => c.query(`CREATE ROLE "${admin!.role}" LOGIN CREATEROLE`));
    for (const d of MIGRATED_DATABASES) await applyMigrations({ databaseUrl: database.url, ...d });
    await onServer(async (c) => {
      for (const schema of SCHEMAS) await c.query(`GRANT USAGE, CREATE ON SCHEMA "${schema}" TO "${admin!.role}"`);
    }, database.url);
    const roles = rolesFor(database).map((r) => ({ ...r, role: `${r.role}_x` }));
    for (const r of roles) createdRoles.add(r.role);
    await expect(confineSchemaRoles({ databaseUrl: urlOf(database, admin!), roles, schemas: SCHEMAS, logger })).rejects.toThrow(/role the migrations ran as \(.*_admin\) does not own schema auth, schema gateway, .* and \d+ more: it must own .* or be a superuser/);
  }, 120_000);
});
