import { prismaErrorCode, type Envelope, type Outbox } from '@snapcracks/kit';
import type { Prisma, PrismaClient, User } from './generated/prisma/client.js';

export type { User } from './generated/prisma/client.js';

/** What a new account starts with; everything else takes the table's defaults. */
export type NewUser = Pick<User, 'oidcSubject'> & Partial<Pick<User, 'email' | 'firstName' | 'lastName' | 'profileImageUrl' | 'isAdmin'>>;

/** The columns a change may set. The subject changes only through `linkSubject`; ids and timestamps never. */
export type UserChanges = Partial<Omit<User, 'id' | 'oidcSubject' | 'createdAt' | 'updatedAt'>>;

/** Builds the event that reports a change, from the row as the change left it (or, for a deletion, as it was). */
export type EventOf = (user: User) => Envelope;

/** A page of accounts, newest first, narrowed by words that must each appear in one of the account's names or its email. */
export interface UserListQuery {
  /** Each must appear, case-insensitively, in the display name, first name, last name or email; none means every account. */
  words: string[];
  offset: number;
  limit: number;
}

/** A change would give two accounts the same email or the same subject; the database refused it and nothing changed. */
export class DuplicateUserError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('Another account already has this email address or identity', options);
    this.name = 'DuplicateUserError';
  }
}

/**
 * The users table, in the service's own words. Every write commits the change and its event (outbox) in one
 * transaction, so a change is never without its event. Writes to a missing account return null, and a write
 * that would break uniqueness throws DuplicateUserError; the service turns those into the caller's errors.
 */
export interface UserRepository {
  findById(id: string): Promise<User | null>;
  findBySubject(oidcSubject: string): Promise<User | null>;
  findByEmail(email: string): Promise<User | null>;
  /** Newest first (ties by id), with how many accounts match on every page. */
  list(query: UserListQuery): Promise<{ users: User[]; total: number }>;
  /** Whether at least one enabled account is an admin. */
  hasEnabledAdmin(): Promise<boolean>;
  /** The given avatar names (custom_profile_image) that some account uses. */
  findAvatarsInUse(names: string[]): Promise<string[]>;

  create(user: NewUser, eventOf: EventOf): Promise<User>;
  update(id: string, changes: UserChanges, eventOf: EventOf): Promise<User | null>;
  /** Moves the account to another identity (`issuer|subject`), applying `changes` in the same transaction. */
  linkSubject(id: string, oidcSubject: string, changes: UserChanges, eventOf: EventOf): Promise<User | null>;
  /**
   * Returns the deleted account, or null when there was none. With `when`, deletes only while the account still has
   * those values (checked by the delete itself, so a concurrent change cannot slip in between) and answers null otherwise.
   */
  delete(id: string, eventOf: EventOf, when?: DeleteCondition): Promise<User | null>;
}

/** What an account must still be for a delete to go ahead. */
export type DeleteCondition = Partial<Pick<User, 'isAdmin'>>;

type Tx = Prisma.TransactionClient;

/** The only module of the auth service that talks to Prisma. */
export class PrismaUserRepository implements UserRepository {
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

  async list(query: UserListQuery): Promise<{ users: User[]; total: number }> {
    const where: Prisma.UserWhereInput = {
      AND: query.words.map((word) => {
        // Prisma passes `contains` into ILIKE as is: its wildcards must stay plain characters.
        const contains = { contains: word.replace(/[\\%_]/g, '\\$&'), mode: 'insensitive' } as const;
        return { OR: [{ displayName: contains }, { firstName: contains }, { lastName: contains }, { email: contains }] };
      }),
    };
    // One snapshot for the page and the count, so the total always agrees with the rows.
    const [users, total] = await this.prisma.$transaction([
      this.prisma.user.findMany({ where, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }], skip: query.offset, take: query.limit }),
      this.prisma.user.count({ where }),
    ], { isolationLevel: 'RepeatableRead' });
    return { users, total };
  }

  async hasEnabledAdmin(): Promise<boolean> {
    return (await this.prisma.user.findFirst({ where: { isAdmin: true, isEnabled: true }, select: { id: true } })) !== null;
  }

  async findAvatarsInUse(names: string[]): Promise<string[]> {
    if (names.length === 0) return [];
    const rows = await this.prisma.user.findMany({ where: { customProfileImage: { in: names } }, select: { customProfileImage: true }, distinct: ['customProfileImage'] });
    return rows.map((row) => row.customProfileImage).filter((name): name is string => name !== null);
  }

  create(user: NewUser, eventOf: EventOf): Promise<User> {
    return this.commit((tx) => tx.user.create({ data: user }), eventOf);
  }

  update(id: string, changes: UserChanges, eventOf: EventOf): Promise<User | null> {
    return nullIfMissing(this.commit((tx) => tx.user.update({ where: { id }, data: changes }), eventOf));
  }

  linkSubject(id: string, oidcSubject: string, changes: UserChanges, eventOf: EventOf): Promise<User | null> {
    return nullIfMissing(this.commit((tx) => tx.user.update({ where: { id }, data: { ...changes, oidcSubject } }), eventOf));
  }

  delete(id: string, eventOf: EventOf, when: DeleteCondition = {}): Promise<User | null> {
    return nullIfMissing(this.commit((tx) => tx.user.delete({ where: { id, ...when } }), eventOf));
  }

  /** Runs one write and records its event in the outbox of the same transaction. */
  private async commit(write: (tx: Tx) => Promise<User>, eventOf: EventOf): Promise<User> {
    let user: User;
    try {
      user = await this.prisma.$transaction(async (tx) => {
        const row = await write(tx);
        await this.outbox.enqueue(tx, eventOf(row));
        return row;
      });
    } catch (error) {
      if (prismaErrorCode(error) === 'P2002') throw new DuplicateUserError({ cause: error });
      throw error;
    }
    this.outbox.nudge();
    return user;
  }
}

/** Prisma's "record to update or delete not found" (P2025) means there was no such account. */
async function nullIfMissing(write: Promise<User>): Promise<User | null> {
  try {
    return await write;
  } catch (error) {
    if (prismaErrorCode(error) === 'P2025') return null;
    throw error;
  }
}
