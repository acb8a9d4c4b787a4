/**
 * Split mode as the end-to-end tests start it (startSplit), on the harness's own PostgreSQL and NATS, with one process
 * left down when it exits (SPLIT_ON_EXIT=wait) so the harness can kill one and bring only that one back.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startSplit, type SplitDeployment } from '../../services/all-in-one/e2e/deployment.js';
import { UNLIMITED_RATES } from '../bench/lib.js';
import { listening } from './infra.js';
import { waitFor } from './timing.js';

export const ADMIN_EMAIL = 'ada@chaos.example.com';

export interface ChaosDeployment {
  url: string;
  databaseUrl: string;
  /** Where storage keeps local blobs (STORAGE_TYPE=local). */
  localBlobDir: string;
  /** Process names of a component (`photo` → photo-1, photo-2; `gateway` → gateway). */
  processesOf(component: string): string[];
  /** Whether the named process accepts connections on its gRPC port (the gateway: its HTTP port). */
  listening(name: string): Promise<boolean>;
  /** The process id each name runs as now. */
  pids(): Record<string, number>;
  /** Every process name but the development identity provider. */
  processNames(): string[];
  /** Sends `signal` to the named processes and waits until they have exited. */
  kill(names: string[], signal: NodeJS.Signals): Promise<void>;
  /** Starts every exited process again and waits until each runs; answers when the signal was sent. */
  restartExited(): Promise<number>;
  log(name: string): string;
  stop(): Promise<void>;
}

export async function startChaosDeployment(options: { databaseUrl: string; natsUrl: string; env: Record<string, string> }): Promise<ChaosDeployment> {
  // The gateway serves the web app from WEB_DIST; a page stands in for it (the harness calls only /api).
  const webDist = mkdtempSync(join(tmpdir(), 'chaos-web-'));
  writeFileSync(join(webDist, 'index.html'), '<!doctype html><title>Snap Cracks</title>');
  cpSync(fileURLToPath(new URL('../../web/public/brand', import.meta.url)), join(webDist, 'brand'), { recursive: true });
  let split: SplitDeployment;
  try {
    split = await startSplit({
      ...UNLIMITED_RATES,
      RATE_LIMIT_UPLOADS_IN_FLIGHT: '100',
      RATE_LIMIT_AVATARS: '100000000/1m',
      RATE_LIMIT_FACE_SUGGESTIONS: '100000000/1m',
      SPLIT_ON_EXIT: 'wait',
      WEB_DIST: webDist,
      ADMIN_EMAILS: ADMIN_EMAIL,
      LOG_LEVEL: 'warn',
      DATABASE_URL: options.databaseUrl,
      NATS_URL: options.natsUrl,
      ...options.env,
    });
  } catch (error) {
    rmSync(webDist, { recursive: true, force: true });
    throw error;
  }
  const names = Object.keys(split.metrics());
  const topology = JSON.parse(readFileSync(join(split.dataDir, 'topology.json'), 'utf8')) as { processes: { name: string; grpcPort?: string }[] };
  const ports = new Map(topology.processes.map(({ name, grpcPort }) => [name, Number(grpcPort ?? new URL(split.url).port)]));
  const pids = () => JSON.parse(readFileSync(join(split.dataDir, 'pids.json'), 'utf8')) as Record<string, number>;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  return {
    url: split.url,
    databaseUrl: options.databaseUrl,
    localBlobDir: join(split.dataDir, 'blobs', 'uploads'),
    processesOf: (component) => names.filter((name) => name === component || name.replace(/-\d+$/, '') === component),
    processNames: () => names,
    pids,
    listening: (name) => listening(ports.get(name)!),
    async kill(targets, signal) {
      const running = pids();
      const victims = targets.map((name) => running[name]).filter((pid): pid is number => pid !== undefined);
      for (const pid of victims) process.kill(pid, signal);
      await waitFor(`${targets.join(', ')} to exit on ${signal}`, 45_000, () => victims.every((pid) => !alive(pid)) && targets.every((name) => !(name in pids())));
    },
    async restartExited() {
      const sentAt = Date.now();
      process.kill(split.launcherPid, 'SIGUSR2');
      await waitFor('the exited processes to start again', 10_000, () => names.every((name) => name in pids()));
      return sentAt;
    },
    log: (name) => readFileSync(join(split.dataDir, 'logs', `${name}.log`), 'utf8'),
    async stop() {
      // CHAOS_LOGS=<dir>: every process's log is kept there (the data directory goes with the stop).
      if (process.env.CHAOS_LOGS) {
        const kept = join(process.env.CHAOS_LOGS, new URL(options.databaseUrl).pathname.slice(1));
        cpSync(join(split.dataDir, 'logs'), kept, { recursive: true });
        cpSync(join(split.dataDir, 'topology.json'), join(kept, 'topology.json'));
      }
      await split.stop();
      rmSync(webDist, { recursive: true, force: true });
      const leftovers = await split.leftovers();
      if (leftovers.length) throw new Error(`still running after the stop: ${leftovers.join(', ')}`);
    },
  };
}
