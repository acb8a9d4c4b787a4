/**
 * The product on a database the benchmark chose (a seeded one), as `pnpm start` runs it: one process, the machine's
 * PostgreSQL and NATS (its own JetStream stream), the development identity provider, the rate limit out of the way.
 * Unlike the end-to-end tests' startProduct, it makes no fresh database, and it can pass Node flags (`--cpu-prof`,
 * which NODE_OPTIONS refuses) to the product's process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestStream, testNatsUrl } from '../../services/kit/src/testing/index.js';
import { freePort } from '../../services/all-in-one/src/free-port.js';
import { UNLIMITED_RATES, type RunningProduct } from './lib.js';

const main = fileURLToPath(new URL('../../services/all-in-one/src/main.ts', import.meta.url));
const splitMain = fileURLToPath(new URL('../split/start.ts', import.meta.url));


export interface ProductOnDatabase {
  databaseUrl: string;
  /** DATA_DIR: local blobs (`<dir>/uploads`), the development provider's port, local secrets. */
  dataDir: string;
  env?: Record<string, string>;
  /** The Node binary (default: this process's); split mode's components run on it too, as children of its launcher. */
  node?: string;
  /** Node flags before `--import tsx`, e.g. ['--cpu-prof', '--cpu-prof-dir=/tmp/prof']. */
  nodeArgs?: string[];
}

/** The last 64 KB of the product's output, for the report of a failure: a run at info logs a line per request. */
const keepTail = (output: string) => (output.length > 131_072 ? output.slice(-65_536) : output);

/** The product in one process, as `pnpm start` runs it. */
export function startProductOnDatabase(options: ProductOnDatabase): Promise<RunningProduct> {
  return launch([...(options.nodeArgs ?? []), '--import', 'tsx', main], options, { NODE_ENV: 'test' });
}

/**
 * The product as `pnpm start:split` runs it on the benchmark's database: the migration job, then each component in its
 * own process (two replicas of photo and vote) connecting as its own role, the gateway in front. `pid` is the
 * launcher's: the components are its children, so the benchmark counts their CPU and memory through its process tree.
 */
export function startSplitOnDatabase(options: ProductOnDatabase): Promise<RunningProduct> {
  return launch(['--import', 'tsx', splitMain], options, {});
}

/** Starts `args` on its own JetStream stream and port with the benchmark's settings; resolves once it is ready. */
async function launch(args: string[], options: ProductOnDatabase, modeEnv: Record<string, string>): Promise<RunningProduct> {
  const stream = await createTestStream('bench');
  const port = await freePort();
  const url = `http://localhost:${port}`;
  let output = '';
  const child = spawn(options.node ?? process.execPath, args, {
    env: {
      ...process.env,
      ...modeEnv,
      // Production's level: what the product logs per request is part of what a request costs.
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      PORT: String(port),
      DATABASE_URL: options.databaseUrl,
      DATA_DIR: options.dataDir,
      NATS_URL: testNatsUrl(),
      NATS_STREAM: stream.stream,
      IDENTITY_SECRET: 'b'.repeat(40),
      ...UNLIMITED_RATES,
      // The Raters figures read every vote when they fall due (about 10 s of a database core at a million votes, every
      // 10 minutes by default): a week keeps that periodic work, which the seed has done, out of every measured scenario.
      RATER_FIGURES_REFRESH: '7d',
      MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX ?? '2',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output = keepTail(output + chunk)));
  child.stderr!.on('data', (chunk) => (output = keepTail(output + chunk)));
  const cleanup = async () => {
    await stopProcess(child);
    await stream.delete();
  };
  try {
    await waitUntilReady(url, child, () => output);
  } catch (error) {
    await cleanup();
    throw error;
  }
  return { url, pid: child.pid!, output: () => output, exitCode: () => child.exitCode, stop: cleanup };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 180_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The product exited with ${child.exitCode}:\n${output()}`);
    if (await fetch(`${url}/readyz`).then((r) => r.ok, () => false)) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The product did not become ready in time:\n${output()}`);
}

/** SIGTERM and wait for a clean exit (a CPU profile is written then); SIGKILL after 30 s. */
export function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 30_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
