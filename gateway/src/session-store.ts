import type { SessionStore } from '@fastify/session';
import type pg from 'pg';
import type { PrismaClient } from './generated/prisma/client.js';

type Session = Parameters<SessionStore['set']>[1];
type Callback = (error?: unknown) => void;

export interface SessionLifetimes {
  /** A signed-in session unused for this long ends. */
  idleMs: number;
  /** A signed-in session ends this long after sign-in, however much it is used. */
  maxMs: number;
  /** A sign-in that was started and never finished (the row exists only to carry PKCE state). */
  pendingMs: number;
}

/** How stale `expire` may get before a request moves it: at most one write per session per this interval. */
const SLIDE_INTERVAL_MS = 60 * 60 * 1000;
/**
 * How long a replica reuses a signed-in session it read: a page's parallel API calls and a member's burst of votes cost
 * one read. This replica forgets a session at once when it ends or changes here; another replica may honour a signed-out
 * session for this long.
 */
export const SESSION_REUSE_MS = 2_000;
const REUSE_LIMIT = 10_000;

/** A signed-in session holds plain values and its cookie's, so two levels copy it; a sign-in under way is copied whole. */
function copyOf(session: Session): Session {
  if (session.pendingSignIn) return structuredClone(session);
  return { ...session, cookie: { ...session.cookie } } as Session;
}

interface SessionRow {
  sess: Session;
  expire: Date;
}

interface Reusable {
  session: Session;
  /** The row's `expire`, epoch ms. */
  expire: number;
  /** Reused until then, epoch ms. */
  until: number;
}

/**
 * Sessions in the gateway's `sessions` table (sid, sess json, expire), so every gateway replica shares
 * them and a restart signs nobody out. `expire` is the sooner of the idle deadline (slid forward by use,
 * at most once an hour) and the absolute one (sign-in + max); expired rows are ignored on read and swept.
 * A signed-in session read is reused for SESSION_REUSE_MS, and concurrent reads of one session share one query.
 */
export class PrismaSessionStore implements SessionStore {
  private readonly reusable = new Map<string, Reusable>();
  private readonly reading = new Map<string, Promise<SessionRow | undefined>>();

  constructor(
    private readonly prisma: PrismaClient,
    /** Reads on the hot path go straight to the driver: Prisma's per-call overhead dominated a signed-in request. */
    private readonly reader: pg.Pool,
    private readonly lifetimes: SessionLifetimes,
    private readonly now: () => number = Date.now,
  ) {}

  set(sid: string, session: Session, callback: Callback): void {
    const expire = this.expiryOf(session);
    const sess = JSON.parse(JSON.stringify(session)) as object;
    // Forgotten before and after the write: a read that overlapped it may have seen the old row.
    this.forget(sid);
    this.prisma.session
      .upsert({ where: { sid }, create: { sid, sess, expire }, update: { sess, expire } })
      .finally(() => this.forget(sid))
      .then(() => callback(), callback);
  }

  /** Runs on every signed-in request. Each caller gets its own copy: @fastify/session keeps and changes what it is given. */
  get(sid: string, callback: (error: unknown, session?: Session | null) => void): void {
    const now = this.now();
    const known = this.reusable.get(sid);
    if (known && now < known.until && now < known.expire) return callback(null, copyOf(known.session));
    this.read(sid, now).then(
      (row) => callback(null, row ? copyOf(row.sess) : null),
      (error) => callback(error),
    );
  }

  private read(sid: string, now: number): Promise<SessionRow | undefined> {
    const inFlight = this.reading.get(sid);
    if (inFlight) return inFlight;
    const pending: Promise<SessionRow | undefined> = this.reader
      .query<SessionRow>('SELECT sess, expire FROM gateway.sessions WHERE sid = $1 AND expire > now()', [sid])
      .then(({ rows }) => {
        const row = rows[0];
        if (row?.sess.userId) {
          this.slide(sid, row.sess, row.expire);
          // Not when the session ended or changed here while it was being read (forget() dropped this read).
          if (this.reading.get(sid) === pending) this.remember(sid, row, now);
        }
        return row;
      })
      .finally(() => {
        if (this.reading.get(sid) === pending) this.reading.delete(sid);
      });
    this.reading.set(sid, pending);
    return pending;
  }

  private remember(sid: string, row: SessionRow, now: number): void {
    if (this.reusable.size >= REUSE_LIMIT) this.reusable.clear();
    this.reusable.set(sid, { session: row.sess, expire: row.expire.getTime(), until: now + SESSION_REUSE_MS });
  }

  private forget(sid: string): void {
    this.reusable.delete(sid);
    this.reading.delete(sid);
  }

  destroy(sid: string, callback: Callback): void {
    this.forget(sid);
    this.prisma.session
      .deleteMany({ where: { sid } })
      .finally(() => this.forget(sid))
      .then(() => callback(), callback);
  }

  async sweepExpired(): Promise<number> {
    const { count } = await this.prisma.session.deleteMany({ where: { expire: { lt: new Date() } } });
    return count;
  }

  private expiryOf(session: Session): Date {
    const now = this.now();
    if (!session.userId) return new Date(now + this.lifetimes.pendingMs);
    const signedInAt = session.signedInAt ?? now;
    return new Date(Math.min(now + this.lifetimes.idleMs, signedInAt + this.lifetimes.maxMs));
  }

  // Moves the idle deadline forward once it is an hour old; never past the absolute one. Best effort: a
  // failed write only means the session ends an hour sooner than it could have.
  private slide(sid: string, session: Session, expire: Date): void {
    const next = this.expiryOf(session);
    if (next.getTime() - expire.getTime() < SLIDE_INTERVAL_MS) return;
    this.reader.query('UPDATE gateway.sessions SET expire = $2 WHERE sid = $1 AND expire > now()', [sid, next]).catch(() => undefined);
  }
}
