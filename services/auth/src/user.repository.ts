import type { Outbox, Envelope } from '@snapcracks/kit';
import { PrismaClient, type Prisma, type User } from './generated/prisma/client.js';

export type { User } from './generated/prisma/client.js';
type Tx = Prisma.TransactionClient;

/** The only module that touches the users table; every change commits together with its event. */
export class UserRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
  ) {}

  findById(id: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { id } });
  }

  findBySubject(oidcSubject: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { oidcSubject } });
  }

  findByEmail(email: string): Promise<User | null> {
    return this.prisma.user.findUnique({ where: { email } });
  }

  list(): Promise<User[]> {
    return this.prisma.user.findMany({ orderBy: { createdAt: 'desc' } });
  }

  /** Runs `change` in a transaction and records the event it returns in the outbox of the same transaction. */
  async write<T>(change: (tx: Tx) => Promise<{ result: T; event: Envelope }>): Promise<T> {
    const result = await this.prisma.$transaction(async (tx) => {
      const { result, event } = await change(tx);
      await this.outbox.enqueue(tx, event);
      return result;
    });
    this.outbox.nudge();
    return result;
  }
}
