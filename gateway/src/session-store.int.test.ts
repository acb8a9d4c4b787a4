import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { gatewayDatabase } from './gateway.js';
import { PrismaSessionStore } from './session-store.js';

const HOUR = 3600 * 1000;
let database: TestDatabase;
let db: Database<PrismaClient>;
let now = Date.now();
let store: PrismaSessionStore;

beforeAll(async () => {
  database = await createTestDatabase('gateway_sessions');
  await applyMigrations({ databaseUrl: database.url, ...gatewayDatabase });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: gatewayDatabase.schema, logger: createLogger('test', 'silent') });
  store = new PrismaSessionStore(db.prisma, db.pool, { idleMs: 24 * HOUR, maxMs: 72 * HOUR, pendingMs: HOUR / 4 }, () => now);
});
afterAll(async () => {
  await db?.close();
  await database?.drop();
});

type Stored = Parameters<PrismaSessionStore['set']>[1];
const session = (fields: object) => ({ cookie: { originalMaxAge: null }, ...fields }) as unknown as Stored;
const set = (sid: string, s: Stored) => new Promise<void>((resolve, reject) => store.set(sid, s, (e) => (e ? reject(e as Error) : resolve())));
const get = (sid: string) => new Promise<Stored | null>((resolve, reject) => store.get(sid, (e, s) => (e ? reject(e as Error) : resolve(s ?? null))));
const expireOf = async (sid: string) => (await db.prisma.session.findUniqueOrThrow({ where: { sid } })).expire.getTime();

describe('sessions in PostgreSQL', () => {
  it('keeps an unfinished sign-in for minutes, not days', async () => {
    now = Date.now();
    await set('pending', session({ pendingSignIn: { state: 's' } }));
    expect(await expireOf('pending')).toBe(now + HOUR / 4);
  });

  it('ends a signed-in session after the idle time, sliding it forward with use but never past the maximum', async () => {
    const signedInAt = Date.now();
    now = signedInAt;
    await set('member', session({ userId: 'u1', signedInAt }));
    expect(await expireOf('member')).toBe(signedInAt + 24 * HOUR);

    now = signedInAt + 30 * 60 * 1000; // used half an hour later: not worth a write yet
    expect(await get('member')).toMatchObject({ userId: 'u1' });
    expect(await expireOf('member')).toBe(signedInAt + 24 * HOUR);

    now = signedInAt + 2 * HOUR; // used two hours later: the idle deadline moves
    await get('member');
    await expect.poll(() => expireOf('member')).toBe(now + 24 * HOUR);

    // Much later, within the idle window each time: capped at sign-in + the maximum.
    await db.prisma.session.update({ where: { sid: 'member' }, data: { expire: new Date(signedInAt + 70 * HOUR) } });
    now = signedInAt + 60 * HOUR;
    await get('member');
    await expect.poll(() => expireOf('member')).toBe(signedInAt + 72 * HOUR);
    now = signedInAt + 71 * HOUR;
    await set('member', session({ userId: 'u1', signedInAt }));
    expect(await expireOf('member')).toBe(signedInAt + 72 * HOUR);
  });

  it('does not answer an expired session', async () => {
    now = Date.now();
    await set('old', session({ userId: 'u2', signedInAt: now - 100 * HOUR }));
    expect(await get('old')).toBeNull();
  });
});
