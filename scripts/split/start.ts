/**
 * `pnpm start:split`: the product as the cluster runs it, as plain processes on this machine — the migration job once,
 * the seven services each in its own process (two replicas of photo and vote), the gateway, and the development
 * identity provider — on the machine's PostgreSQL and NATS. As in the cluster, DATABASE_URL is the admin's, for the
 * migration job alone: every component connects as its own role, confined to its schema, whose password is made at
 * each start (or taken from <COMPONENT>_DATABASE_URL when set). For development and the end-to-end tier; `pnpm start`
 * remains the one-process way to run the product.
 *
 * Takes what `pnpm start` takes (PORT, ADMIN_EMAILS, TRUST_PROXY, DATABASE_URL, NATS_URL, NATS_STREAM, LOG_LEVEL, …).
 * Each process's log goes to <DATA_DIR>/logs/<name>.log; should one exit, the others are stopped and its last lines
 * are printed, unless SPLIT_ON_EXIT=wait: then the others keep running, and SIGUSR2 starts again every process that
 * has exited (the chaos harness kills one process and brings only that one back). <DATA_DIR>/pids.json says which
 * process id each name runs as now. Ctrl-C (or SIGTERM) stops every process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../services/all-in-one/src/free-port.js';
import { localSecret } from '../../services/all-in-one/src/local-secrets.js';
import { databaseUrlFor, pg, quoteIdent, withClient } from '../seed/db.js';
import { componentDatabaseUrls, runMigrationJob, withoutDatabaseUrls } from '../db/migration-job.js';
import { ensureWebBuilt } from '../lib/web-build.mjs';
import { waitUntilProductReady } from '../lib/product-ready.js';
import { splitTopology, type SplitProcess } from './topology.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const env = process.env;
const port = Number(env.PORT || 8080);
const dataDir = env.DATA_DIR || join(root, '.data-split');
const databaseUrl = env.DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/snapcracks_split';
const natsUrl = env.NATS_URL || 'nats://127.0.0.1:4222';
const logDir = join(dataDir, 'logs');
const url = env.PUBLIC_URL || `http://localhost:${port}`;

const children = new Map<string, ChildProcess>();
/** Every process started, with its own settings, to start again the same way (SPLIT_ON_EXIT=wait, SIGUSR2). */
const started = new Map<string, { child: SplitProcess; extra: Record<string, string> }>();
const waitOnExit = env.SPLIT_ON_EXIT === 'wait';
let stopping = false;

async function main(): Promise<void> {
  mkdirSync(logDir, { recursive: true });
  if (!env.WEB_DIST && !ensureWebBuilt(root)) throw new Error('the web app did not build');
  await createDatabaseIfMissing(databaseUrl);
  process.stdout.write('Applying migrations…\n');
  const databaseUrls = componentDatabaseUrls(databaseUrl, env);
  await runMigrationJob(databaseUrl, databaseUrls);

  const nodeEnv = env.NODE_ENV === 'production' ? 'production' : 'development';
  const clientSecret = randomBytes(24).toString('base64url');
  const devIdpPort = Number(env.DEV_IDP_PORT || (await freePort()));
  const issuer = env.OIDC_ISSUER || `http://127.0.0.1:${devIdpPort}`;
  if (!env.OIDC_ISSUER) {
    start(
      { name: 'dev-idp', component: 'dev-idp', entry: 'services/dev-idp/src/main.ts', env: {} },
      {
        DEV_IDP_PORT: String(devIdpPort),
        OIDC_CLIENT_SECRET: clientSecret,
        OIDC_REDIRECT_URI: `${url}/api/callback`,
        OIDC_POST_LOGOUT_REDIRECT_URI: `${url}/`,
      },
    );
  }

  const common = {
    NODE_ENV: nodeEnv,
    LOG_LEVEL: env.LOG_LEVEL || 'info',
    NATS_URL: natsUrl,
    ...(env.NATS_STREAM ? { NATS_STREAM: env.NATS_STREAM } : {}),
    // One secret every process derives its identity keys from: development only (production needs real key pairs).
    ...(env.IDENTITY_PRIVATE_KEY ? {} : { IDENTITY_SECRET: env.IDENTITY_SECRET || localSecret(dataDir, 'IDENTITY_SECRET') }),
  };
  const processes = await splitTopology({
    replicas: { photo: 2, vote: 2 },
    databaseUrls,
    common,
    gateway: {
      PORT: String(port),
      HOST: env.HOST || '127.0.0.1',
      OIDC_ISSUER: issuer,
      OIDC_CLIENT_SECRET: env.OIDC_ISSUER ? env.OIDC_CLIENT_SECRET || '' : clientSecret,
      SESSION_SECRET: env.SESSION_SECRET || localSecret(dataDir, 'SESSION_SECRET'),
    },
    service: { storage: { DATA_DIR: join(dataDir, 'blobs') } },
    ports: freePort,
  });
  for (const child of processes) start(child, {});
  // Where each process answers, for a person or a test that wants to scrape every replica's metrics.
  writeFileSync(
    join(dataDir, 'topology.json'),
    `${JSON.stringify({ url, processes: processes.map(({ name, component, env: { GRPC_PORT, METRICS_PORT } }) => ({ name, component, grpcPort: GRPC_PORT, metricsPort: METRICS_PORT })) }, null, 2)}\n`,
  );

  const internals = Object.fromEntries(processes.map((p) => [p.name, `http://127.0.0.1:${p.env.METRICS_PORT}`]));
  await waitUntilProductReady(
    { readyz: `http://127.0.0.1:${port}/readyz`, gatewayInternal: internals.gateway!, internals },
    { timeoutMs: 120_000, stopped: () => stopping },
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message} (logs: ${logDir})`);
  });
  if (stopping) return;
  const admins = env.ADMIN_EMAILS ? ` (admins: ${env.ADMIN_EMAILS})` : '; set ADMIN_EMAILS=you@example.com to become an admin';
  process.stdout.write(
    `\n  Snap Cracks (split: ${children.size} processes) is running at ${url}\n` +
      `  Sign in ${env.OIDC_ISSUER ? `through ${issuer}` : `with any email and name on the development sign-in page${admins}`}.\n` +
      `  Logs: ${logDir}\n  Press Ctrl-C to stop.\n\n`,
  );
}

/**
 * Starts one process; it inherits this one's environment (PORT, ADMIN_EMAILS, TRUST_PROXY, RATE_LIMIT_*, …) but no
 * database connection string other than the one the topology hands it.
 */
function start(child: SplitProcess, extra: Record<string, string>): void {
  const logFile = join(logDir, `${child.name}.log`);
  // Appended to: a process started again (SPLIT_ON_EXIT=wait) keeps its earlier lines.
  const log = createWriteStream(logFile, { flags: 'a' });
  const proc = spawn(process.execPath, ['--import', 'tsx', join(root, child.entry)], {
    cwd: root,
    env: { ...withoutDatabaseUrls(env), MALLOC_ARENA_MAX: env.MALLOC_ARENA_MAX || '2', ...child.env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  proc.stdout.pipe(log);
  proc.stderr.pipe(log);
  children.set(child.name, proc);
  started.set(child.name, { child, extra });
  writePids();
  proc.once('exit', (code, signal) => {
    children.delete(child.name);
    writePids();
    if (stopping) return;
    if (waitOnExit) {
      process.stderr.write(`${child.name} exited (${signal ?? code}); the others keep running (SIGUSR2 starts it again)\n`);
      return;
    }
    const tail = readFileSync(logFile, 'utf8').trimEnd().split('\n').slice(-15).join('\n');
    process.stderr.write(`\n${child.name} exited (${signal ?? code}); stopping. Its last lines (${logFile}):\n${tail}\n`);
    void stop(1);
  });
}

function writePids(): void {
  const pids = Object.fromEntries([...children].map(([name, proc]) => [name, proc.pid]));
  // Written aside and renamed over, so a reader never sees a half-written file.
  writeFileSync(join(dataDir, 'pids.json.tmp'), `${JSON.stringify(pids, null, 2)}\n`);
  renameSync(join(dataDir, 'pids.json.tmp'), join(dataDir, 'pids.json'));
}

/** SIGUSR2 with SPLIT_ON_EXIT=wait: every process that has exited starts again, with the settings it had. */
function restartExited(): void {
  if (stopping) return;
  for (const [name, { child, extra }] of started) if (!children.has(name)) start(child, extra);
}

async function createDatabaseIfMissing(target: string): Promise<void> {
  const name = decodeURIComponent(new URL(target).pathname.slice(1));
  await withClient(databaseUrlFor(target, 'postgres'), async (client) => {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${quoteIdent(name)}`);
  }).catch((error: unknown) => {
    if (error instanceof pg.DatabaseError && error.code === '42P04') return; // created meanwhile
    throw new Error(`PostgreSQL at ${new URL(target).host} cannot be reached or used: ${(error as Error).message}`);
  });
}

async function stop(code: number): Promise<never> {
  stopping = true;
  const exits = [...children.values()].map((child) => new Promise((resolve) => child.once('exit', resolve)));
  for (const child of children.values()) child.kill('SIGTERM');
  const forced = setTimeout(() => {
    for (const child of children.values()) child.kill('SIGKILL');
  }, 30_000);
  await Promise.all(exits);
  clearTimeout(forced);
  process.exit(code);
}

process.on('SIGINT', () => void stop(0));
process.on('SIGTERM', () => void stop(0));
if (waitOnExit) process.on('SIGUSR2', restartExited);
main().catch((error: unknown) => {
  process.stderr.write(`Snap Cracks (split) could not start: ${error instanceof Error ? error.message : String(error)}\n`);
  void stop(1);
});
