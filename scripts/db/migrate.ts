/**
 * `pnpm db:migrate`: applies every component's committed migrations to DATABASE_URL (the machine's
 * PostgreSQL, or a cluster's, as the Kubernetes migration job does with SERVICE=migrate).
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

if (!process.env.DATABASE_URL) {
  console.error('Set DATABASE_URL, e.g. DATABASE_URL=postgresql://postgres@127.0.0.1:5432/snapcracks pnpm db:migrate');
  process.exit(64);
}
const main = fileURLToPath(new URL('../../services/all-in-one/src/main.ts', import.meta.url));
const result = spawnSync(process.execPath, ['--import', 'tsx', main], { stdio: 'inherit', env: { ...process.env, SERVICE: 'migrate' } });
process.exit(result.status ?? 1);
