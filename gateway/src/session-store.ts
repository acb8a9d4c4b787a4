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
 * Sessions in the gateway's `sessions` table (sid, sess json, expire), so every gateway replica shares
 * them and a restart signs nobody out. `expire` is the sooner of the idle deadline (slid forward by use,
 * at most once an hour) and the absolute one (sign-in + max); expired rows are ignored on read and swept.
 */
export class PrismaSessionStore implements SessionStore {
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
    this.prisma.session
      .upsert({ where: { sid }, create: { sid, sess, expire }, update: { sess, expire } })
      .then(() => callback(), callback);
  }

  /** Runs on every signed-in request. */
  get(sid: string, callback: (error: unknown, session?: Session | null) => void): void {
    this.reader.query<{ sess: Session; expire: Date }>('SELECT sess, expire FROM gateway.sessions WHERE sid = $1 AND expire > now()', [sid]).then(
      ({ rows }) => {
        const row = rows[0];
        if (row?.sess.userId) this.slide(sid, row.sess, row.expire);
        callback(null, row?.sess ?? null);
      },
      (error) => callback(error),
    );
  }

  destroy(sid: string, callback: Callback): void {
    this.prisma.session.deleteMany({ where: { sid } }).then(() => callback(), callback);
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
