// The services as split mode and the chart run them: the migration job (its real entry point, as split mode starts it)
// makes a role per component, and each service then runs on its own role's connection string alone. Every service
// starts (its consumers, its outbox relay if it publishes, background work on its own schema, the stats rebuild),
// serves a call that writes and publishes or reads, and nothing is refused for want of a right.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  IdentityKeyring,
  IdentitySigner,
  createMemoryEventBus,
  createServiceClient,
  startOrder,
  type Envelope,
  type Platform,
  type RunningComponent,
} from '@snapcracks/kit';
import { createRecordingLogger, createTestDatabase, openTestPool, testDatabaseServerUrl, type TestDatabase } from '@snapcracks/kit/testing';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { SupportServiceClient } from '@snapcracks/proto/support/v1';
import { SERVICES } from '../src/modules.js';
import { componentDatabaseUrls, dropComponentRoles, runMigrationJob } from '../../../scripts/db/migration-job.js';

const { logger, records } = createRecordingLogger('warn');
const bus = createMemoryEventBus({ logger });
const identity = IdentityKeyring.generate();
const cleanups: (() => Promise<void> | void)[] = [];
let database: TestDatabase;
let urls: Record<string, string>;
let platform: Platform;

beforeAll(async () => {
  database = await createTestDatabase('roles_system');
  urls = componentDatabaseUrls(database.url);
  await runMigrationJob(database.url, urls);
  // A rebuild a migration asked for, which stats runs when it starts: its table lock and temporary tables on its own role.
  const admin = openTestPool(database.url, 1);
  await admin.query(`INSERT INTO stats.rebuild_requests ("reason") VALUES ('a test')`);
  await admin.end();
  const dataDir = await mkdtemp(join(tmpdir(), 'roles-system-'));
  cleanups.push(() => rm(dataDir, { recursive: true, force: true }));
  platform = { nodeEnv: 'test', logger, bus, databaseUrl: database.url, dataDir, identity, addresses: {} };
  const running: RunningComponent[] = [];
  for (const service of startOrder(SERVICES)) {
    // Its own role's URL, nothing else: the shared addresses object still tells it where its peers are.
    const component = await service.start({ ...platform, databaseUrl: urls[service.name]! }, { host: '127.0.0.1', port: 0 });
    cleanups.push(() => component.stop());
    running.push(component);
    platform.addresses[service.name] = `127.0.0.1:${component.port}`;
  }
  for (const component of running) component.activate?.();
}, 120_000);

afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  await bus.close();
  await database?.drop();
  if (database) await dropComponentRoles(database.url);
  const left = openTestPool(testDatabaseServerUrl(), 1);
  const { rows } = await left.query('SELECT rolname FROM pg_roles WHERE rolname = ANY($1::text[])', [Object.values(urls ?? {}).map((url) => new URL(url).username)]);
  await left.end();
  expect(rows).toEqual([]);
});

describe('each service on its own database role', () => {
  it('connects as that role, serves calls that write and publish through the outbox or read, and is refused nothing', async () => {
    const published: Envelope[] = [];
    await bus.subscribe(async (event) => void published.push(event), { durable: 'roles-test', types: ['support.contact_form.submitted'] });
    const client = createServiceClient(SupportServiceClient, platform.addresses.support!, { signer: new IdentitySigner(identity, 'gateway'), peer: 'support', deadlineMs: 30_000 });
    cleanups.push(() => client.close());
    const { contactForm } = await client.call.submitContactForm({ name: 'Sam', email: 'sam@example.com', subject: 'Hi', message: 'Hello' }, { caller: null });
    expect(contactForm?.id).toBe(1);
    await vi.waitFor(() => expect(published.map((e) => e.type)).toEqual(['support.contact_form.submitted']), { timeout: 10_000 });
    // Moderation and storage publish nothing, so nothing of theirs touches the database until they serve a read.
    const asGateway = { signer: new IdentitySigner(identity, 'gateway'), deadlineMs: 30_000 };
    const moderation = createServiceClient(ModerationServiceClient, platform.addresses.moderation!, { ...asGateway, peer: 'moderation' });
    const storage = createServiceClient(StorageServiceClient, platform.addresses.storage!, { ...asGateway, peer: 'storage' });
    cleanups.push(() => moderation.close(), () => storage.close());
    await expect(moderation.call.listActions({ photoIds: [], limit: 0 }, { caller: { userId: 'admin', isAdmin: true, hasAcceptedTerms: true } })).resolves.toEqual({ actions: [] });
    const readMissingBlob = async () => {
      for await (const message of storage.serverStream('getBlob', { key: 'local:photos/none.webp' }, { caller: null })) void message;
    };
    await expect(readMissingBlob()).rejects.toMatchObject({ details: 'File not found' });

    // Every pool of every service connected as its own role: PostgreSQL says so.
    const admin = openTestPool(database.url, 1);
    cleanups.push(() => admin.end());
    const { rows } = await admin.query<{ role: string; app: string }>(
      `SELECT DISTINCT usename AS "role", application_name AS "app" FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'snapcracks-%' ORDER BY 2`,
    );
    expect(rows.length).toBeGreaterThanOrEqual(SERVICES.length);
    for (const { role, app } of rows) expect(role, app).toBe(new URL(urls[app.replace(/^snapcracks-/, '').replace(/-.*$/, '')]!).username);

    // The requested stats rebuild ran (on the stats role), and a moment for the relays and background jobs.
    await vi.waitFor(async () => expect((await admin.query('SELECT count(*)::int AS "n" FROM stats.rebuild_requests')).rows[0].n).toBe(0), { timeout: 15_000 });
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(JSON.stringify(records)).not.toMatch(/permission denied/i);
  }, 60_000);
});
