import type { SessionStore } from '@fastify/session';
import type pg from 'pg';
import type { PrismaClient } from './generated/prisma/client.js';

type Session = Parameters<SessionStore['set']>[1];
type Callback = (error?: unknown) => void;

/**
 * Sessions in the gateway's `sessions` table (sid, sess json, expire), so every gateway replica shares
 * them and a restart signs nobody out. Expired rows are ignored on read and swept periodically.
 */
export class PrismaSessionStore implements SessionStore {
  constructor(
    private readonly prisma: PrismaClient,
    /** Reads on the hot path go straight to the driver: Prisma's per-call overhead dominated a signed-in request. */
    private readonly reader: pg.Pool,
    private readonly ttlMs: number,
  ) {}

  set(sid: string, session: Session, callback: Callback): void {
    const expire = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.ttlMs);
    const sess = JSON.parse(JSON.stringify(session)) as object;
    this.prisma.session
      .upsert({ where: { sid }, create: { sid, sess, expire }, update: { sess, expire } })
      .then(() => callback(), callback);
  }

  /** Runs on every signed-in request. */
  get(sid: string, callback: (error: unknown, session?: Session | null) => void): void {
    this.reader.query<{ sess: Session }>('SELECT sess FROM gateway.sessions WHERE sid = $1 AND expire > now()', [sid]).then(
      ({ rows }) => callback(null, rows[0]?.sess ?? null),
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
}
