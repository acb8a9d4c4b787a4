import type { Envelope, Outbox } from '@snapcracks/kit';
import type { PrismaClient, ContactForm as Row } from './generated/prisma/client.js';

export const CONTACT_FORM_STATUSES = ['new', 'in_progress', 'resolved'] as const;
export type ContactFormStatus = (typeof CONTACT_FORM_STATUSES)[number];

/** A message sent through the contact form, as stored. */
export interface ContactForm {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: ContactFormStatus;
  /** The member who sent it while signed in; null for a visitor's message. */
  userId: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A submission that passed the rules: every field already trimmed and within its limits. */
export interface NewContactForm {
  name: string;
  email: string;
  subject: string;
  message: string;
  userId?: string | null;
}

/** How many forms are at each status, and in all. */
export type StatusCounts = Record<ContactFormStatus, number> & { total: number };

export interface ContactFormQuery {
  /** Only the forms at this status; null for every status. */
  status: ContactFormStatus | null;
  /** Already validated. */
  offset: number;
  limit: number;
}

/** What a status change did: the form as it now is, and whether it changed (an unchanged form wrote nothing). */
export interface StatusChange {
  form: ContactForm;
  changed: boolean;
}

/** Builds the event that reports a change, from the form as the change left it. */
export type EventOf = (form: ContactForm) => Envelope;

/**
 * Contact forms in the service's own words. Each change and its event commit in one transaction.
 */
export interface ContactFormRepository {
  /** Stores a new form (status new) with the event `eventOf` builds for it. */
  create(form: NewContactForm, eventOf: EventOf): Promise<ContactForm>;
  /** Newest first (creation time, then id). */
  list(query: ContactFormQuery): Promise<ContactForm[]>;
  countByStatus(): Promise<StatusCounts>;
  /** The member's own forms, newest first. */
  listByUser(userId: string): Promise<ContactForm[]>;
  /**
   * Sets the form's status with the event `eventOf` builds, unless it already has that status (then nothing is
   * written and no event made). Null when there is no such form. Concurrent changes of one form queue on its row,
   * so their events are written in the order the changes commit.
   */
  setStatus(id: number, status: ContactFormStatus, eventOf: EventOf): Promise<StatusChange | null>;
}

/** The only module of the support service that talks to Prisma. */
export class PrismaContactFormRepository implements ContactFormRepository {
  constructor(
    private readonly prisma: PrismaClient,
    private readonly outbox: Outbox,
  ) {}

  async create(form: NewContactForm, eventOf: EventOf): Promise<ContactForm> {
    const created = await this.prisma.$transaction(async (tx) => {
      const stored = toContactForm(await tx.contactForm.create({ data: { ...form, status: 'new' } }));
      await this.outbox.enqueue(tx, eventOf(stored));
      return stored;
    });
    this.outbox.nudge();
    return created;
  }

  async list({ status, offset, limit }: ContactFormQuery): Promise<ContactForm[]> {
    const rows = await this.prisma.contactForm.findMany({
      where: status === null ? {} : { status },
      orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
      skip: offset,
      take: limit,
    });
    return rows.map(toContactForm);
  }

  async listByUser(userId: string): Promise<ContactForm[]> {
    const rows = await this.prisma.contactForm.findMany({ where: { userId }, orderBy: [{ createdAt: 'desc' }, { id: 'desc' }] });
    return rows.map(toContactForm);
  }

  async countByStatus(): Promise<StatusCounts> {
    const groups = await this.prisma.contactForm.groupBy({ by: ['status'], _count: { _all: true } });
    const counts: StatusCounts = { new: 0, in_progress: 0, resolved: 0, total: 0 };
    for (const group of groups) {
      counts[group.status] = group._count._all;
      counts.total += group._count._all;
    }
    return counts;
  }

  async setStatus(id: number, status: ContactFormStatus, eventOf: EventOf): Promise<StatusChange | null> {
    const change = await this.prisma.$transaction(async (tx): Promise<StatusChange | null> => {
      // The update locks the row: a concurrent change of the same form waits for this one to commit, then checks
      // its condition against the status this one left, so the events follow the order of the changes.
      const { count } = await tx.contactForm.updateMany({ where: { id, status: { not: status } }, data: { status } });
      const row = await tx.contactForm.findUnique({ where: { id } });
      if (!row) return null;
      const form = toContactForm(row);
      if (count === 0) return { form, changed: false };
      await this.outbox.enqueue(tx, eventOf(form));
      return { form, changed: true };
    });
    if (change?.changed) this.outbox.nudge();
    return change;
  }
}

function toContactForm(row: Row): ContactForm {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    subject: row.subject,
    message: row.message,
    status: row.status,
    userId: row.userId,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
