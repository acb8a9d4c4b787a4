import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';

interface ContactFormJson {
  id: number;
  name: string;
  email: string;
  subject: string;
  message: string;
  status: 'new' | 'in_progress' | 'resolved';
  createdAt: string;
  updatedAt: string;
}
interface ListJson {
  items: ContactFormJson[];
  counts: { new: number; in_progress: number; resolved: number; total: number };
  total: number;
  page: number;
  totalPages: number;
}

const VALID = { name: 'Sam Sender', email: 'sam@example.com', subject: 'A question', message: 'How do I upload a crack?' };

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: TestBrowser;
let member: TestBrowser;
let newcomer: TestBrowser;
const anonymous = { request: (url: string, init: RequestInit = {}) => fetch(url, init) };

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  client.request(
    api(path),
    body === undefined ? { method, headers } : { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) },
  );

// The gateway trusts the loopback proxy in these tests, so each test can speak from its own client address and the
// contact form's limit (5 per 10 minutes per address) applies to it alone.
let nextAddress = 1;
const address = () => `198.51.100.${nextAddress++}`;
const contact = (body: unknown, from = address(), client: Client = anonymous) => send(client, 'POST', '/api/contact', body, { 'x-forwarded-for': from });

async function list(query = '', client: Client = admin): Promise<ListJson> {
  const response = await send(client, 'GET', `/api/admin/contact-forms${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as ListJson;
}
const setStatus = (id: number | string, body: unknown, client: Client = admin) => send(client, 'PATCH', `/api/admin/contact-forms/${id}/status`, body);

async function submitted(body: Partial<typeof VALID> = {}): Promise<ContactFormJson> {
  const response = await contact({ ...VALID, ...body });
  expect(response.status).toBe(201);
  return (await response.json()) as ContactFormJson;
}

async function signedInMember(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  return browser;
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com', TRUST_PROXY: '127.0.0.1' });
  [admin, member] = await Promise.all([signedInMember('boss@example.com', 'Boss Example'), signedInMember('member@example.com', 'Member Example')]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 120_000);
afterAll(async () => {
  await system?.stop();
});

describe('sending a contact message (POST /api/contact)', () => {
  it('takes a message from anyone, stores it trimmed at status new and answers 201 with it', async () => {
    const response = await contact({ name: '  Sam Sender ', email: '\tsam@example.com ', subject: ' A question\n', message: '\n  How do I upload a crack?  ' });
    expect(response.status).toBe(201);
    const created = (await response.json()) as ContactFormJson;
    expect(created).toEqual({ id: expect.any(Number), ...VALID, status: 'new', createdAt: expect.any(String), updatedAt: expect.any(String) });
    expect(Date.now() - Date.parse(created.createdAt)).toBeLessThan(60_000);
    expect((await list()).items.find((item) => item.id === created.id)).toEqual(created);
  });

  it('takes messages from members and from people who have not accepted the terms yet', async () => {
    for (const client of [member, newcomer, admin]) expect((await contact(VALID, address(), client)).status).toBe(201);
  });

  it("keeps who sent a message while signed in as a member: theirs alone, a visitor's nobody's", async () => {
    const sent = (await (await contact({ ...VALID, subject: 'Mine' }, address(), member)).json()) as ContactFormJson;
    const anonymousOne = await submitted({ subject: 'Nobody' });
    const newcomersOne = (await (await contact({ ...VALID, subject: 'Not yet a member' }, address(), newcomer)).json()) as ContactFormJson;
    const db = new pg.Client({ connectionString: system.database.url });
    await db.connect();
    try {
      const { rows } = await db.query<{ id: number; user_id: string | null }>('SELECT id, user_id FROM support.contact_forms WHERE id = ANY($1)', [
        [sent.id, anonymousOne.id, newcomersOne.id],
      ]);
      const owners = new Map(rows.map((row) => [row.id, row.user_id]));
      const memberId = ((await (await send(member, 'GET', '/api/auth/user')).json()) as { id: string }).id;
      expect(owners.get(sent.id)).toBe(memberId);
      expect(owners.get(anonymousOne.id)).toBeNull();
      expect(owners.get(newcomersOne.id)).toBeNull();
    } finally {
      await db.end();
    }
  });

  it('accepts every field exactly at its limit, counted after trimming', async () => {
    const at = { name: 'n'.repeat(100), subject: 's'.repeat(200), message: 'm'.repeat(2000) };
    const created = await submitted({ name: `  ${at.name}  `, subject: ` ${at.subject}`, message: `${at.message}\n\n` });
    expect(created).toMatchObject(at);
  });

  it.each([
    [{ ...VALID, name: '' }, 'Name is required'],
    [{ ...VALID, name: ' \t\n ' }, 'Name is required'],
    [{ email: VALID.email, subject: VALID.subject, message: VALID.message }, 'Name is required'],
    [{ ...VALID, name: 42 }, 'Name is required'],
    [{ ...VALID, name: 'n'.repeat(101) }, 'Name must be 100 characters or less'],
    [{ ...VALID, email: '' }, 'Email is required'],
    [{ ...VALID, email: '   ' }, 'Email is required'],
    [{ ...VALID, email: undefined }, 'Email is required'],
    [{ ...VALID, email: 'not-an-email' }, 'Please enter a valid email address'],
    [{ ...VALID, email: 'sam@example' }, 'Please enter a valid email address'],
    [{ ...VALID, email: `${'a'.repeat(250)}@example.com` }, 'Please enter a valid email address'],
    [{ ...VALID, subject: '' }, 'Subject is required'],
    [{ ...VALID, subject: 's'.repeat(201) }, 'Subject must be 200 characters or less'],
    [{ ...VALID, message: '' }, 'Message is required'],
    [{ ...VALID, message: '   \n' }, 'Message is required'],
    [{ ...VALID, message: 'm'.repeat(2001) }, 'Message must be 2000 characters or less'],
    [{ name: '', email: 'bad', subject: '', message: '' }, 'Name is required'],
    [{}, 'Name is required'],
    [[VALID], 'Name is required'],
    ['hello', 'Name is required'],
  ])('refuses %j with 400 and the message "%s", storing nothing', async (body, message) => {
    const before = (await list()).counts.total;
    const response = await contact(body);
    expect(response.status).toBe(400);
    expect(await response.json()).toEqual({ message });
    expect((await list()).counts.total).toBe(before);
  });

  it('refuses a body that is not JSON with a 400', async () => {
    const before = (await list()).counts.total;
    const response = await anonymous.request(api('/api/contact'), { method: 'POST', headers: { 'content-type': 'application/json', 'x-forwarded-for': address() }, body: '{"name":' });
    expect(response.status).toBe(400);
    expect((await list()).counts.total).toBe(before);
  });

  it('allows 5 messages per client address in 10 minutes, then answers 429 with Retry-After and stores nothing more', async () => {
    const from = address();
    const before = (await list()).counts.total;
    for (let n = 1; n <= 5; n++) expect((await contact({ ...VALID, subject: `Attempt ${n}` }, from)).status).toBe(201);
    const refused = await contact({ ...VALID, subject: 'Attempt 6' }, from);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(await refused.json()).toEqual({ message: expect.stringMatching(/too many requests/i) });
    // Invalid attempts count too, and a signed-in sender from that address is limited alike.
    expect((await contact({}, from)).status).toBe(429);
    expect((await contact(VALID, from, member)).status).toBe(429);
    expect((await list()).counts.total).toBe(before + 5);
    // Another address is not affected.
    expect((await contact(VALID, address())).status).toBe(201);
  });
});

describe('the admin support list and status changes', () => {
  it('lists newest first with the count of every status, filters by status and pages', async () => {
    const before = await list();
    const a = await submitted({ subject: 'List A' });
    const b = await submitted({ subject: 'List B' });
    const c = await submitted({ subject: 'List C' });
    expect((await setStatus(b.id, { status: 'resolved' })).status).toBe(200);

    const all = await list();
    expect(all.items.slice(0, 3).map((item) => [item.id, item.status])).toEqual([
      [c.id, 'new'],
      [b.id, 'resolved'],
      [a.id, 'new'],
    ]);
    expect(Object.keys(all.items[0]!).sort()).toEqual(['createdAt', 'email', 'id', 'message', 'name', 'status', 'subject', 'updatedAt']);
    expect(all.counts).toEqual({
      new: before.counts.new + 2,
      in_progress: before.counts.in_progress,
      resolved: before.counts.resolved + 1,
      total: before.counts.total + 3,
    });
    expect(all.counts.total).toBe(all.counts.new + all.counts.in_progress + all.counts.resolved);
    expect(all).toMatchObject({ total: all.counts.total, page: 1, totalPages: Math.ceil(all.counts.total / 50) });

    const fresh = await list('?status=new');
    expect(fresh.items.every((item) => item.status === 'new')).toBe(true);
    expect(fresh.items.slice(0, 2).map((item) => item.id)).toEqual([c.id, a.id]);
    expect(fresh).toMatchObject({ counts: all.counts, total: all.counts.new });
    expect((await list('?status=resolved')).items.map((item) => item.id)).toContain(b.id);
    expect((await list('?status=in_progress')).items.every((item) => item.status === 'in_progress')).toBe(true);
    expect((await list('?status=all')).total).toBe(all.counts.total);

    const second = await list('?page=2&limit=1');
    expect(second).toMatchObject({ page: 2, total: all.counts.total, totalPages: all.counts.total });
    expect(second.items.map((item) => item.id)).toEqual([b.id]);
    const response = await send(admin, 'GET', '/api/admin/contact-forms');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it.each(['?status=bogus', '?status=', '?status=NEW', '?page=0', '?page=abc', '?page=1.5', '?limit=0', '?limit=101', '?limit=-1'])(
    'refuses the query %s with a 400',
    async (query) => {
      const response = await send(admin, 'GET', `/api/admin/contact-forms${query}`);
      expect(response.status).toBe(400);
      expect(((await response.json()) as { message: string }).message).toMatch(/status|page|limit/);
    },
  );

  it('moves a message between the three statuses in any order, the counts following', async () => {
    const form = await submitted({ subject: 'Status path' });
    let previous = await list();
    for (const status of ['resolved', 'new', 'in_progress', 'resolved', 'in_progress', 'new', 'new'] as const) {
      const response = await setStatus(form.id, { status });
      expect(response.status).toBe(200);
      const changed = (await response.json()) as ContactFormJson;
      expect(changed).toEqual({ ...form, status, updatedAt: expect.any(String) });
      const now = await list();
      expect(now.items.find((item) => item.id === form.id)?.status).toBe(status);
      expect(now.counts.total).toBe(previous.counts.total);
      expect(now.counts.total).toBe(now.counts.new + now.counts.in_progress + now.counts.resolved);
      previous = now;
    }
  });

  it.each([[{ status: 'bogus' }], [{ status: '' }], [{ status: 'IN_PROGRESS' }], [{ status: 'in progress' }], [{ status: null }], [{ status: 2 }], [{}], [['new']], ['new']])(
    'refuses the body %j with a 400 and changes nothing',
    async (body) => {
      const form = await submitted();
      const response = await setStatus(form.id, body);
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ message: 'Status must be new, in_progress or resolved' });
      expect((await list()).items.find((item) => item.id === form.id)).toEqual(form);
    },
  );

  it.each(['abc', '1.5', '-1', '0', '1e3', '01', '9999999999999999'])('refuses the id %s with a 400', async (id) => {
    const response = await setStatus(id, { status: 'resolved' });
    expect(response.status).toBe(400);
  });

  it.each([999_999, 2_147_483_648, 999_999_999_999_999])('answers 404 for the unknown id %d', async (id) => {
    const response = await setStatus(id, { status: 'resolved' });
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Contact form not found' });
  });
});

describe('who may read and change contact messages', () => {
  const callers = () =>
    [
      ['signed out', anonymous, 401],
      ['signed in without accepted terms', newcomer, 403],
      ['a member', member, 403],
    ] as const;

  it('refuses everyone but admins, before looking at the input, and changes nothing', async () => {
    const form = await submitted({ subject: 'Not for members' });
    const before = await list();
    for (const [who, client, code] of callers()) {
      const calls = [
        send(client, 'GET', '/api/admin/contact-forms'),
        send(client, 'GET', '/api/admin/contact-forms?status=bogus'),
        setStatus(form.id, { status: 'resolved' }, client),
        setStatus(form.id, { status: 'bogus' }, client),
        setStatus('abc', { status: 'resolved' }, client),
        setStatus(999_999, { status: 'resolved' }, client),
      ];
      for (const response of await Promise.all(calls)) {
        expect(response.status, who).toBe(code);
        expect(((await response.json()) as { message: string }).message, who).toBeTruthy();
      }
    }
    expect(await list()).toEqual(before);
    expect(before.items.find((item) => item.id === form.id)?.status).toBe('new');
  });

  it('lets an admin read and change', async () => {
    const form = await submitted({ subject: 'For the admin' });
    expect((await send(admin, 'GET', '/api/admin/contact-forms')).status).toBe(200);
    expect((await setStatus(form.id, { status: 'in_progress' })).status).toBe(200);
    expect((await list('?status=in_progress')).items.map((item) => item.id)).toContain(form.id);
  });

  it('refuses a cross-site status change even from an admin', async () => {
    const form = await submitted();
    const response = await admin.request(api(`/api/admin/contact-forms/${form.id}/status`), {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: JSON.stringify({ status: 'resolved' }),
    });
    expect(response.status).toBe(403);
    expect((await list()).items.find((item) => item.id === form.id)?.status).toBe('new');
  });
});
