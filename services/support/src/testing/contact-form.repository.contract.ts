import { beforeEach, describe, expect, it } from 'vitest';
import { decodeEventOfType, makeEvent, type Envelope } from '@snapcracks/kit';
import { ContactFormStatusChanged, ContactFormSubmitted } from '@snapcracks/proto/events/v1';
import type { ContactForm, ContactFormRepository, EventOf, NewContactForm } from '../contact-form.repository.js';

export interface ContractSubject {
  /** The repository under test, over an empty table. */
  repository(): ContactFormRepository;
  /** The events committed so far, oldest first. */
  events(): Promise<Envelope[]>;
}

const form = (n: number, more: Partial<NewContactForm> = {}): NewContactForm => ({
  name: `Sender ${n}`,
  email: `sender${n}@example.com`,
  subject: `Subject ${n}`,
  message: `Message ${n}`,
  ...more,
});
const EVENT_TYPES = ['support.contact_form.submitted', 'support.contact_form.status_changed'] as const;

/**
 * What every ContactFormRepository promises, run against PostgreSQL (integration) and against the in-memory fake
 * (unit), so the fake the service's unit tests rely on cannot drift from the real thing.
 */
export function describeContactFormRepositoryContract(name: string, subject: ContractSubject): void {
  describe(`${name} keeps the ContactFormRepository contract`, () => {
    let repo: ContactFormRepository;
    let seen: ContactForm[];
    const submitted: EventOf = (f) => {
      seen.push(f);
      return makeEvent('support.contact_form.submitted', ContactFormSubmitted, { contactFormId: f.id }, { source: 'test' });
    };
    const changed: EventOf = (f) => {
      seen.push(f);
      return makeEvent('support.contact_form.status_changed', ContactFormStatusChanged, { contactFormId: f.id, status: f.status }, { source: 'test' });
    };
    const decoded = async () => (await subject.events()).map((e) => decodeEventOfType(e, EVENT_TYPES)).map((e) => [e.type, e.payload]);

    beforeEach(() => {
      repo = subject.repository();
      seen = [];
    });

    it('stores a new form at status new, with its times, and commits its event built from the stored form', async () => {
      const created = await repo.create(form(1, { message: 'Line one\nLine two' }), submitted);
      expect(created).toEqual({ id: expect.any(Number), ...form(1, { message: 'Line one\nLine two' }), status: 'new', userId: null, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
      expect(created.id).toBeGreaterThan(0);
      expect(seen).toEqual([created]);
      expect(await decoded()).toEqual([['support.contact_form.submitted', { contactFormId: created.id }]]);
      expect(await repo.list({ status: null, offset: 0, limit: 10 })).toEqual([created]);
    });

    it("keeps the member who sent a form, and lists a member's own, newest first", async () => {
      const visitors = await repo.create(form(1), submitted);
      const first = await repo.create({ ...form(2), userId: 'member-1' }, submitted);
      const second = await repo.create({ ...form(3), userId: 'member-1' }, submitted);
      expect([visitors.userId, first.userId]).toEqual([null, 'member-1']);
      expect(await repo.listByUser('member-1')).toEqual([second, first]);
      expect(await repo.listByUser('nobody')).toEqual([]);
    });

    it('lists newest first, one status or all, from an offset, at most `limit`', async () => {
      const ids: number[] = [];
      for (let n = 1; n <= 5; n++) ids.push((await repo.create(form(n), submitted)).id);
      await repo.setStatus(ids[1]!, 'resolved', changed);
      await repo.setStatus(ids[3]!, 'in_progress', changed);
      const idsOf = (forms: ContactForm[]) => forms.map((f) => f.id);
      expect(idsOf(await repo.list({ status: null, offset: 0, limit: 10 }))).toEqual([...ids].reverse());
      expect(idsOf(await repo.list({ status: null, offset: 1, limit: 2 }))).toEqual([ids[3], ids[2]]);
      expect(idsOf(await repo.list({ status: 'new', offset: 0, limit: 10 }))).toEqual([ids[4], ids[2], ids[0]]);
      expect(idsOf(await repo.list({ status: 'resolved', offset: 0, limit: 10 }))).toEqual([ids[1]]);
      expect(idsOf(await repo.list({ status: 'in_progress', offset: 1, limit: 10 }))).toEqual([]);
    });

    it('counts every status, zero included', async () => {
      expect(await repo.countByStatus()).toEqual({ new: 0, in_progress: 0, resolved: 0, total: 0 });
      const a = await repo.create(form(1), submitted);
      await repo.create(form(2), submitted);
      const c = await repo.create(form(3), submitted);
      await repo.setStatus(a.id, 'resolved', changed);
      await repo.setStatus(c.id, 'resolved', changed);
      expect(await repo.countByStatus()).toEqual({ new: 1, in_progress: 0, resolved: 2, total: 3 });
    });

    it('sets any status from any other, each change with its event, and leaves an unchanged form alone', async () => {
      const created = await repo.create(form(1), submitted);
      seen = [];
      const path = ['resolved', 'new', 'in_progress', 'resolved', 'in_progress', 'new'] as const;
      for (const status of path) {
        const change = await repo.setStatus(created.id, status, changed);
        expect(change).toEqual({ changed: true, form: { ...created, status, updatedAt: expect.any(Date) } });
        expect(change!.form.updatedAt.getTime()).toBeGreaterThanOrEqual(created.updatedAt.getTime());
      }
      expect(seen.map((f) => f.status)).toEqual(path);
      const before = (await repo.list({ status: null, offset: 0, limit: 1 }))[0]!;
      expect(await repo.setStatus(created.id, 'new', changed)).toEqual({ changed: false, form: before });
      expect(seen).toHaveLength(path.length);
      expect((await decoded()).slice(1)).toEqual(path.map((status) => ['support.contact_form.status_changed', { contactFormId: created.id, status }]));
    });

    it('answers null for an unknown form and writes nothing', async () => {
      expect(await repo.setStatus(12_345, 'resolved', changed)).toBeNull();
      expect(seen).toEqual([]);
      expect(await subject.events()).toEqual([]);
    });
  });
}
