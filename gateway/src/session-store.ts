import type { SessionStore } from '@fastify/session';
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
    private readonly ttlMs: number,
  ) {}

  set(sid: string, session: Session, callback: Callback): void {
    const expire = session.cookie?.expires ? new Date(session.cookie.expires) : new Date(Date.now() + this.ttlMs);
    const sess = JSON.parse(JSON.stringify(session)) as object;
    this.prisma.session
      .upsert({ where: { sid }, create: { sid, sess, expire }, update: { sess, expire } })
      .then(() => callback(), callback);
  }

  get(sid: string, callback: (error: unknown, session?: Session | null) => void): void {
    this.prisma.session.findUnique({ where: { sid } }).then(
      (row) => callback(null, row && row.expire > new Date() ? (row.sess as unknown as Session) : null),
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
