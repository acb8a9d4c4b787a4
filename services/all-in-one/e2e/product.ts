import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, createTestStream, testNatsUrl } from '@snapcracks/kit/testing';
import { freePort } from '../src/free-port.js';

const main = fileURLToPath(new URL('../src/main.ts', import.meta.url));

export interface RunningProduct {
  url: string;
  pid: number;
  output(): string;
  /** Null while running. */
  exitCode(): number | null;
  stop(): Promise<void>;
}

/**
 * Starts the product as `pnpm start` does (one process, the built web app, the development identity
 * provider), on a fresh database of the machine's PostgreSQL and its own JetStream stream.
 */
export async function startProduct(env: Record<string, string> = {}, port?: number): Promise<RunningProduct> {
  const database = await createTestDatabase('e2e');
  const stream = await createTestStream('e2e');
  // A port found free can be taken before the product listens on it (its own services listen on ports the system
  // picks from the same range): with no port asked for, start again on another.
  for (let attempt = 1; ; attempt += 1) {
    const url = `http://localhost:${port ?? (await freePort())}`;
    const started = await startOn(url, env, database.url, stream.stream);
    const cleanup = async () => {
      await stopProcess(started.child);
      await database.drop();
      await stream.delete();
    };
    try {
      await waitUntilReady(url, started.child, started.output);
    } catch (error) {
      await stopProcess(started.child);
      if (port === undefined && attempt < 3 && /EADDRINUSE/.test(started.output())) continue;
      await database.drop();
      await stream.delete();
      throw error;
    }
    return {
      url,
      pid: started.child.pid!,
      output: started.output,
      exitCode: () => started.child.exitCode,
      async stop() {
        await cleanup();
      },
    };
  }
}

function startOn(url: string, env: Record<string, string>, databaseUrl: string, stream: string): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', main], {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: new URL(url).port,
      DATABASE_URL: databaseUrl,
      NATS_URL: testNatsUrl(),
      NATS_STREAM: stream,
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  return { child, output: () => output };
}

async function waitUntilReady(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The product exited with ${child.exitCode}:\n${output()}`);
    const ready = await fetch(`${url}/readyz`).then((r) => r.ok, () => false);
    if (ready) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The product did not become ready in time:\n${output()}`);
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill('SIGKILL'), 20_000);
    child.once('exit', () => {
      clearTimeout(force);
      resolve();
    });
    child.kill('SIGTERM');
  });
}
