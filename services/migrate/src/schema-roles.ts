import { openDirectPool, quoteIdent, type Logger } from '@snapcracks/kit';
import { scramSha256Verifier } from './scram.js';
import type { SchemaRole } from './schema-roles-config.js';

/** What this module needs of a pg client (the kit's pool hands one; this package does not depend on pg itself). */
interface Client {
  query<R = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<{ rows: R[]; rowCount: number | null }>;
  escapeLiteral(value: string): string;
}

/** What a component does with its own tables and sequences, and nothing more: no DDL, no TRUNCATE, no triggers. */
const TABLE_RIGHTS = 'SELECT, INSERT, UPDATE, DELETE';
const SEQUENCE_RIGHTS = 'USAGE, SELECT';
/** The migration runner's own record (kit/migrations.ts): the components have no business with it. */
const MIGRATIONS_TABLE = '_migrations';
/** Role attributes that reach past any grant. */
const UNCONFINED = ['rolsuper', 'rolbypassrls', 'rolcreaterole', 'rolreplication'] as const;

/**
 * Gives each component its own login role, confined to the schema it owns, on the database the migrations just ran
 * on, as the role the migrations ran as (the admin, who owns every schema and table and keeps doing the DDL):
 * - the role is created, or its password set again (a changed URL takes effect; SCRAM verifier only, see scram.ts);
 * - on its own schema: USAGE, and SELECT/INSERT/UPDATE/DELETE on every table and USAGE/SELECT on every sequence,
 *   now and, through default privileges, on what the admin creates there later; not the migrations' record;
 * - on every other schema of the product: everything revoked (a role moved from one component to another loses the
 *   old one's rights);
 * - on `public`: CREATE revoked from PUBLIC where PostgreSQL before 15 still grants it (USAGE stays: it is empty).
 * Everything happens in one transaction under an advisory lock, so a second job waits and a failure changes nothing,
 * and it ends by checking the outcome from the catalog: every role can use its own tables and no other schema.
 * Idempotent: run it on every deploy, over a database whose tables the admin role owns from before.
 */
export async function confineSchemaRoles(options: { databaseUrl: string; roles: readonly SchemaRole[]; schemas: readonly string[]; logger: Logger }): Promise<void> {
  const { roles, schemas, logger } = options;
  if (roles.length === 0) return;
  const pool = openDirectPool({ databaseUrl: options.databaseUrl, component: 'migrate', logger });
  const connection = await pool.connect();
  const client: Client = connection;
  try {
    await client.query('SELECT pg_advisory_lock(hashtext($1))', ['snapcracks.schema-roles']);
    try {
      await client.query('BEGIN');
      const { rows } = await client.query<{ admin: string }>('SELECT current_user AS "admin"');
      const admin = rows[0]!.admin;
      for (const role of roles) {
        if (role.role === admin) throw new Error(`The role ${role.role} (${role.schema}) is the role the migrations run as, which owns every schema: give the component a role of its own`);
        await ensureLoginRole(client, role);
      }
      await checkOwnership(client, roles, admin);
      for (const role of roles) await client.query(grantsOf(role, schemas));
      await closePublicSchema(client, roles, logger);
      await checkConfinement(client, roles, schemas, admin);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      await client.query('SELECT pg_advisory_unlock(hashtext($1))', ['snapcracks.schema-roles']).catch(() => undefined);
    }
  } finally {
    connection.release();
    await pool.end();
  }
  for (const role of roles) logger.info({ schema: role.schema, role: role.role }, 'database role confined to its schema');
}

async function ensureLoginRole(client: Client, { role, schema, password }: SchemaRole): Promise<void> {
  const { rows } = await client.query<Record<(typeof UNCONFINED)[number], boolean>>(`SELECT ${UNCONFINED.join(', ')} FROM pg_roles WHERE rolname = $1`, [role]);
  const existing = rows[0];
  const wide = existing ? UNCONFINED.filter((attribute) => existing[attribute]) : [];
  if (wide.length > 0) {
    throw new Error(`The role ${role} (${schema}) exists with ${wide.map((a) => a.slice(3).toUpperCase()).join(', ')}, which no grant confines: remove that or name another role`);
  }
  const set = `LOGIN PASSWORD ${client.escapeLiteral(scramSha256Verifier(password))}`;
  if (existing) {
    await client.query(`ALTER ROLE ${quoteIdent(role)} ${set}`);
    return;
  }
  // Roles belong to the server, not the database: another installation's job may create the same one meanwhile.
  await client.query('SAVEPOINT create_role');
  try {
    await client.query(`CREATE ROLE ${quoteIdent(role)} ${set}`);
  } catch (error) {
    if ((error as { code?: string }).code !== '42710') throw error;
    await client.query('ROLLBACK TO SAVEPOINT create_role');
    await client.query(`ALTER ROLE ${quoteIdent(role)} ${set}`);
  }
}

/** One batch of statements for a role: its own schema granted, every other schema of the product revoked. */
function grantsOf({ role, schema: own }: SchemaRole, schemas: readonly string[]): string {
  const r = quoteIdent(role);
  const statements: string[] = [];
  for (const schema of schemas) {
    const s = quoteIdent(schema);
    if (schema === own) {
      statements.push(
        `GRANT USAGE ON SCHEMA ${s} TO ${r}`,
        `REVOKE CREATE ON SCHEMA ${s} FROM ${r}`,
        `GRANT ${TABLE_RIGHTS} ON ALL TABLES IN SCHEMA ${s} TO ${r}`,
        `GRANT ${SEQUENCE_RIGHTS} ON ALL SEQUENCES IN SCHEMA ${s} TO ${r}`,
        `REVOKE ALL ON TABLE ${s}.${quoteIdent(MIGRATIONS_TABLE)} FROM ${r}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT ${TABLE_RIGHTS} ON TABLES TO ${r}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} GRANT ${SEQUENCE_RIGHTS} ON SEQUENCES TO ${r}`,
      );
    } else {
      statements.push(
        `REVOKE ALL ON SCHEMA ${s} FROM ${r}`,
        `REVOKE ALL ON ALL TABLES IN SCHEMA ${s} FROM ${r}`,
        `REVOKE ALL ON ALL SEQUENCES IN SCHEMA ${s} FROM ${r}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} REVOKE ALL ON TABLES FROM ${r}`,
        `ALTER DEFAULT PRIVILEGES IN SCHEMA ${s} REVOKE ALL ON SEQUENCES FROM ${r}`,
      );
    }
  }
  return statements.map((statement) => `${statement};`).join('\n');
}

/**
 * PostgreSQL before 15 lets every role create tables in `public`. Only its owner (or a superuser) can take that
 * back; a job that cannot says so in its log rather than failing the deploy, since nothing of ours lives there.
 */
async function closePublicSchema(client: Client, roles: readonly SchemaRole[], logger: Logger): Promise<void> {
  const { rowCount } = await client.query(`SELECT 1 FROM pg_namespace WHERE nspname = 'public'`);
  if (!rowCount) return;
  const canCreate = async () => {
    const { rows } = await client.query<{ role: string }>(
      `SELECT r.role FROM unnest($1::text[]) AS r(role) WHERE has_schema_privilege(r.role, 'public', 'CREATE')`,
      [roles.map((r) => r.role)],
    );
    return rows.map((r) => r.role);
  };
  if ((await canCreate()).length === 0) return;
  // A non-owner's REVOKE is a warning, not an error: the check below tells.
  await client.query('REVOKE CREATE ON SCHEMA public FROM PUBLIC');
  for (const role of roles) await client.query(`REVOKE CREATE ON SCHEMA public FROM ${quoteIdent(role.role)}`);
  const still = await canCreate();
  if (still.length > 0) {
    logger.warn({ roles: still }, "these roles can still create tables in schema public: run REVOKE CREATE ON SCHEMA public FROM PUBLIC as the schema's owner");
  }
}

/**
 * Only an owner's grant counts (anyone else's is a warning that grants nothing), and REVOKE on a table one has no
 * rights on fails with a bare "permission denied": say what is wrong before either happens.
 */
async function checkOwnership(client: Client, roles: readonly SchemaRole[], admin: string): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    `SELECT "name" FROM (
       SELECT n.nspname AS "name", n.nspowner AS "owner", 0 AS "kind" FROM pg_namespace n WHERE n.nspname = ANY($1::text[])
       UNION ALL
       SELECT n.nspname || '.' || c.relname, c.relowner, 1 FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = ANY($1::text[]) AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
     ) AS o WHERE NOT pg_has_role(current_user, o."owner", 'USAGE') ORDER BY "kind", "name"`,
    [roles.map((r) => r.schema)],
  );
  if (rows.length === 0) return;
  const shown = rows.slice(0, 5).map((r) => (r.name.includes('.') ? r.name : `schema ${r.name}`));
  throw new Error(
    `The role the migrations ran as (${admin}) does not own ${shown.join(', ')}${rows.length > 5 ? ` and ${rows.length - 5} more` : ''}: it must own the product's schemas and their tables (ALTER … OWNER TO ${admin}), or be a superuser`,
  );
}

/** The outcome, read back from the catalog: a grant that silently did nothing (the admin does not own a table) fails the job. */
async function checkConfinement(client: Client, roles: readonly SchemaRole[], schemas: readonly string[], admin: string): Promise<void> {
  for (const { role, schema } of roles) {
    const { rows: missing } = await client.query<{ name: string }>(
      `SELECT c.relname AS "name" FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE n.nspname = $1 AND c.relkind IN ('r', 'p', 'v', 'm', 'f') AND c.relname <> $3
         AND NOT has_table_privilege($2, c.oid, '${TABLE_RIGHTS}')
       ORDER BY 1`,
      [schema, role, MIGRATIONS_TABLE],
    );
    if (missing.length > 0) {
      throw new Error(
        `The role ${role} still lacks ${TABLE_RIGHTS} on ${missing.map((m) => `${schema}.${m.name}`).join(', ')}: the migrations' role (${admin}) must own the schema's tables, or be a superuser`,
      );
    }
    const { rows: reached } = await client.query<{ name: string }>(
      `SELECT s.name FROM unnest($1::text[]) AS s(name) JOIN pg_namespace n ON n.nspname = s.name WHERE has_schema_privilege($2, n.oid, 'USAGE') ORDER BY 1`,
      [schemas.filter((s) => s !== schema), role],
    );
    if (reached.length > 0) {
      throw new Error(`The role ${role} (${schema}) can still use schema ${reached.map((r) => r.name).join(', ')}, granted to PUBLIC or to a role it belongs to: revoke that`);
    }
  }
}
