import type { Envelope } from '@snapcracks/kit';
import type {
  ContactForm,
  ContactFormQuery,
  ContactFormRepository,
  ContactFormStatus,
  EventOf,
  NewContactForm,
  StatusChange,
  StatusCounts,
} from '../contact-form.repository.js';

/**
 * The ContactFormRepository in memory, for the service's unit tests; the contract tests
 * (contact-form.repository.contract.ts) hold it to PrismaContactFormRepository's behaviour. Forms are copied in and
 * out, and a clock that ticks one second per write orders them.
 */
export class InMemoryContactFormRepository implements ContactFormRepository {
  readonly events: Envelope[] = [];
  readonly #rows = new Map<number, ContactForm>();
  #nextId = 1;
  #clock = Date.UTC(2026, 0, 1);

  async create(form: NewContactForm, eventOf: EventOf): Promise<ContactForm> {
    const now = this.#tick();
    const stored: ContactForm = { ...form, userId: form.userId ?? null, id: this.#nextId++, status: 'new', createdAt: now, updatedAt: now };
    const event = eventOf(structuredClone(stored));
    this.#rows.set(stored.id, stored);
    this.events.push(event);
    return structuredClone(stored);
  }

  async list({ status, offset, limit }: ContactFormQuery): Promise<ContactForm[]> {
    return [...this.#rows.values()]
      .filter((form) => status === null || form.status === status)
      .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id)
      .slice(offset, offset + limit)
      .map((form) => structuredClone(form));
  }

  async listByUser(userId: string): Promise<ContactForm[]> {
    return [...this.#rows.values()].filter((f) => f.userId === userId).map((f) => structuredClone(f)).sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || b.id - a.id);
  }

  async countByStatus(): Promise<StatusCounts> {
    const counts: StatusCounts = { new: 0, in_progress: 0, resolved: 0, total: 0 };
    for (const form of this.#rows.values()) {
      counts[form.status] += 1;
      counts.total += 1;
    }
    return counts;
  }

  async setStatus(id: number, status: ContactFormStatus, eventOf: EventOf): Promise<StatusChange | null> {
    const stored = this.#rows.get(id);
    if (!stored) return null;
    if (stored.status === status) return { form: structuredClone(stored), changed: false };
    const next: ContactForm = { ...stored, status, updatedAt: this.#tick() };
    const event = eventOf(structuredClone(next));
    this.#rows.set(id, next);
    this.events.push(event);
    return { form: structuredClone(next), changed: true };
  }

  /** Every stored form, oldest first. */
  all(): ContactForm[] {
    return [...this.#rows.values()].sort((a, b) => a.id - b.id).map((form) => structuredClone(form));
  }

  #tick(): Date {
    this.#clock += 1000;
    return new Date(this.#clock);
  }
}
