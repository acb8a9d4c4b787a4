import type { Prisma, PrismaClient, ReasonTemplate as Row } from './generated/prisma/client.js';

export interface ReasonTemplate {
  id: string;
  label: string;
  text: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface ReasonTemplateRepository {
  /** Oldest first: the order admins pick them by number at the desk. */
  list(): Promise<ReasonTemplate[]>;
  /**
   * Stores a template unless `max` exist already (null then). Creations take turns under a transaction-scoped lock,
   * so two at once cannot both take the last place.
   */
  create(template: { id: string; label: string; text: string; createdBy: string }, max: number): Promise<ReasonTemplate | null>;
  /** Null when there is no such template. */
  update(id: string, change: { label: string; text: string }): Promise<ReasonTemplate | null>;
  /** False when there was no such template. */
  delete(id: string): Promise<boolean>;
}

export class PrismaReasonTemplateRepository implements ReasonTemplateRepository {
  constructor(private readonly prisma: PrismaClient) {}

  async list(): Promise<ReasonTemplate[]> {
    return (await this.prisma.reasonTemplate.findMany({ orderBy: [{ createdAt: 'asc' }, { id: 'asc' }] })).map(toTemplate);
  }

  async create(template: { id: string; label: string; text: string; createdBy: string }, max: number): Promise<ReasonTemplate | null> {
    return this.prisma.$transaction(async (tx: Prisma.TransactionClient) => {
      await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext('moderation-reason-templates'))`;
      if ((await tx.reasonTemplate.count()) >= max) return null;
      return toTemplate(await tx.reasonTemplate.create({ data: template }));
    });
  }

  async update(id: string, change: { label: string; text: string }): Promise<ReasonTemplate | null> {
    const { count } = await this.prisma.reasonTemplate.updateMany({ where: { id }, data: { ...change, updatedAt: new Date() } });
    if (count === 0) return null;
    const row = await this.prisma.reasonTemplate.findUnique({ where: { id } });
    return row ? toTemplate(row) : null;
  }

  async delete(id: string): Promise<boolean> {
    return (await this.prisma.reasonTemplate.deleteMany({ where: { id } })).count === 1;
  }
}

function toTemplate(row: Row): ReasonTemplate {
  return { id: row.id, label: row.label, text: row.text, createdAt: row.createdAt, updatedAt: row.updatedAt };
}
