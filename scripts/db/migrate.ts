/**
 * `pnpm db:migrate`: the migration job (services/migrate) on this machine. It applies every component's committed
 * migrations to DATABASE_URL as that (admin) role and, for each component given its own connection string
 * (<COMPONENT>_DATABASE_URL: AUTH_DATABASE_URL, …, GATEWAY_DATABASE_URL), creates or updates that role and confines it
 * to the component's schema, as the Kubernetes migration job does.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.env.DATABASE_URL && !process.env.DATABASE_DIRECT_URL) {
  console.error('Set DATABASE_URL, e.g. DATABASE_URL=postgresql://postgres@127.0.0.1:5432/snapcracks pnpm db:migrate');
  process.exit(64);
}
const main = fileURLToPath(new URL('../../services/migrate/src/main.ts', import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', main], { stdio: 'inherit', env: process.env });
process.exit(result.status ?? 1);
