import { randomUUID } from 'node:crypto';
import { REASON_TEMPLATES, REJECTION_REASON } from '@snapcracks/http-contract';
import { FailedPreconditionError, InvalidArgumentError, NotFoundError, type Caller } from '@snapcracks/kit';
import type { ReasonTemplate, ReasonTemplateRepository } from './reason-template.repository.js';
import { isUuid } from './uuid.js';

/** The reasons admins keep for rejections and removals: at most REASON_TEMPLATES.max, each a short name and its text. */
export class ReasonTemplateService {
  constructor(
    private readonly templates: ReasonTemplateRepository,
    private readonly newId: () => string = randomUUID,
  ) {}

  list(): Promise<ReasonTemplate[]> {
    return this.templates.list();
  }

  async create(admin: Caller, input: { label: string; text: string }): Promise<ReasonTemplate> {
    const created = await this.templates.create({ id: this.newId(), ...checked(input), createdBy: admin.userId }, REASON_TEMPLATES.max);
    if (!created) throw new FailedPreconditionError(REASON_TEMPLATES.limitReached);
    return created;
  }

  async update(id: string, input: { label: string; text: string }): Promise<ReasonTemplate> {
    const change = checked(input);
    const updated = isUuid(id) ? await this.templates.update(id, change) : null;
    if (!updated) throw new NotFoundError(REASON_TEMPLATES.notFound);
    return updated;
  }

  async delete(id: string): Promise<void> {
    if (!isUuid(id) || !(await this.templates.delete(id))) throw new NotFoundError(REASON_TEMPLATES.notFound);
  }
}

function checked(input: { label: string; text: string }): { label: string; text: string } {
  const label = input.label.trim();
  const text = input.text.trim();
  if (!label) throw new InvalidArgumentError(REASON_TEMPLATES.labelRequired);
  if (label.length > REASON_TEMPLATES.labelMaxLength) throw new InvalidArgumentError(REASON_TEMPLATES.labelTooLong);
  if (!text) throw new InvalidArgumentError(REJECTION_REASON.required);
  if (text.length > REJECTION_REASON.maxLength) throw new InvalidArgumentError(REJECTION_REASON.tooLong);
  return { label, text };
}
