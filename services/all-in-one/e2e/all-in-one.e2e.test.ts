import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startProduct } from './product.js';
import { signIn } from '../test/sign-in.js';
import { freePort } from '../src/free-port.js';

const dataDir = mkdtempSync(join(tmpdir(), 'snapcracks-aio-'));
// As root, PostgreSQL runs as its own user, which must be able to enter the directory (mkdtemp makes it 0700).
chmodSync(dataDir, 0o755);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** `pnpm start` with nothing configured: embedded PostgreSQL under DATA_DIR, the in-process bus. */
const embedded = { DATABASE_URL: '', NATS_URL: '', DATA_DIR: dataDir };
const postgresProcesses = () => execFileSync('ps', ['-eo', 'args']).toString().split('\n').filter((line) => line.includes(dataDir)).length;

describe('all-in-one mode with nothing installed', () => {
  it('runs on an embedded database, stops cleanly, and keeps accounts and sessions across a restart', async () => {
    const port = await freePort();
    const first = await startProduct(embedded, port);
    const { browser } = await signIn(first.url, 'keeper@example.com', 'Kee Per');
    const accepted = await browser.request(`${first.url}/api/auth/accept-terms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: first.url },
      body: JSON.stringify({ hasAcceptedTerms: true }),
    });
    expect(accepted.status).toBe(200);
    expect(postgresProcesses()).toBeGreaterThan(0);
    await first.stop();
    expect(first.exitCode(), first.output()).toBe(0);
    expect(postgresProcesses()).toBe(0);

    const second = await startProduct(embedded, port);
    try {
      const me = await browser.get(`${second.url}/api/auth/user`);
      expect(me.status).toBe(200);
      expect(await me.json()).toMatchObject({ email: 'keeper@example.com', hasAcceptedTerms: true });
    } finally {
      await second.stop();
    }
  });
});
