/**
 * The migration job (services/migrate) as this machine's scripts run it: split mode and `pnpm db:migrate`. Split
 * mode gives every component a role of its own, as the chart does, with passwords made at each start.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { COMPONENTS } from './components.js';
import { databaseUrlFor, quoteIdent, withClient } from '../seed/db.js';

const main = fileURLToPath(new URL('../../services/migrate/src/main.ts', import.meta.url));

/** The variable of a component's own connection string, e.g. AUTH_DATABASE_URL (the chart's Secret key too). */
export const databaseUrlVariable = (component: string): string => `${component.toUpperCase()}_DATABASE_URL`;

/**
 * Every component's own connection string on `adminUrl`'s server and database: the role `<database>_<component>`
 * (roles belong to the server, so each database's installation has its own) with a fresh random password, unless
 * `given` (the environment) already names one.
 */
export function componentDatabaseUrls(adminUrl: string, given: Record<string, string | undefined> = {}): Record<string, string> {
  return Object.fromEntries(
    COMPONENTS.map((component) => {
      const own = given[databaseUrlVariable(component)];
      if (own) return [component, own];
      const url = new URL(adminUrl);
      url.username = componentRole(adminUrl, component);
      url.password = randomBytes(24).toString('hex');
      return [component, url.toString()];
    }),
  );
}

/** `<database>_<component>`, in the characters a role name may have unquoted. */
function componentRole(adminUrl: string, component: string): string {
  const database = decodeURIComponent(new URL(adminUrl).pathname.slice(1)).toLowerCase().replaceAll(/[^a-z0-9_]/g, '_').slice(0, 50);
  return `${database}_${component}`;
}

/**
 * Drops the roles componentDatabaseUrls named for `adminUrl`'s database, once that database is gone (its grants go
 * with it): roles outlive databases, so a throwaway database's (a test's, the chaos harness's) would pile up.
 */
export async function dropComponentRoles(adminUrl: string): Promise<void> {
  await withClient(databaseUrlFor(adminUrl, 'postgres'), async (client) => {
    for (const component of COMPONENTS) await client.query(`DROP ROLE IF EXISTS ${quoteIdent(componentRole(adminUrl, component))}`);
  });
}

/** Runs the job: migrations as `adminUrl`'s role, then each component's role from its URL. Its output only on failure. */
export function runMigrationJob(adminUrl: string, componentUrls: Record<string, string> = {}): Promise<void> {
  const roles = Object.fromEntries(Object.entries(componentUrls).map(([component, url]) => [databaseUrlVariable(component), url]));
  return new Promise((resolve, reject) => {
    let output = '';
    const child = spawn(process.execPath, ['--import', 'tsx', main], {
      env: { ...withoutDatabaseUrls(process.env), DATABASE_URL: adminUrl, ...roles, LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`The migration job failed (exit ${code}):\n${output.slice(-3000)}`))));
  });
}

/** An environment without any database connection string, so that a child gets only the one it is handed. */
export function withoutDatabaseUrls(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !/(^|_)DATABASE_(DIRECT_)?URL$/.test(name)));
}
