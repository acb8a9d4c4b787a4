import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createTestDatabase, createTestStream, testNatsUrl } from '@snapcracks/kit/testing';
import { freePort } from '../src/free-port.js';
import { dropComponentRoles } from '../../../scripts/db/migration-job.js';

const root = fileURLToPath(new URL('../../..', import.meta.url));
/** The label `pnpm start:containers` puts on everything it makes (scripts/containers/start.ts). */
const CONTAINERS_LABEL = 'io.snapcracks.containers=1';

export interface Deployment {
  url: string;
  /** Every process's metrics address, keyed by process name (`vote-1`, `gateway`, …). */
  metrics(): Record<string, string>;
  output(): string;
  /** The last lines each component logged, for a failure's report. */
  componentLogs(): string;
  /** Stops everything; resolves with the launcher's exit code. */
  stop(): Promise<number | null>;
  /** What is still running of it (processes, containers, networks, listening ports): nothing once stopped. */
  leftovers(): Promise<string[]>;
}

export interface SplitDeployment extends Deployment {
  /** Its DATA_DIR: logs, topology.json, pids.json. */
  dataDir: string;
  /** The launcher's process id (SIGUSR2 starts exited processes again when SPLIT_ON_EXIT=wait). */
  launcherPid: number;
}

/**
 * The product as `pnpm start:split` runs it (each component its own process, two replicas of photo and vote), on a
 * fresh database and JetStream stream, with its own data directory.
 */
export async function startSplit(env: Record<string, string>): Promise<SplitDeployment> {
  const dataDir = mkdtempSync(join(tmpdir(), 'snapcracks-split-'));
  const launched = await launch(['--import', 'tsx', join(root, 'scripts/split/start.ts')], env, { DATA_DIR: dataDir }).catch((error: unknown) => {
    rmSync(dataDir, { recursive: true, force: true });
    throw error;
  });
  const topology = JSON.parse(readFileSync(join(dataDir, 'topology.json'), 'utf8')) as { processes: { name: string; grpcPort?: string; metricsPort: string }[] };
  return {
    ...launched,
    dataDir,
    metrics: () => Object.fromEntries(topology.processes.map(({ name, metricsPort }) => [name, `http://127.0.0.1:${metricsPort}`])),
    componentLogs: () =>
      readdirSync(join(dataDir, 'logs'))
        .map((file) => `--- ${file}\n${lastLines(readFileSync(join(dataDir, 'logs', file), 'utf8'), 20)}`)
        .join('\n'),
    async stop() {
      const code = await launched.stop();
      rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
    async leftovers() {
      // Every process's ports: none may still answer, and no process may still run from the data directory.
      const ports = [
        ['gateway', Number(new URL(launched.url).port)] as const,
        ...topology.processes.flatMap(({ name, grpcPort, metricsPort }) => [
          ...(grpcPort ? [[name, Number(grpcPort)] as const] : []),
          [`${name} metrics`, Number(metricsPort)] as const,
        ]),
      ];
      const open = await Promise.all(ports.map(async ([name, port]) => ((await listening(port)) ? `${name} on ${port}` : undefined)));
      const processes = execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((line) => line.includes(dataDir));
      return [...open.filter((entry): entry is string => entry !== undefined), ...processes];
    },
  };
}

function lastLines(text: string, count: number): string {
  return text.trimEnd().split('\n').slice(-count).join('\n');
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** The product as `pnpm start:containers` runs it: each component its own podman container, from the built images. */
export async function startContainers(env: Record<string, string>): Promise<Deployment> {
  const launched = await launch(['--import', 'tsx', join(root, 'scripts/containers/start.ts')], env, {});
  return {
    ...launched,
    metrics: () => JSON.parse(readFileSync(join(root, '.data-containers/metrics.json'), 'utf8')) as Record<string, string>,
    componentLogs: () =>
      execFileSync('podman', ['ps', '-a', '--filter', `label=${CONTAINERS_LABEL}`, '--format', '{{.Names}}'])
        .toString()
        .split('\n')
        .filter(Boolean)
        .map((name) => {
          // A container's stderr comes back on podman's stderr: errors are often there.
          const logs = spawnSync('podman', ['logs', '--tail', '20', name], { encoding: 'utf8' });
          return `--- ${name}\n${`${logs.stdout}${logs.stderr}`.trimEnd()}`;
        })
        .join('\n'),
    async leftovers() {
      const podman = (...args: string[]) => execFileSync('podman', args).toString().split('\n').filter(Boolean);
      return [
        ...podman('ps', '-a', '--filter', `label=${CONTAINERS_LABEL}`, '--format', 'container {{.Names}}'),
        ...podman('pod', 'ps', '--filter', `label=${CONTAINERS_LABEL}`, '--format', 'pod {{.Name}}'),
        ...podman('network', 'ls', '--filter', `label=${CONTAINERS_LABEL}`, '--format', 'network {{.Name}}'),
        ...podman('volume', 'ls', '--filter', `label=${CONTAINERS_LABEL}`, '--format', 'volume {{.Name}}'),
      ];
    },
  };
}

async function launch(args: string[], env: Record<string, string>, extra: Record<string, string>): Promise<Omit<Deployment, 'metrics' | 'leftovers' | 'componentLogs'> & { launcherPid: number }> {
  const [database, stream, port] = await Promise.all([createTestDatabase('e2e'), createTestStream('e2e'), freePort()]);
  let output = '';
  const child: ChildProcess = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: String(port), DATABASE_URL: database.url, NATS_URL: testNatsUrl(), NATS_STREAM: stream.stream, ...extra, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const cleanup = async () => {
    await database.drop();
    // Split mode gives each component its own role on this database; roles outlive it.
    await dropComponentRoles(database.url);
    await stream.delete();
  };
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`not running after 10 minutes:\n${output.slice(-4000)}`)), 600_000);
    child.stdout!.on('data', () => {
      const match = /is running at (https?:\/\/[^\s,]+)/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]!);
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before it was running:\n${output.slice(-4000)}`));
    });
  }).catch(async (error: unknown) => {
    await cleanup();
    throw error;
  });
  return {
    url,
    launcherPid: child.pid!,
    output: () => output,
    async stop() {
      child.kill('SIGTERM');
      const code = await exited;
      await cleanup();
      return code;
    },
  };
}
