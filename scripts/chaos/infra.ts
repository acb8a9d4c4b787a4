/**
 * The servers the harness owns, so it can stop and restart them without touching the machine's shared ones: a
 * nats-server with JetStream and a PostgreSQL cluster, each on a free loopback port with its own directory.
 */
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../../services/all-in-one/src/free-port.js';
import { waitFor } from './timing.js';

const NATS_SERVER = '/usr/sbin/nats-server';

export interface PrivateNats {
  url: string;
  stop(): Promise<void>;
  start(): Promise<void>;
  /** Stops it for good and removes its store. */
  close(): Promise<void>;
}

/** A nats-server with JetStream on a free loopback port, its store in a temporary directory. */
export async function startPrivateNats(): Promise<PrivateNats> {
  if (!existsSync(NATS_SERVER)) throw new Error(`${NATS_SERVER} is not installed`);
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), 'chaos-nats-'));
  let server: ChildProcess | undefined;
  const start = async () => {
    server = spawn(NATS_SERVER, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', storeDir], { stdio: 'ignore' });
    await waitFor(`nats-server on ${port}`, 15_000, () => listening(port));
  };
  const stop = async () => {
    const running = server;
    server = undefined;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    const forced = setTimeout(() => running.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(forced);
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    start,
    stop,
    async close() {
      await stop();
      rmSync(storeDir, { recursive: true, force: true });
    },
  };
}

export interface PrivatePostgres {
  /** The server's `postgres` database, as TEST_DATABASE_URL wants it. */
  serverUrl: string;
  /** `pg_ctl restart -m fast`: every connection is cut, the server is back in a moment. */
  restart(): Promise<void>;
  close(): Promise<void>;
}

/** The binaries of the newest PostgreSQL installed from the distribution's packages. */
function postgresBin(): string {
  const base = '/usr/lib/postgresql';
  const versions = existsSync(base) ? readdirSync(base).filter((v) => existsSync(join(base, v, 'bin/pg_ctl'))) : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0];
  if (!newest) throw new Error(`no PostgreSQL binaries (initdb, pg_ctl) under ${base}`);
  return join(base, newest, 'bin');
}

/**
 * A throwaway PostgreSQL cluster on a free loopback port, trust authentication, durability off (it holds nothing
 * worth keeping). initdb refuses to run as root: then it runs as the `postgres` account.
 */
export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  const bin = postgresBin();
  const port = await freePort();
  const dir = mkdtempSync(join(tmpdir(), 'chaos-pg-'));
  const dataDir = join(dir, 'data');
  const asRoot = process.getuid?.() === 0;
  if (asRoot) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString());
    chownSync(dir, uid, gid);
  }
  const run = (tool: string, args: string[]) =>
    execFileSync(asRoot ? 'runuser' : join(bin, tool), asRoot ? ['-u', 'postgres', '--', join(bin, tool), ...args] : args, { stdio: 'pipe', timeout: 60_000 });
  run('initdb', ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300`;
  const ctlArgs = (...args: string[]) => ['-D', dataDir, '-o', options, '-l', join(dir, 'server.log'), '-w', '-t', '60', ...args];
  const ctl = (...args: string[]) => run('pg_ctl', ctlArgs(...args));
  ctl('start');
  return {
    serverUrl: `postgresql://postgres@127.0.0.1:${port}/postgres`,
    // Asynchronous: the load keeps running (and timing its requests) while the server restarts.
    async restart() {
      const args = ctlArgs('restart', '-m', 'fast');
      if (asRoot) await promisify(execFile)('runuser', ['-u', 'postgres', '--', join(bin, 'pg_ctl'), ...args], { timeout: 60_000 });
      else await promisify(execFile)(join(bin, 'pg_ctl'), args, { timeout: 60_000 });
    },
    async close() {
      try {
        ctl('stop', '-m', 'immediate');
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
