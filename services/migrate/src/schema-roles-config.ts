import { ConfigError } from '@snapcracks/kit';

/** A component's own database role, confined to the schema it owns. */
export interface SchemaRole {
  schema: string;
  role: string;
  password: string;
}

/** The variable that carries a component's connection string, e.g. AUTH_DATABASE_URL (the chart's Secret key too). */
export const roleUrlVariable = (schema: string): string => `${schema.toUpperCase()}_DATABASE_URL`;

/** Lower-case so that nobody has to quote it in psql; `pg_` names are PostgreSQL's own. */
const ROLE_NAME = /^(?!pg_)[a-z_][a-z0-9_-]{0,62}$/;

/**
 * The roles the migration job makes, from each component's own connection string (`<SCHEMA>_DATABASE_URL`): the
 * role is its user, the password its password. The very URL the component connects with is the only place either is
 * written, so the two cannot drift apart. A schema without a URL gets no role (its component, if any, runs on the
 * admin URL: all-in-one). Every mistake is one line naming the variable.
 */
export function schemaRolesFrom(env: Record<string, string | undefined>, options: { adminUrl: string; schemas: readonly string[] }): SchemaRole[] {
  const admin = new URL(options.adminUrl);
  const adminDatabase = databaseName(admin);
  const adminRole = decodeURIComponent(admin.username);
  const roles: SchemaRole[] = [];
  for (const schema of options.schemas) {
    const variable = roleUrlVariable(schema);
    const value = env[variable];
    if (!value) continue;
    const fail = (problem: string): never => {
      throw new ConfigError(`Invalid configuration: ${variable}: ${problem}`);
    };
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return fail('not a URL (postgresql://<role>:<password>@<host>/<database>)');
    }
    if (url.protocol !== 'postgresql:' && url.protocol !== 'postgres:') fail('not a postgresql:// URL');
    const role = decodeURIComponent(url.username);
    const password = decodeURIComponent(url.password);
    if (!ROLE_NAME.test(role)) fail(`the role (the URL's user) must be 1 to 63 lower-case letters, digits, _ or -, not starting with pg_ (got "${role}")`);
    if (!password) fail(`the role ${role} needs a password in the URL`);
    if (!/^[\x20-\x7e]+$/.test(password)) fail(`the password of ${role} must be printable ASCII`);
    if (databaseName(url) !== adminDatabase) fail(`names database "${databaseName(url)}" but the migrations run on "${adminDatabase}": grants are per database`);
    if (role === adminRole) fail(`the role ${role} is the admin role of DATABASE_URL, which owns every schema: give the component a role of its own`);
    const other = roles.find((r) => r.role === role);
    if (other) fail(`the role ${role} is also ${roleUrlVariable(other.schema)}'s: each component needs a role of its own`);
    roles.push({ schema, role, password });
  }
  return roles;
}

function databaseName(url: URL): string {
  return decodeURIComponent(url.pathname.replace(/^\//, ''));
}
