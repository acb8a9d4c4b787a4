import { createHash } from 'node:crypto';
import type pg from 'pg';
import { polledGauge } from '@snapcracks/kit';
import type { PrismaClient } from './generated/prisma/client.js';
import type { PendingSignIn } from './oidc.js';

/** What a session holds: the `sess` column, and what a request reads through `request.session`. */
export interface SessionData {
  userId?: string;
  /** Kept for the issuer's end-session call (id_token_hint). */
  idToken?: string;
  pendingSignIn?: PendingSignIn;
  /** Epoch ms of sign-in: the session ends SESSION_MAX_HOURS after it, however much it is used. */
  signedInAt?: number;
  /** An admin's Google Drive authorization under way: the OAuth `state` its callback must bring back, once. */
  driveAuthorization?: DriveAuthorizationState;
}

export interface DriveAuthorizationState {
  state: string;
  /** Epoch ms after which the callback is refused. */
  expiresAt: number;
}

/**
 * Where sessions live. What `recent` and `get` answer is frozen and may be shared by concurrent requests: a request
 * that changes its session works on a copy (plugins/session.ts).
 */
export interface SessionStore {
  /** The session when this replica read it within SESSION_REUSE_MS and it has not expired since; no query. */
  recent(sid: string): Readonly<SessionData> | undefined;
  /** The session, or null when there is none or it has expired. */
  get(sid: string): Promise<Readonly<SessionData> | null>;
  set(sid: string, session: SessionData): Promise<void>;
  destroy(sid: string): Promise<void>;
}

export interface SessionLifetimes {
  /** A signed-in session unused for this long ends. */
  idleMs: number;
  /** A signed-in session ends this long after sign-in, however much it is used. */
  maxMs: number;
  /** A sign-in that was started and never finished (the row exists only to carry PKCE state). */
  pendingMs: number;
}

/** Counting sessions reads the whole table: once a minute at most, however often metrics are collected. */
const observeActiveSessions = polledGauge({
  name: 'snapcracks.active_sessions',
  description: 'Signed-in sessions that have not expired (every replica reports the same shared table)',
  unit: '{session}',
  refreshMs: 60_000,
});

/** How stale `expire` may get before a request moves it: at most one write per session per this interval. */
const SLIDE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * How long a replica reuses a signed-in session it read: a page's parallel API calls and a member's burst of votes cost
 * one read. This replica forgets a session at once when it ends or changes here; another replica may honour a signed-out
 * session for this long.
 */
export const SESSION_REUSE_MS = 2_000;
const REUSE_LIMIT = 10_000;

/**
 * A `sess` column as stored. Rows written before the gateway had its own session plugin (by @fastify/session) also
 * carry their cookie's settings, whose `expires` ended the session too; rows written since hold the fields only.
 */
interface StoredSession extends SessionData {
  cookie?: { expires?: string | null };
}

interface SessionRow {
  sid: string;
  sess: StoredSession;
  expire: Date;
}

interface Session {
  data: Readonly<SessionData>;
  /** When it ends, epoch ms. */
  expire: number;
}

interface Reusable extends Session {
  /** Reused until then, epoch ms. */
  until: number;
}

/**
 * What the `sid` column holds for a session id: its SHA-256 in hex, so a copy of the table (a dump, a backup, a
 * replica's logs of its queries) hands out no live session: the cookie carries the id, only the gateway can sign one.
 * 64 hex digits, never the 32 characters of an id, so a row still holding an id in clear is told apart.
 */
export function storedSessionId(id: string): string {
  return createHash('sha256').update(id).digest('hex');
}

/**
 * The id as an older gateway stored it, in clear; never a hash itself, so that knowing a row's stored value (from a
 * copy of the table) cannot name its session even with a cookie signed for it.
 */
function clearSessionId(id: string): string | undefined {
  return /^[0-9a-f]{64}$/.test(id) ? undefined : id;
}

/** The same hash in SQL, for rows written before ids were hashed (sweepExpired). */
const STORED_ID_SQL = "encode(sha256(convert_to(sid, 'UTF8')), 'hex')";
const HASHED_ID_PATTERN = "'^[0-9a-f]{64}$'";

/**
 * Sessions in the gateway's `sessions` table (sid = storedSessionId(id), sess json, expire), so every gateway replica
 * shares them and a restart signs nobody out. A row written before ids were hashed (sid = the id itself) is still
 * read, once: it is stored again under the hash as it is read, and the periodic sweep hashes those no one used. `expire` is the sooner of the idle deadline (slid forward by use,
 * at most once an hour) and the absolute one (sign-in + max); expired rows are ignored on read and swept.
 * A signed-in session read is reused for SESSION_REUSE_MS, and concurrent reads of one session share one query.
 */
export class PrismaSessionStore implements SessionStore {
  private readonly reusable = new Map<string, Reusable>();
  private readonly reading = new Map<string, Promise<Session | null>>();

  constructor(
    private readonly prisma: PrismaClient,
    /** Reads on the hot path go straight to the driver: Prisma's per-call overhead dominated a signed-in request. */
    private readonly reader: pg.Pool,
    private readonly lifetimes: SessionLifetimes,
    private readonly now: () => number = Date.now,
  ) {}

  async set(sid: string, session: SessionData): Promise<void> {
    const expire = this.expiryOf(session);
    const sess = fieldsOf(session) as object;
    // Forgotten before and after the write: a read that overlapped it may have seen the old row.
    this.forget(sid);
    const stored = storedSessionId(sid);
    try {
      await this.prisma.session.upsert({ where: { sid: stored }, create: { sid: stored, sess, expire }, update: { sess, expire } });
    } finally {
      this.forget(sid);
    }
  }

  /** Runs on every signed-in request. */
  recent(sid: string): Readonly<SessionData> | undefined {
    const known = this.reusable.get(sid);
    if (!known) return undefined;
    const now = this.now();
    return now < known.until && now < known.expire ? known.data : undefined;
  }

  async get(sid: string): Promise<Readonly<SessionData> | null> {
    const known = this.recent(sid);
    if (known) return known;
    const now = this.now();
    return (await this.read(sid, now))?.data ?? null;
  }

  private read(sid: string, now: number): Promise<Session | null> {
    const inFlight = this.reading.get(sid);
    if (inFlight) return inFlight;
    const stored = storedSessionId(sid);
    // The hashed row, or one an older gateway wrote with the id in clear (the hashed one first should both exist).
    const pending: Promise<Session | null> = this.reader
      .query<SessionRow>('SELECT sid, sess, expire FROM gateway.sessions WHERE sid IN ($1, $2) AND expire > now() ORDER BY sid = $1 DESC LIMIT 1', [
        stored,
        clearSessionId(sid) ?? stored,
      ])
      .then(async ({ rows }) => {
        const row = rows[0];
        if (!row) return null;
        // Best effort: should the move fail, the next read tries again.
        if (row.sid !== stored) await this.storeHashed(sid, stored).catch(() => undefined);
        // An old row whose cookie expired is no session, as @fastify/session had it.
        const cookieExpires = cookieExpiryOf(row.sess);
        if (cookieExpires <= now) return null;
        const session = { data: frozen(fieldsOf(row.sess)), expire: Math.min(row.expire.getTime(), cookieExpires) };
        if (session.data.userId) {
          this.slide(sid, session.data, row.expire);
          // Not when the session ended or changed here while it was being read (forget() dropped this read).
          if (this.reading.get(sid) === pending) this.remember(sid, session, now);
        }
        return session;
      })
      .finally(() => {
        if (this.reading.get(sid) === pending) this.reading.delete(sid);
      });
    this.reading.set(sid, pending);
    return pending;
  }

  /** Moves a row written with the id in clear to the id's hash (kept as it is should both exist). */
  private async storeHashed(sid: string, stored: string): Promise<void> {
    await this.reader.query(
      `WITH old AS (DELETE FROM gateway.sessions WHERE sid = $1 RETURNING sess, expire)
       INSERT INTO gateway.sessions (sid, sess, expire) SELECT $2, sess, expire FROM old ON CONFLICT (sid) DO NOTHING`,
      [sid, stored],
    );
  }

  private remember(sid: string, session: Session, now: number): void {
    if (this.reusable.size >= REUSE_LIMIT) this.reusable.clear();
    this.reusable.set(sid, { ...session, until: now + SESSION_REUSE_MS });
  }

  private forget(sid: string): void {
    this.reusable.delete(sid);
    this.reading.delete(sid);
  }

  async destroy(sid: string): Promise<void> {
    this.forget(sid);
    try {
      // The id in clear too: a row an older gateway wrote that was never read since.
      await this.prisma.session.deleteMany({ where: { sid: { in: [storedSessionId(sid), clearSessionId(sid) ?? storedSessionId(sid)] } } });
    } finally {
      this.forget(sid);
    }
  }

  /** Reports the signed-in sessions that have not expired (snapcracks.active_sessions); returns how to stop. */
  observeActiveSessions(): () => void {
    return observeActiveSessions({ component: 'gateway' }, async () => {
      const { rows } = await this.reader.query<{ count: number }>(
        "SELECT count(*)::int AS count FROM gateway.sessions WHERE expire > now() AND sess->>'userId' IS NOT NULL",
      );
      return rows[0]?.count ?? 0;
    });
  }

  /**
   * Deletes expired rows, and stores under its hash every row still holding its id in clear (written before ids were
   * hashed, or by an older replica during an upgrade, and not read since): after a sweep the table holds no id.
   */
  async sweepExpired(): Promise<number> {
    const { count } = await this.prisma.session.deleteMany({ where: { expire: { lt: new Date() } } });
    await this.reader.query(
      `WITH old AS (DELETE FROM gateway.sessions WHERE sid !~ ${HASHED_ID_PATTERN} RETURNING sid, sess, expire)
       INSERT INTO gateway.sessions (sid, sess, expire) SELECT ${STORED_ID_SQL}, sess, expire FROM old ON CONFLICT (sid) DO NOTHING`,
    );
    return count;
  }

  private expiryOf(session: SessionData): Date {
    const now = this.now();
    if (!session.userId) return new Date(now + this.lifetimes.pendingMs);
    const signedInAt = session.signedInAt ?? now;
    return new Date(Math.min(now + this.lifetimes.idleMs, signedInAt + this.lifetimes.maxMs));
  }

  // Moves the idle deadline forward once it is an hour old; never past the absolute one. Best effort: a
  // failed write only means the session ends an hour sooner than it could have.
  private slide(sid: string, session: SessionData, expire: Date): void {
    const next = this.expiryOf(session);
    if (next.getTime() - expire.getTime() < SLIDE_INTERVAL_MS) return;
    this.reader.query('UPDATE gateway.sessions SET expire = $2 WHERE sid = $1 AND expire > now()', [storedSessionId(sid), next]).catch(() => undefined);
  }
}

/** The session's own fields, those that are set: never an old row's cookie, nor anything else a row may carry. */
function fieldsOf(session: SessionData): SessionData {
  const fields: SessionData = {};
  if (session.userId !== undefined) fields.userId = session.userId;
  if (session.idToken !== undefined) fields.idToken = session.idToken;
  if (session.pendingSignIn !== undefined) fields.pendingSignIn = session.pendingSignIn;
  if (session.signedInAt !== undefined) fields.signedInAt = session.signedInAt;
  if (session.driveAuthorization !== undefined) fields.driveAuthorization = session.driveAuthorization;
  return fields;
}

function frozen(session: SessionData): Readonly<SessionData> {
  if (session.pendingSignIn) Object.freeze(session.pendingSignIn);
  if (session.driveAuthorization) Object.freeze(session.driveAuthorization);
  return Object.freeze(session);
}

/** When an old row's cookie expires, epoch ms; Infinity for rows that carry no cookie. */
function cookieExpiryOf(sess: StoredSession): number {
  const expires = sess.cookie?.expires;
  const ends = expires ? Date.parse(expires) : Number.NaN;
  return Number.isNaN(ends) ? Infinity : ends;
}
