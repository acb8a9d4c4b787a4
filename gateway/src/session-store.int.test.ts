import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from './generated/prisma/client.js';
import { gatewayDatabase } from './gateway.js';
import { PrismaSessionStore, SESSION_REUSE_MS, storedSessionId, type SessionData } from './session-store.js';

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

const session = (fields: object) => fields as SessionData;
const set = (sid: string, s: SessionData) => store.set(sid, s);
const get = (sid: string) => store.get(sid);
const expireOf = async (sid: string) => (await db.prisma.session.findUniqueOrThrow({ where: { sid: storedSessionId(sid) } })).expire.getTime();
const sids = async () => (await db.prisma.session.findMany({ select: { sid: true } })).map((row) => row.sid);

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
    await db.prisma.session.update({ where: { sid: storedSessionId('member') }, data: { expire: new Date(signedInAt + 70 * HOUR) } });
    now = signedInAt + 60 * HOUR;
    await get('member');
    await expect.poll(() => expireOf('member')).toBe(signedInAt + 72 * HOUR);
    now = signedInAt + 71 * HOUR;
    await set('member', session({ userId: 'u1', signedInAt }));
    expect(await expireOf('member')).toBe(signedInAt + 72 * HOUR);
  });

  it('stores the hash of a session id, never the id: the table hands out no live session', async () => {
    now = Date.now();
    const id = 'Zm9yIGEgdGVzdCBvbmx5LCAyNCBieXRlcw';
    await set(id, session({ userId: 'u-hashed', signedInAt: now }));
    const stored = await sids();
    expect(stored).not.toContain(id);
    expect(stored).toContain(storedSessionId(id));
    expect(storedSessionId(id)).toMatch(/^[0-9a-f]{64}$/);
    // The hash as a cookie's id names no session.
    expect(await get(storedSessionId(id))).toBeNull();
    expect(await get(id)).toMatchObject({ userId: 'u-hashed' });
    await store.destroy(id);
    expect(await sids()).not.toContain(storedSessionId(id));
  });

  describe('a session stored with its id in clear, as before ids were hashed', () => {
    const insertClear = (sid: string, sess: object, expire: number) => db.prisma.session.create({ data: { sid, sess, expire: new Date(expire) } });

    it('is read once and stored again under the hash, with the same fields and expiry', async () => {
      now = Date.now();
      await insertClear('clear-member', { userId: 'u10', signedInAt: now }, now + 24 * HOUR);
      expect(await get('clear-member')).toEqual({ userId: 'u10', signedInAt: now });
      const stored = await sids();
      expect(stored).not.toContain('clear-member');
      expect(stored).toContain(storedSessionId('clear-member'));
      expect(await expireOf('clear-member')).toBe(now + 24 * HOUR);
      now += SESSION_REUSE_MS;
      expect(await get('clear-member')).toEqual({ userId: 'u10', signedInAt: now - SESSION_REUSE_MS });
    });

    it('ends cleanly on sign-out, though never read since', async () => {
      now = Date.now();
      await insertClear('clear-signed-out', { userId: 'u11', signedInAt: now }, now + 24 * HOUR);
      await store.destroy('clear-signed-out');
      expect(await sids()).not.toContain('clear-signed-out');
      expect(await get('clear-signed-out')).toBeNull();
    });

    it('is hashed by the sweep when no one used it, and still reads afterwards', async () => {
      now = Date.now();
      await insertClear('clear-unused', { userId: 'u12', signedInAt: now }, now + 24 * HOUR);
      await insertClear('clear-expired', { userId: 'u13', signedInAt: now }, now - HOUR);
      await store.sweepExpired();
      const stored = await sids();
      expect(stored.filter((sid) => !/^[0-9a-f]{64}$/.test(sid))).toEqual([]);
      expect(stored).not.toContain(storedSessionId('clear-expired'));
      expect(await get('clear-unused')).toEqual({ userId: 'u12', signedInAt: now });
    });
  });

  it('does not answer an expired session', async () => {
    now = Date.now();
    await set('old', session({ userId: 'u2', signedInAt: now - 100 * HOUR }));
    expect(await get('old')).toBeNull();
  });

  describe('rows written by @fastify/session before the gateway had its own session plugin', () => {
    // Exactly the shape @fastify/session 11 stored: the fields plus the cookie's settings.
    const oldRow = (fields: object, cookieExpires: number) => ({
      cookie: {
        path: '/',
        domain: null,
        secure: false,
        expires: new Date(cookieExpires).toISOString(),
        httpOnly: true,
        sameSite: 'lax',
        originalMaxAge: 72 * HOUR,
        originalExpires: new Date(cookieExpires - 100).toISOString(),
      },
      ...fields,
    });
    const insert = (sid: string, sess: object, expire: number) => db.prisma.session.create({ data: { sid, sess, expire: new Date(expire) } });

    it('reads them, without their cookie', async () => {
      now = Date.now();
      const pendingSignIn = { codeVerifier: 'v', state: 's', nonce: 'n', redirectUri: 'http://localhost/api/callback' };
      await insert('old-member', oldRow({ userId: 'u7', idToken: 'id.token', signedInAt: now - HOUR }, now + 71 * HOUR), now + 23 * HOUR);
      await insert('old-pending', oldRow({ pendingSignIn }, now + 72 * HOUR), now + HOUR / 4);
      expect(await get('old-member')).toEqual({ userId: 'u7', idToken: 'id.token', signedInAt: now - HOUR });
      expect(await get('old-pending')).toEqual({ pendingSignIn });
    });

    it('ends them when their cookie expired, as @fastify/session did', async () => {
      now = Date.now();
      await insert('old-cookie-expired', oldRow({ userId: 'u8', signedInAt: now - 71 * HOUR }, now - 1000), now + HOUR);
      expect(await get('old-cookie-expired')).toBeNull();
      expect(store.recent('old-cookie-expired')).toBeUndefined();
    });

    it('writes them back with the fields only', async () => {
      now = Date.now();
      await insert('old-rewritten', oldRow({ userId: 'u9', signedInAt: now }, now + 72 * HOUR), now + 24 * HOUR);
      const read = await get('old-rewritten');
      await set('old-rewritten', { ...read, idToken: 'new' });
      expect((await db.prisma.session.findUniqueOrThrow({ where: { sid: storedSessionId('old-rewritten') } })).sess).toEqual({ userId: 'u9', signedInAt: now, idToken: 'new' });
    });
  });

  describe('reuse on one replica', () => {
    let reads = 0;
    let counted: PrismaSessionStore;
    const countedGet = (sid: string) => counted.get(sid);
    const countedSet = (sid: string, s: SessionData) => counted.set(sid, s);
    const countedDestroy = (sid: string) => counted.destroy(sid);
    const rewrite = (sid: string, fields: object) => db.prisma.session.update({ where: { sid: storedSessionId(sid) }, data: { sess: { cookie: { originalMaxAge: null }, ...fields } } });

    beforeAll(() => {
      const pool = { query: (...args: Parameters<typeof db.pool.query>) => ((reads += 1), db.pool.query(...args)) } as unknown as typeof db.pool;
      counted = new PrismaSessionStore(db.prisma, pool, { idleMs: 24 * HOUR, maxMs: 72 * HOUR, pendingMs: HOUR / 4 }, () => now);
    });

    it('reuses a signed-in session for a moment, then reads it again; concurrent reads share one query', async () => {
      now = Date.now();
      await countedSet('reused', session({ userId: 'u3', signedInAt: now }));
      reads = 0;
      const together = await Promise.all([countedGet('reused'), countedGet('reused'), countedGet('reused')]);
      expect(together.map((s) => s?.userId)).toEqual(['u3', 'u3', 'u3']);
      expect(reads).toBe(1);
      await rewrite('reused', { userId: 'u3', signedInAt: now, idToken: 'changed elsewhere' });
      expect(await countedGet('reused')).not.toHaveProperty('idToken');
      expect(reads).toBe(1);
      now += SESSION_REUSE_MS;
      expect(await countedGet('reused')).toMatchObject({ idToken: 'changed elsewhere' });
      expect(reads).toBe(2);
    });

    it('hands out a session no request can change', async () => {
      now = Date.now();
      await countedSet('copied', session({ userId: 'u4', signedInAt: now, pendingSignIn: { codeVerifier: 'v', state: 's', nonce: 'n', redirectUri: 'http://x/' } }));
      const first = (await countedGet('copied')) as SessionData;
      expect(() => (first.userId = 'tampered')).toThrow(TypeError);
      expect(() => (first.pendingSignIn!.state = 'tampered')).toThrow(TypeError);
      expect(await countedGet('copied')).toMatchObject({ userId: 'u4', pendingSignIn: { state: 's' } });
      expect(counted.recent('copied')).toMatchObject({ userId: 'u4' });
    });

    it('forgets a session at once when it ends or changes on this replica', async () => {
      now = Date.now();
      await countedSet('ending', session({ userId: 'u5', signedInAt: now }));
      expect(await countedGet('ending')).toMatchObject({ userId: 'u5' });
      await countedSet('ending', session({ userId: 'u5', signedInAt: now, idToken: 'new' }));
      expect(await countedGet('ending')).toMatchObject({ idToken: 'new' });
      await countedDestroy('ending');
      expect(await countedGet('ending')).toBeNull();
    });

    it('does not reuse an unfinished sign-in, nor a session past its expiry', async () => {
      now = Date.now();
      await countedSet('signing-in', session({ pendingSignIn: { state: 'a' } }));
      await countedGet('signing-in');
      await rewrite('signing-in', { pendingSignIn: { state: 'b' } });
      expect(await countedGet('signing-in')).toMatchObject({ pendingSignIn: { state: 'b' } });

      // Signed in 72 hours ago less 300 ms: the session ends 300 ms from now, sooner than the reuse would.
      now = Date.now();
      await countedSet('ending-soon', session({ userId: 'u6', signedInAt: now - 72 * HOUR + 300 }));
      expect(await countedGet('ending-soon')).toMatchObject({ userId: 'u6' });
      await new Promise((resolve) => setTimeout(resolve, 400));
      now = Date.now();
      expect(await countedGet('ending-soon')).toBeNull();
    });
  });
});
