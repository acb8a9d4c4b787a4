import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadGatewayConfig } from '@snapcracks/gateway';
import { createLogger } from '@snapcracks/kit';
import { createRecordingLogger, createTestDatabase, type LogRecord, type TestDatabase } from '@snapcracks/kit/testing';
import { startSystem, type RunningSystem, type SystemOptions } from '../src/system.js';
import { freePort } from '../src/free-port.js';
import { TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

// `pnpm start` stopped and started again on the same data: the same database and the same data directory.
let database: TestDatabase;
let dataDir: string;
let webDist: string;
let running: RunningSystem | undefined;

beforeAll(async () => {
  database = await createTestDatabase('day_two');
  dataDir = mkdtempSync(join(tmpdir(), 'snapcracks-day-two-'));
  webDist = fakeWebDist();
});
afterAll(async () => {
  await running?.stop();
  await database?.drop();
  for (const dir of [dataDir, webDist]) if (dir) rmSync(dir, { recursive: true, force: true });
});

/** A minimal built web app, as in test-system.ts: the API needs only index.html and the brand images. */
function fakeWebDist(): string {
  const dir = mkdtempSync(join(tmpdir(), 'snapcracks-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><script>document.documentElement.dataset.t="1"</script></head><body><div id="root">SPA</div></body></html>');
  mkdirSync(join(dir, 'brand'));
  writeFileSync(join(dir, 'brand/snapcracks-icon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  writeFileSync(join(dir, 'brand/snapcracks-header.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  return dir;
}

/**
 * Starts the product on the shared data, as `pnpm start` would (development identity provider included). A test that
 * reads the auth service's log lines keeps the services on its own thread, where its recording logger is.
 */
async function start(options: Partial<SystemOptions> = {}): Promise<RunningSystem> {
  const port = await freePort();
  const gateway = loadGatewayConfig({ NODE_ENV: 'test', PORT: String(port), HOST: '127.0.0.1', WEB_DIST: webDist });
  const system = await startSystem({
    logger: createLogger('test', process.env.TEST_LOG_LEVEL ?? 'silent'),
    nodeEnv: 'test',
    gateway,
    databaseUrl: database.url,
    dataDir,
    identity: TEST_IDENTITY,
    ...options,
  });
  running = { ...system, url: `http://127.0.0.1:${port}` };
  return running;
}

async function stop(): Promise<void> {
  await running?.stop();
  running = undefined;
}

const rememberedPort = () => Number(readFileSync(join(dataDir, 'dev-idp.port'), 'utf8').trim());

/** Signs in through the development provider and answers the account the gateway then serves. */
async function signInAs(system: RunningSystem, email: string, name: string): Promise<{ id: string; email: string }> {
  const { browser, landing } = await signIn(system.url, email, name);
  expect(landing.status, await landing.clone().text()).toBe(200);
  const me = await browser.get(`${system.url}/api/auth/user`);
  expect(me.status).toBe(200);
  return (await me.json()) as { id: string; email: string };
}

const linkedLogs = (records: LogRecord[]) => records.filter((r) => /linked/.test(r.msg));

describe('day two: the same person after a restart', () => {
  let ada: { id: string; email: string };

  it('keeps the development issuer across a restart, so the member lands on the same account', async () => {
    ada = await signInAs(await start(), 'ada@example.com', 'Ada Lovelace');
    const port = rememberedPort();
    await stop();

    const { logger, records } = createRecordingLogger('info');
    const again = await signInAs(await start({ logger, servicesThread: false }), 'Ada@Example.com', 'Ada Lovelace');
    expect(again).toMatchObject({ id: ada.id, email: 'ada@example.com' });
    expect(rememberedPort()).toBe(port);
    expect(linkedLogs(records)).toEqual([]); // same issuer, same identity: nothing to link
    await stop();
  });

  it('finds the account by its verified email when the issuer changed (the previous port was taken)', async () => {
    const previous = rememberedPort();
    const squatter = createServer();
    await new Promise<void>((resolve, reject) => squatter.once('error', reject).listen(previous, '127.0.0.1', resolve));
    try {
      const { logger, records } = createRecordingLogger('info');
      const system = await start({ logger, servicesThread: false });
      expect(rememberedPort()).not.toBe(previous);
      expect(records.some((r) => r.level === 40 && /previous port/.test(r.msg))).toBe(true);

      expect(await signInAs(system, 'ada@example.com', 'Ada Lovelace')).toMatchObject({ id: ada.id });
      expect(linkedLogs(records)).toEqual([
        expect.objectContaining({
          userId: ada.id,
          from: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${previous}\\|`)),
          to: expect.stringMatching(new RegExp(`^http://127\\.0\\.0\\.1:${rememberedPort()}\\|`)),
        }),
      ]);
      // Linked once: the next sign-in finds the account by its new identity.
      expect(await signInAs(system, 'ada@example.com', 'Ada Lovelace')).toMatchObject({ id: ada.id });
      expect(linkedLogs(records)).toHaveLength(1);
      await stop();
    } finally {
      await close(squatter);
    }
  });

  it('lets an explicit DEV_IDP_PORT win over the remembered one, and remembers it', async () => {
    const remembered = rememberedPort();
    const explicit = await freePort();
    const { logger, records } = createRecordingLogger('info');
    const system = await start({ logger, devIdpPort: explicit, servicesThread: false });
    expect(explicit).not.toBe(remembered);
    expect(rememberedPort()).toBe(explicit);
    expect(await signInAs(system, 'ada@example.com', 'Ada Lovelace')).toMatchObject({ id: ada.id });
    expect(linkedLogs(records)).toHaveLength(1);
    await stop();
  });
});

function close(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}
