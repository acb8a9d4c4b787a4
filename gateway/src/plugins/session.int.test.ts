import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyMigrations, createLogger, openDatabase, type Database } from '@snapcracks/kit';
import { createTestDatabase, type TestDatabase } from '@snapcracks/kit/testing';
import { PrismaClient } from '../generated/prisma/client.js';
import { gatewayDatabase } from '../gateway.js';
import { PrismaSessionStore, storedSessionId } from '../session-store.js';
import session, { SESSION_COOKIE } from './session.js';

const HOUR = 3600 * 1000;
// A cookie @fastify/session 11 issued with this secret, and the id it carries.
const OLD_SECRET = 'an old secret that is at least 32 characters long';
const OLD_COOKIE = 'mpNIOCn0ZOwG1JiDyYJDSuiTtadRBKaN.Rd/wremWZhgmFls69JAqb/KjrjDGUimqJxA7RDdAa4Y';
const OLD_ID = 'mpNIOCn0ZOwG1JiDyYJDSuiTtadRBKaN';

let database: TestDatabase;
let db: Database<PrismaClient>;
let app: FastifyInstance;

beforeAll(async () => {
  database = await createTestDatabase('gateway_session_plugin');
  await applyMigrations({ databaseUrl: database.url, ...gatewayDatabase });
  db = openDatabase(PrismaClient, { databaseUrl: database.url, schema: gatewayDatabase.schema, logger: createLogger('test', 'silent') });
  const store = new PrismaSessionStore(db.prisma, db.pool, { idleMs: 24 * HOUR, maxMs: 72 * HOUR, pendingMs: HOUR / 4 });
  app = Fastify();
  await app.register(session, { secret: OLD_SECRET, store, maxAgeMs: 72 * HOUR });
  app.get('/me', async (request) => ({ ...request.session }));
  app.get('/start', async (request) => {
    request.session.pendingSignIn = { codeVerifier: 'v', state: 's', nonce: 'n', redirectUri: 'http://localhost/api/callback' };
    return {};
  });
  app.get('/sign-in', async (request) => {
    await request.session.regenerate();
    request.session.userId = 'user-2';
    request.session.signedInAt = Date.now();
    return {};
  });
  app.get('/logout', async (request) => {
    await request.session.destroy();
    return {};
  });
  await app.ready();
});
afterAll(async () => {
  await app?.close();
  await db?.close();
  await database?.drop();
});

const get = (url: string, cookie?: string) => app.inject({ method: 'GET', url, headers: cookie ? { cookie: `${SESSION_COOKIE}=${cookie}` } : {} });
/** The cookie value a Set-Cookie header carries, decoded as a browser's Cookie header is read back. */
const cookieOf = (header: unknown) => decodeURIComponent(String(header).slice(SESSION_COOKIE.length + 1).split(';')[0]!);
const rows = async () => (await db.prisma.session.findMany({ orderBy: { sid: 'asc' } })).map(({ sid, sess }) => ({ sid, sess }));

describe('the session plugin on PostgreSQL', () => {
  it('keeps a session @fastify/session wrote, with the cookie it issued', async () => {
    const now = Date.now();
    // The row exactly as @fastify/session 11 stored it.
    const sess = {
      cookie: {
        path: '/',
        domain: null,
        secure: false,
        expires: new Date(now + 71 * HOUR).toISOString(),
        httpOnly: true,
        sameSite: 'lax',
        originalMaxAge: 72 * HOUR,
        originalExpires: new Date(now + 71 * HOUR - 142).toISOString(),
      },
      userId: 'user-1',
      idToken: 'id.token.value',
      signedInAt: now - HOUR,
    };
    await db.prisma.session.create({ data: { sid: OLD_ID, sess, expire: new Date(now + 23 * HOUR) } });

    const response = await get('/me', OLD_COOKIE);
    expect(response.json()).toEqual({ userId: 'user-1', idToken: 'id.token.value', signedInAt: now - HOUR });
    expect(response.headers['set-cookie']).toBeUndefined();
    // Read once, it is stored again under its id's hash, the same cookie still naming it.
    expect(await rows()).toEqual([{ sid: storedSessionId(OLD_ID), sess }]);

    // Changed, it is written back under the same id, in the new shape, and the same cookie renewed.
    const changed = await get('/start', OLD_COOKIE);
    expect(cookieOf(changed.headers['set-cookie'])).toBe(OLD_COOKIE);
    const { cookie: _, ...fields } = sess;
    expect(await rows()).toEqual([{ sid: storedSessionId(OLD_ID), sess: { ...fields, pendingSignIn: expect.objectContaining({ state: 's' }) } }]);

    await get('/logout', OLD_COOKIE);
    expect(await rows()).toEqual([]);
    expect((await get('/me', OLD_COOKIE)).json()).toEqual({});
  });

  it('signs in with one row, reads it without writing, and deletes it at sign-out', async () => {
    const started = cookieOf((await get('/start')).headers['set-cookie']);
    const signedIn = cookieOf((await get('/sign-in', started)).headers['set-cookie']);
    const [row] = await rows();
    expect(await rows()).toHaveLength(1);
    expect(row!.sess).toEqual({ userId: 'user-2', signedInAt: expect.any(Number) });
    // The row holds the hash of the id the cookie carries, never the id.
    const id = signedIn.slice(0, signedIn.lastIndexOf('.'));
    expect(row!.sid).toBe(storedSessionId(id));
    expect(row!.sid).not.toContain(id);
    const { expire } = await db.prisma.session.findUniqueOrThrow({ where: { sid: row!.sid } });

    for (let i = 0; i < 3; i += 1) {
      const response = await get('/me', signedIn);
      expect(response.json()).toMatchObject({ userId: 'user-2' });
      expect(response.headers['set-cookie']).toBeUndefined();
    }
    expect(await db.prisma.session.findUniqueOrThrow({ where: { sid: row!.sid } })).toEqual({ sid: row!.sid, sess: row!.sess, expire });

    await get('/logout', signedIn);
    expect(await rows()).toEqual([]);
    expect((await get('/me', signedIn)).json()).toEqual({});
  });
});
