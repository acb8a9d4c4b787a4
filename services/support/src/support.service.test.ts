import { CONTACT, EMAIL, PAGES } from '@snapcracks/http-contract';
import { Metadata, status } from '@grpc/grpc-js';
import { beforeEach, describe, expect, it } from 'vitest';
import { createLogger, decodeEventOfType, mapError, type CallContext, type Caller, type Handlers } from '@snapcracks/kit';
import { ContactFormStatus, type SupportServiceServer } from '@snapcracks/proto/support/v1';
import { NotificationService } from './notifications/notification.service.js';
import type { NotificationStore } from './notifications/notification.store.js';
import { supportHandlers } from './grpc/support.server.js';
import { CONTACT_FORM_NOT_FOUND, SupportService } from './support.service.js';
import { InMemoryContactFormRepository } from './testing/in-memory-contact-form.repository.js';

const admin: Caller = { userId: 'admin-1', isAdmin: true, hasAcceptedTerms: true };
const member: Caller = { userId: 'member-1', isAdmin: false, hasAcceptedTerms: true };
const silent = createLogger('test', 'silent');
const { CONTACT_FORM_STATUS_NEW: NEW, CONTACT_FORM_STATUS_IN_PROGRESS: IN_PROGRESS, CONTACT_FORM_STATUS_RESOLVED: RESOLVED, CONTACT_FORM_STATUS_UNSPECIFIED: UNSPECIFIED } =
  ContactFormStatus;
const VALID = { name: 'Sam Sender', email: 'sam@example.com', subject: 'A question', message: 'How do I upload a crack?' };
const EVENT_TYPES = ['support.contact_form.submitted', 'support.contact_form.status_changed'] as const;

let forms: InMemoryContactFormRepository;
let handlers: Handlers<SupportServiceServer>;

beforeEach(() => {
  forms = new InMemoryContactFormRepository();
  // Notices are not what these tests are about (notifications.int.test.ts is); their calls are never made here.
  handlers = supportHandlers(new SupportService(forms), new NotificationService({} as NotificationStore, false));
});

const ctx = (caller: Caller | null): CallContext => ({ caller, service: 'gateway', metadata: new Metadata(), logger: silent });
const submit = (input: Partial<typeof VALID> = {}, caller: Caller | null = null) => handlers.submitContactForm({ ...VALID, ...input }, ctx(caller));
const list = (request: Parameters<typeof handlers.listContactForms>[0] = { status: UNSPECIFIED }, caller: Caller | null = admin) =>
  handlers.listContactForms(request, ctx(caller));
const setStatus = (id: number, to: ContactFormStatus, caller: Caller | null = admin) => handlers.setContactFormStatus({ id, status: to }, ctx(caller));
/** What the gRPC server answers the caller for a handler's error. */
const answered = async (call: Promise<unknown>) => {
  const error = await call.then(
    () => expect.fail('expected the call to fail'),
    (e: unknown) => e,
  );
  return mapError(error, silent, '/test');
};
const events = () => forms.events.map((e) => decodeEventOfType(e, EVENT_TYPES)).map((e) => [e.type, e.payload]);

describe('submitting a contact form', () => {
  it('stores it for anyone, signed in or not, at status new, and announces it', async () => {
    const { contactForm } = await submit();
    expect(contactForm).toEqual({ id: 1, ...VALID, status: NEW, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    await submit({}, member);
    expect(forms.all().map((f) => f.id)).toEqual([1, 2]);
    expect(events()).toEqual([
      ['support.contact_form.submitted', { contactFormId: 1 }],
      ['support.contact_form.submitted', { contactFormId: 2 }],
    ]);
  });

  it('trims every field and stores it trimmed, inner spacing kept', async () => {
    const { contactForm } = await submit({ name: '  Sam  Sender ', email: '\tsam@example.com\n', subject: ' A  question ', message: '\n  Line one\n\nLine two  \n' });
    expect(contactForm).toMatchObject({ name: 'Sam  Sender', email: 'sam@example.com', subject: 'A  question', message: 'Line one\n\nLine two' });
    expect(forms.all()[0]).toMatchObject({ name: 'Sam  Sender', email: 'sam@example.com', subject: 'A  question', message: 'Line one\n\nLine two' });
  });

  it('accepts every field exactly at its limit, counted after trimming', async () => {
    const at = { name: 'n'.repeat(100), subject: 's'.repeat(200), message: 'm'.repeat(2000) };
    const { contactForm } = await submit({ name: ` ${at.name} `, subject: `${at.subject}  `, message: `\n${at.message}\n` });
    expect(contactForm).toMatchObject(at);
  });

  it.each([
    ['name', '', CONTACT.name.required],
    ['name', ' \t\n ', CONTACT.name.required],
    ['name', 'n'.repeat(101), CONTACT.name.tooLong],
    ['email', '', EMAIL.required],
    ['email', '   ', EMAIL.required],
    ['email', 'not-an-email', EMAIL.invalid],
    ['email', 'sam@', EMAIL.invalid],
    ['email', 'sam @example.com', EMAIL.invalid],
    ['email', `${'a'.repeat(250)}@example.com`, EMAIL.invalid],
    ['subject', '', CONTACT.subject.required],
    ['subject', 's'.repeat(201), CONTACT.subject.tooLong],
    ['message', '  ', CONTACT.message.required],
    ['message', 'm'.repeat(2001), CONTACT.message.tooLong],
  ] as const)('refuses %s %j with "%s" and stores nothing', async (field, value, message) => {
    expect(await answered(submit({ [field]: value }))).toEqual({ code: status.INVALID_ARGUMENT, details: message });
    expect(forms.all()).toEqual([]);
    expect(forms.events).toEqual([]);
  });


  it('reports the first problem in field order', async () => {
    expect(await answered(handlers.submitContactForm({ name: '', email: '', subject: '', message: '' }, ctx(null)))).toEqual({
      code: status.INVALID_ARGUMENT,
      details: CONTACT.name.required,
    });
    expect((await answered(submit({ email: 'bad', message: '' }))).details).toBe(EMAIL.invalid);
  });
});

describe('who may list and change', () => {
  it.each([
    ['nobody signed in', null, status.UNAUTHENTICATED],
    ['a member', member, status.PERMISSION_DENIED],
    ['an admin who has not accepted the terms', { ...admin, hasAcceptedTerms: false }, status.PERMISSION_DENIED],
  ])('refuses %s, changing nothing', async (_who, caller, code) => {
    const { contactForm } = await submit();
    expect((await answered(list({ status: UNSPECIFIED }, caller))).code).toBe(code);
    expect((await answered(setStatus(contactForm!.id, RESOLVED, caller))).code).toBe(code);
    // Refused before anything is looked at: an unknown id or a bad status answer the same.
    expect((await answered(setStatus(999, 42 as ContactFormStatus, caller))).code).toBe(code);
    expect(forms.all()[0]!.status).toBe('new');
    expect(forms.events).toHaveLength(1);
  });
});

describe('listing contact forms', () => {
  async function seed() {
    for (let n = 1; n <= 6; n++) await submit({ subject: `Subject ${n}` });
    await setStatus(2, IN_PROGRESS);
    await setStatus(3, RESOLVED);
    await setStatus(5, RESOLVED);
  }

  it('lists every form newest first with the count of each status', async () => {
    await seed();
    const answer = await list();
    expect(answer.contactForms.map((f) => f.id)).toEqual([6, 5, 4, 3, 2, 1]);
    expect(answer.contactForms[0]).toEqual({ id: 6, ...VALID, subject: 'Subject 6', status: NEW, createdAt: expect.any(Date), updatedAt: expect.any(Date) });
    expect(answer).toMatchObject({ counts: { newCount: 3, inProgressCount: 1, resolvedCount: 2, totalCount: 6 }, total: 6, totalPages: 1 });
  });

  it.each([
    [NEW, [6, 4, 1]],
    [IN_PROGRESS, [2]],
    [RESOLVED, [5, 3]],
  ])('lists only status %s, still counting every status', async (filter, ids) => {
    await seed();
    const answer = await list({ status: filter });
    expect(answer.contactForms.map((f) => f.id)).toEqual(ids);
    expect(answer.contactForms.every((f) => f.status === filter)).toBe(true);
    expect(answer).toMatchObject({ counts: { newCount: 3, inProgressCount: 1, resolvedCount: 2, totalCount: 6 }, total: ids.length, totalPages: 1 });
  });

  it('answers zeros and no pages when there is nothing', async () => {
    expect(await list()).toEqual({ contactForms: [], counts: { newCount: 0, inProgressCount: 0, resolvedCount: 0, totalCount: 0 }, total: 0, totalPages: 0 });
  });

  it('pages: 50 by default, then by page and limit', async () => {
    for (let n = 0; n < 53; n++) await submit();
    const first = await list();
    expect(first.contactForms).toHaveLength(50);
    expect(first).toMatchObject({ total: 53, totalPages: 2 });
    expect((await list({ status: UNSPECIFIED, page: { page: 2, limit: 0 } })).contactForms.map((f) => f.id)).toEqual([3, 2, 1]);
    const small = await list({ status: NEW, page: { page: 3, limit: 10 } });
    expect(small.contactForms.map((f) => f.id)).toEqual([33, 32, 31, 30, 29, 28, 27, 26, 25, 24]);
    expect(small).toMatchObject({ total: 53, totalPages: 6 });
    expect((await list({ status: NEW, page: { page: 7, limit: 10 } })).contactForms).toEqual([]);
  });

  it.each([
    [{ page: -1, limit: 10 }, PAGES.pageInvalid],
    [{ page: 100_001, limit: 10 }, PAGES.pageInvalid],
    [{ page: 1, limit: -5 }, PAGES.limitInvalid(PAGES.limits.contactForms.max)],
    [{ page: 1, limit: 101 }, PAGES.limitInvalid(PAGES.limits.contactForms.max)],
  ])('refuses page %j', async (page, message) => {
    expect(await answered(list({ status: UNSPECIFIED, page }))).toEqual({ code: status.INVALID_ARGUMENT, details: message });
  });

  it('refuses an unknown status filter', async () => {
    expect(await answered(list({ status: 9 as ContactFormStatus }))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.statusInvalid });
  });
});

describe('changing a status', () => {
  it('moves a form between the three statuses in any order, announcing each change', async () => {
    const { contactForm } = await submit();
    const id = contactForm!.id;
    const path = [RESOLVED, NEW, IN_PROGRESS, NEW, RESOLVED, IN_PROGRESS];
    for (const to of path) {
      const { contactForm: changed } = await setStatus(id, to);
      expect(changed).toMatchObject({ id, status: to, name: VALID.name });
    }
    const names = { [NEW]: 'new', [IN_PROGRESS]: 'in_progress', [RESOLVED]: 'resolved' } as Record<ContactFormStatus, string>;
    expect(events().slice(1)).toEqual(path.map((to) => ['support.contact_form.status_changed', { contactFormId: id, status: names[to] }]));
    expect(forms.all()[0]!.status).toBe('in_progress');
  });

  it('answers an unchanged form without announcing anything', async () => {
    const { contactForm } = await submit();
    const { contactForm: same } = await setStatus(contactForm!.id, NEW);
    expect(same).toEqual(contactForm);
    expect(forms.events).toHaveLength(1);
  });

  it.each([0, -1, 999, 2_147_483_648, Number.MAX_SAFE_INTEGER])('answers NOT_FOUND for id %d', async (id) => {
    await submit();
    expect(await answered(setStatus(id, RESOLVED))).toEqual({ code: status.NOT_FOUND, details: CONTACT_FORM_NOT_FOUND });
    expect(forms.all()[0]!.status).toBe('new');
  });

  it.each([UNSPECIFIED, 4 as ContactFormStatus, -1 as ContactFormStatus])('refuses status %s as INVALID_ARGUMENT, before looking the form up', async (to) => {
    const { contactForm } = await submit();
    expect(await answered(setStatus(contactForm!.id, to))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.statusInvalid });
    expect(await answered(setStatus(999, to))).toEqual({ code: status.INVALID_ARGUMENT, details: CONTACT.statusInvalid });
    expect(forms.events).toHaveLength(1);
  });
});
