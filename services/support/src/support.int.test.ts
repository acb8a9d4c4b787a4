import { CONTACT, EMAIL, PAGES } from '@snapcracks/http-contract';
import { status, type ServiceError } from '@grpc/grpc-js';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { decodeEventOfType, type Caller, type Database, type Envelope, type ServiceClient } from '@snapcracks/kit';
import { outboxEvents, startTestServices, type TestServices } from '@snapcracks/kit/testing';
import { ContactFormStatus, SupportServiceClient } from '@snapcracks/proto/support/v1';
import { PrismaClient } from './generated/prisma/client.js';
import { supportService } from './index.js';
import { CONTACT_FORM_NOT_FOUND } from './support.service.js';

const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member-1', isAdmin: false, hasAcceptedTerms: true };
const { CONTACT_FORM_STATUS_NEW: NEW, CONTACT_FORM_STATUS_IN_PROGRESS: IN_PROGRESS, CONTACT_FORM_STATUS_RESOLVED: RESOLVED, CONTACT_FORM_STATUS_UNSPECIFIED: ALL } = ContactFormStatus;
const VALID = { name: 'Sam Sender', email: 'sam@example.com', subject: 'A question', message: 'How do I upload a crack?' };
const EVENT_TYPES = ['support.contact_form.submitted', 'support.contact_form.status_changed'] as const;

let services: TestServices;
let db: Database<PrismaClient>;
let client: ServiceClient<SupportServiceClient>;
const published: Envelope[] = [];

beforeAll(async () => {
  services = await startTestServices({ services: [supportService] });
  db = services.openDatabase(PrismaClient, 'support');
  client = services.client(SupportServiceClient, { as: 'gateway', deadlineMs: 30_000 });
  await services.platform.bus.subscribe(async (event) => void published.push(event), { durable: 'support-test', types: [...EVENT_TYPES] });
});
afterAll(() => services?.stop());
beforeEach(async () => {
  await db.prisma.$executeRawUnsafe('TRUNCATE support.contact_forms, support.outbox RESTART IDENTITY');
  published.length = 0;
});

const failure = (call: Promise<unknown>) =>
  call.then(
    () => expect.fail('expected the call to fail'),
    (e: ServiceError) => ({ code: e.code, details: e.details }),
  );
const rows = () => db.prisma.contactForm.findMany({ orderBy: { id: 'asc' } });
const submit = (input: Partial<typeof VALID> = {}) => client.call.submitContactForm({ ...VALID, ...input }, { caller: null });
const decoded = (events: Envelope[]) => events.map((e) => decodeEventOfType(e, EVENT_TYPES)).map((e) => [e.type, e.payload]);

describe('the support service over gRPC', () => {
  it('stores a submission from anyone, trimmed, and publishes its event through the outbox', async () => {
    const { contactForm } = await submit({ name: '  Sam Sender ', email: ' sam@example.com ', subject: ' A question\n', message: '\n How do I upload a crack?  ' });
    expect(contactForm).toEqual({ id: 1, ...VALID, status: NEW, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(await rows()).toEqual([{ id: 1, ...VALID, status: 'new', userId: null, createdAt: contactForm!.createdAt, updatedAt: contactForm!.updatedAt }]);
    expect(decoded(await outboxEvents(db.prisma, 'support'))).toEqual([['support.contact_form.submitted', { contactFormId: 1 }]]);
    await vi.waitFor(() => expect(decoded(published)).toEqual([['support.contact_form.submitted', { contactFormId: 1 }]]), { timeout: 5_000 });
  });

  it('refuses an invalid submission with the spec message and stores nothing', async () => {
    expect(await failure(submit({ name: 'n'.repeat(101) }))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.name.tooLong });
    expect(await failure(submit({ email: 'nope' }))).toEqual({ code: status.INVALID_ARGUMENT, details: EMAIL.invalid });
    expect(await failure(submit({ message: ' ' }))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.message.required });
    expect(await rows()).toEqual([]);
    expect(await outboxEvents(db.prisma, 'support')).toEqual([]);
  });

  it('lists for admins with counts, filters by status and pages', async () => {
    for (let n = 1; n <= 5; n++) await submit({ subject: `Subject ${n}` });
    await client.call.setContactFormStatus({ id: 2, status: RESOLVED }, { caller: admin });
    await client.call.setContactFormStatus({ id: 4, status: IN_PROGRESS }, { caller: admin });
    const all = await client.call.listContactForms({ status: ALL }, { caller: admin });
    expect(all.contactForms.map((f) => [f.id, f.status])).toEqual([
      [5, NEW],
      [4, IN_PROGRESS],
      [3, NEW],
      [2, RESOLVED],
      [1, NEW],
    ]);
    expect(all.contactForms[0]).toEqual({ id: 5, ...VALID, subject: 'Subject 5', status: NEW, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(all).toMatchObject({ counts: { newCount: 3, inProgressCount: 1, resolvedCount: 1, totalCount: 5 }, total: 5, totalPages: 1 });
    const fresh = await client.call.listContactForms({ status: NEW, page: { page: 2, limit: 2 } }, { caller: admin });
    expect(fresh.contactForms.map((f) => f.id)).toEqual([1]);
    expect(fresh).toMatchObject({ counts: { newCount: 3, totalCount: 5 }, total: 3, totalPages: 2 });
    expect(await failure(client.call.listContactForms({ status: ALL, page: { page: 1, limit: 101 } }, { caller: admin }))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: PAGES.limitInvalid(PAGES.limits.contactForms.max),
    });
  });

  it('changes a status in any order, one event per change, and refuses the rest without changing anything', async () => {
    const { contactForm } = await submit();
    const id = contactForm!.id;
    for (const to of [RESOLVED, NEW, IN_PROGRESS, RESOLVED, RESOLVED]) {
      expect((await client.call.setContactFormStatus({ id, status: to }, { caller: admin })).contactForm).toMatchObject({ id, status: to });
    }
    const row = (await rows())[0]!;
    expect(row.status).toBe('resolved');
    expect(row.updatedAt.getTime()).toBeGreaterThanOrEqual(row.createdAt.getTime());
    expect(decoded(await outboxEvents(db.prisma, 'support')).slice(1)).toEqual(
      ['resolved', 'new', 'in_progress', 'resolved'].map((s) => ['support.contact_form.status_changed', { contactFormId: id, status: s }]),
    );

    expect(await failure(client.call.setContactFormStatus({ id: 999, status: NEW }, { caller: admin }))).toEqual({ code: status.NOT_FOUND, details: CONTACT_FORM_NOT_FOUND });
    expect(await failure(client.call.setContactFormStatus({ id: 3_000_000_000, status: NEW }, { caller: admin }))).toEqual({ code: status.NOT_FOUND, details: CONTACT_FORM_NOT_FOUND });
    expect(await failure(client.call.setContactFormStatus({ id, status: ALL }, { caller: admin }))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.statusInvalid });
    expect((await failure(client.call.setContactFormStatus({ id, status: NEW }, { caller: member }))).code).toBe(status.PERMISSION_DENIED);
    expect((await failure(client.call.setContactFormStatus({ id, status: NEW }, { caller: null }))).code).toBe(status.UNAUTHENTICATED);
    expect((await failure(client.call.listContactForms({ status: ALL }, { caller: member }))).code).toBe(status.PERMISSION_DENIED);
    expect((await failure(client.call.listContactForms({ status: ALL }, { caller: null }))).code).toBe(status.UNAUTHENTICATED);
    expect(await rows()).toEqual([row]);
    expect(await outboxEvents(db.prisma, 'support')).toHaveLength(5);
  });
});
