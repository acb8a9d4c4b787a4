import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, processMetrics, renderPrometheus, startMetrics, telemetryResource, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { gatewayDatabase } from './gateway.js';
import { PrismaSessionStore } from './session-store.js';

const HOUR = 3600 * 1000;
let database: TestDatabase;
let db: Database<PrismaClient>;
let telemetry: { shutdown(): Promise<void> };

beforeAll(async () => {
  telemetry = startMetrics({ component: 'gateway', resource: telemetryResource('gateway') });
  database = await createTestDatabase('gateway_active_sessions');
  await applyMigrations({ databaseUrl: database.url, ...gatewayDatabase });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: gatewayDatabase.schema, logger: createLogger('test', 'silent') });
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
  await telemetry?.shutdown();
});

async function activeSessions(): Promise<number | undefined> {
  const { resourceMetrics } = await processMetrics()!.prometheus.collect();
  const line = renderPrometheus(resourceMetrics)
    .split('\n')
    .find((l) => l.startsWith('snapcracks_active_sessions{component="gateway"} '));
  return line === undefined ? undefined : Number(line.split(' ')[1]);
}

describe('active sessions', () => {
  it('counts signed-in sessions that have not expired, not sign-ins under way, and reads the table at most once a minute', async () => {
    const store = new PrismaSessionStore(db.prisma, db.pool, { idleMs: 24 * HOUR, maxMs: 72 * HOUR, pendingMs: HOUR / 4 });
    const now = Date.now();
    await store.set('member-1', { userId: 'u1', signedInAt: now });
    await store.set('member-2', { userId: 'u2', signedInAt: now });
    await store.set('signing-in', { pendingSignIn: { state: 's', nonce: 'n', codeVerifier: 'v', returnTo: '/' } as never });
    await db.prisma.session.create({ data: { sid: 'expired', sess: { userId: 'u3' }, expire: new Date(now - 1000) } });

    const stop = store.observeActiveSessions();
    try {
      expect(await activeSessions()).toBe(2);
      await store.set('member-3', { userId: 'u4', signedInAt: now });
      // Still the count read a moment ago.
      expect(await activeSessions()).toBe(2);
    } finally {
      stop();
    }
  });
});
