import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { loadGatewayConfig } from '@snapcracks/gateway';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { IdentityKeyring, createLogger } from '@snapcracks/kit';
import { startSystem, type RunningSystem, type SystemOptions } from '../src/system.js';
import { freePort } from '../src/free-port.js';

/** The test system's identity keys, so a test can call a service directly as some component. */
export const TEST_IDENTITY = IdentityKeyring.generate();

/** A minimal built web app, so API tests need no Vite build: one inline script (CSP hash) and the brand images. */
export function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'snapcracks-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><script>document.documentElement.dataset.t="1"</script></head><body><div id="root">SPA</div></body></html>');
  mkdirSync(join(dir, 'brand'));
  writeFileSync(join(dir, 'brand/snapcracks-icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'brand/snapcracks-header.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

/** Whether nothing listens on `port` (on every address, as the services thread's metrics server listens). */
const isFree = (port: number) =>
  new Promise<boolean>((resolve) => {
    const probe = createServer().once('error', () => resolve(false));
    probe.listen(port, () => probe.close(() => resolve(true)));
  });

/** A free port whose next one is free too: the services thread's metrics take METRICS_PORT + 1. */
async function freePortPair(): Promise<number> {
  for (;;) {
    const port = await freePort();
    if (port < 65535 && (await isFree(port + 1))) return port;
  }
}

/**
 * The whole product in this process, on a fresh database of the machine's PostgreSQL; `options` adds to startSystem's,
 * and `metrics` serves its metrics on free ports (`metricsPort` and the next one).
 */
export async function startTestSystem(
  env: Record<string, string> = {},
  { metrics = false, ...options }: Partial<SystemOptions> & { metrics?: boolean } = {},
): Promise<RunningSystem & { database: TestDatabase; metricsPort: number | undefined }> {
  const database = await createTestDatabase('system');
  Object.assign(process.env, env);
  try {
    for (let attempt = 1; ; attempt += 1) {
      // A port free a moment ago may be taken by the time the system listens (another test file, or an outgoing
      // connection's local port): a start that fails so stops whole, and goes again on other ports.
      const port = await freePort();
      const metricsPort = metrics ? await freePortPair() : options.metricsPort;
      const gateway = loadGatewayConfig({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', WEB_DIST: fakeWebDist(), ...env });
      try {
        const system = await startSystem({
          logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
          nodeEnv: 'test',
          gateway,
          databaseUrl: database.url,
          dataDir: mkdtempSync(join(tmpdir(), 'snapcracks-data-')),
          identity: TEST_IDENTITY,
          ...options,
          metricsPort,
        });
        return {
          ...system,
          url: `http://127.0.0.1:${port}`,
          database,
          metricsPort,
          async stop() {
            await system.stop();
            await database.drop();
          },
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException | null)?.code !== 'EADDRINUSE' || attempt === 3) throw error;
      }
    }
  } catch (error) {
    await database.drop();
    throw error;
  }
}

/**
 * A second replica of the whole product on `system`'s database and the NATS stream `natsStream` (which `system` must
 * use too), with the same `env`: what two pods of every component do, for tests across replicas.
 */
export async function startTestReplica(
  system: { database: TestDatabase },
  env: Record<string, string>,
  { natsUrl, natsStream }: { natsUrl: string; natsStream: string },
): Promise<RunningSystem & { url: string }> {
  const port = await freePort();
  const replica = await startSystem({
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    nodeEnv: 'test',
    gateway: loadGatewayConfig({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', WEB_DIST: fakeWebDist(), ...env }),
    databaseUrl: system.database.url,
    dataDir: mkdtempSync(join(tmpdir(), 'snapcracks-data-')),
    identity: TEST_IDENTITY,
    natsUrl,
    natsStream,
  });
  return { ...replica, url: `http://127.0.0.1:${port}` };
}
