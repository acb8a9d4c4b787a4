import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { NOTIFICATIONS, type Notification, type NotificationPage, type NotificationSettings } from '@snapcracks/http-contract';
import type { RunningSystem } from '../src/system.js';
import { startTestReplica, startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { anonymous, json, message, productApi, sessionCookie, type Client } from './api-client.js';
import { freePort } from '../src/free-port.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const SESSION_SECRET = 'a shared session secret of at least thirty-two characters';

let system: Awaited<ReturnType<typeof startTestSystem>>;
let replica: RunningSystem & { url: string };
let smtp: SMTPServer;
const mails: { to: string; subject: string; body: string }[] = [];
let admin: TestBrowser;
let owner: TestBrowser;
let voter: TestBrowser;
let reporters: TestBrowser[];
let newcomer: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const { send, member } = productApi(() => system.url);
const eventually = <T>(check: () => Promise<T>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

interface StreamEvent {
  event: string;
  id?: string;
  data: unknown;
}

/** A member's notification stream, read as a browser's EventSource reads it. */
async function openStream(url: string, headers: Record<string, string>) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const events: StreamEvent[] = [];
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = new Map(block.split('\n').filter((line) => !line.startsWith(':') && line.includes(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim()]));
          if (fields.has('event')) events.push({ event: fields.get('event')!, id: fields.get('id'), data: JSON.parse(fields.get('data') ?? 'null') });
        }
      }
    } catch {
      // Aborted.
    }
  })();
  return {
    events,
    notifications: () => events.filter((e) => e.event === 'notification').map((e) => e.data as Notification),
    close: () => controller.abort(),
  };
}

const cookieOf = (browser: TestBrowser) => sessionCookie(browser, system.url);
const streamOf = (browser: TestBrowser, base = system.url, lastEventId?: number) =>
  openStream(`${base}/api/notifications/stream`, { cookie: cookieOf(browser), ...(lastEventId ? { 'last-event-id': String(lastEventId) } : {}) });

async function upload(description: string): Promise<number> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'crack.png');
  return (await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201)).id;
}
const review = async (id: number, status: 'approved' | 'rejected', rejectionReason?: string) =>
  json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status, ...(rejectionReason ? { rejectionReason } : {}) }));
const list = async (client: Client, query = '') => json<NotificationPage>(await send(client, 'GET', `/api/notifications${query}`));

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        const subject = /^Subject: (.*)$/m.exec(raw)?.[1] ?? '';
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), subject, body: raw });
        callback();
      });
    },
  });
  const smtpPort = await freePort();
  await new Promise<void>((resolve) => smtp.listen(smtpPort, '127.0.0.1', resolve));
  const natsStream = `NOTIFY_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const env = {
    ADMIN_EMAILS: 'admin@example.com',
    REPORTS_TO_HOLD: '2',
    RATE_LIMIT_REPORTS: '1000/1m',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    SMTP_FROM: 'Snap Cracks <no-reply@snapcracks.test>',
    SESSION_SECRET,
  };
  system = await startTestSystem(env, { natsUrl: NATS_URL, natsStream });
  // A second replica of the whole product on the same database and bus: its gateway holds streams of its own.
  replica = await startTestReplica(system, env, { natsUrl: NATS_URL, natsStream });
  [admin, owner, voter, ...reporters] = await Promise.all([
    member('admin@example.com', 'Ada Admin'),
    member('owner@example.com', 'Owner Example'),
    member('voter@example.com', 'Voter Example'),
    member('r1@example.com', 'Reporter One'),
    member('r2@example.com', 'Reporter Two'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
}, 180_000);
afterAll(async () => {
  await replica?.stop();
  await system?.stop();
  await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
});

describe('who may read notifications', () => {
  it('answers 401 signed out and 403 before the terms on every route, with a message', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/notifications'],
      ['POST', '/api/notifications/1/read'],
      ['POST', '/api/notifications/read-all'],
      ['GET', '/api/notifications/stream'],
      ['GET', '/api/user/notification-settings'],
      ['PUT', '/api/user/notification-settings', { email: false }],
    ];
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['terms pending', newcomer, 403],
    ] as const) {
      for (const [method, path, body] of calls) {
        const response = await send(client, method, path, body);
        expect(response.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await response.json()) as { message?: string }).message).toEqual(expect.any(String));
      }
    }
  });

  it('refuses bad input with the contract messages and changes nothing', async () => {
    expect(await message(await send(owner, 'POST', '/api/notifications/abc/read'), 400)).toBe(NOTIFICATIONS.idInvalid);
    expect(await message(await send(owner, 'POST', '/api/notifications/999999/read'), 404)).toBe(NOTIFICATIONS.notFound);
    expect((await send(owner, 'PUT', '/api/user/notification-settings', { email: 'no' })).status).toBe(400);
    expect((await send(owner, 'GET', '/api/notifications?limit=51')).status).toBe(400);
    expect(await json<NotificationSettings>(await send(owner, 'GET', '/api/user/notification-settings'))).toEqual({ email: true, push: true, emailAvailable: true });
  });
});

describe('notifications, live', () => {
  it("tells the owner their photo was approved, on a stream held by the other gateway replica too, and emails them", async () => {
    const here = await streamOf(owner);
    const there = await streamOf(owner, replica.url);
    const adminStream = await streamOf(admin, replica.url);
    await eventually(async () => expect(here.events.find((e) => e.event === 'unread')?.data).toEqual({ unread: 0 }));
    const photoId = await upload('Kerb crack');
    // Admins hear that the review list changed, instead of polling it.
    await eventually(async () => expect(adminStream.events.filter((e) => e.event === 'admin').map((e) => e.data)).toEqual(expect.arrayContaining([{ topic: 'photos' }, { topic: 'stats' }])));
    await review(photoId, 'approved');
    for (const stream of [here, there]) {
      await eventually(async () =>
        expect(stream.notifications()).toEqual([
          expect.objectContaining({ kind: 'photo_approved', photoId, title: 'Your photo was approved', body: '"Kerb crack" is now in the gallery.', read: false }),
        ]),
      );
    }
    expect(here.events.find((e) => e.event === 'notification')!.id).toBe(String(here.notifications()[0]!.id));
    await eventually(async () =>
      expect(mails.find((m) => m.to === 'owner@example.com' && m.subject === 'Your photo was approved' && m.body.includes('"Kerb crack" is now in the gallery.'))).toBeDefined(),
    );
    here.close();
    there.close();
    adminStream.close();
  });

  it('sends a reconnecting stream what it missed after its Last-Event-ID, and the rejection with its reason', async () => {
    const page = await list(owner);
    const lastSeen = page.notifications[0]!.id;
    const photoId = await upload('Wall crack');
    await review(photoId, 'rejected', 'The number plate is readable.');
    await eventually(async () => expect((await list(owner)).notifications[0]).toMatchObject({ kind: 'photo_rejected', body: '"Wall crack": The number plate is readable.' }));
    const again = await streamOf(owner, replica.url, lastSeen);
    await eventually(async () => expect(again.notifications().map((n) => n.kind)).toEqual(['photo_rejected']));
    again.close();
  });

  it("tells the owner of the first vote, and reporters and the owner of a removal", async () => {
    const photoId = (await list(owner)).notifications.find((n) => n.kind === 'photo_approved')!.photoId!;
    await json(await send(voter, 'POST', `/api/photos/${photoId}/vote`, { rating: 5 }));
    await eventually(async () => expect((await list(owner)).notifications[0]).toMatchObject({ kind: 'first_vote', photoId, title: 'Your photo got its first vote' }));
    // Voting again (a change, not a new vote) tells nobody anything more.
    await json(await send(voter, 'POST', `/api/photos/${photoId}/vote`, { rating: 4 }));
    for (const reporter of reporters) {
      await json(await send(reporter, 'POST', `/api/photos/${photoId}/reports`, { category: 'personal_data', note: 'A face' }), 201);
    }
    await json(await send(admin, 'POST', `/api/admin/reports/${photoId}/decision`, { decision: 'remove', reason: 'A face is visible.' }));
    for (const reporter of reporters) {
      await eventually(async () =>
        expect((await list(reporter)).notifications).toEqual([
          expect.objectContaining({ kind: 'report_outcome', photoId, body: 'The photo you reported was removed from the gallery. Thank you.' }),
        ]),
      );
    }
    await eventually(async () => expect((await list(owner)).notifications[0]).toMatchObject({ kind: 'photo_removed', body: '"Kerb crack": A face is visible.' }));
    expect((await list(owner)).notifications.filter((n) => n.kind === 'first_vote')).toHaveLength(1);
  });

  it("tells a member their support message was resolved", async () => {
    const sent = await json<{ id: number }>(await send(voter, 'POST', '/api/contact', { name: 'Voter', email: 'voter@example.com', subject: 'Lost photo', message: 'Where is it?' }), 201);
    await json(await send(admin, 'PATCH', `/api/admin/contact-forms/${sent.id}/status`, { status: 'resolved' }));
    await eventually(async () => expect((await list(voter)).notifications[0]).toMatchObject({ kind: 'support_resolved', body: '"Lost photo" is marked resolved.' }));
  });
});

describe('reading and preferences', () => {
  it('marks one and all read, pages newest first, and keeps to the caller', async () => {
    const before = await list(owner);
    expect(before.unread).toBeGreaterThanOrEqual(3);
    const first = before.notifications[0]!;
    expect(await json(await send(owner, 'POST', `/api/notifications/${first.id}/read`))).toEqual({ unread: before.unread - 1 });
    // Another member's notice is not theirs to read: a 404, and it stays unread.
    expect(await message(await send(voter, 'POST', `/api/notifications/${before.notifications[1]!.id}/read`), 404)).toBe(NOTIFICATIONS.notFound);
    expect((await list(owner)).notifications[1]!.read).toBe(false);
    const paged = await list(owner, '?limit=2&page=2');
    expect(paged).toMatchObject({ total: before.total, totalPages: Math.ceil(before.total / 2) });
    expect(paged.notifications.map((n) => n.id)).toEqual(before.notifications.slice(2, 4).map((n) => n.id));
    expect(await json(await send(owner, 'POST', '/api/notifications/read-all'))).toEqual({ unread: 0 });
    expect((await list(owner)).notifications.every((n) => n.read)).toBe(true);
  });

  it('stores the preferences and sends no email once email is off', async () => {
    expect(await json<NotificationSettings>(await send(owner, 'PUT', '/api/user/notification-settings', { email: false }))).toEqual({ email: false, push: true, emailAvailable: true });
    expect(await json<NotificationSettings>(await send(owner, 'GET', '/api/user/notification-settings'))).toEqual({ email: false, push: true, emailAvailable: true });
    const photoId = await upload('Quiet crack');
    await review(photoId, 'approved');
    await eventually(async () => expect((await list(owner)).notifications[0]).toMatchObject({ kind: 'photo_approved', photoId }));
    // Given the email consumer time to act on it: nothing about this photo was mailed (earlier notices' mail may still
    // arrive meanwhile, so only this one is looked for). The voter still gets theirs: only the owner turned email off.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(mails.filter((m) => m.to === 'owner@example.com' && m.body.includes('Quiet crack'))).toEqual([]);
    expect(mails.some((m) => m.to === 'voter@example.com' && m.subject === 'Your message was answered')).toBe(true);
  });
});

describe('the other replica', () => {
  it('reads the same preferences', async () => {
    expect(await json<NotificationSettings>(await owner.request(`${system.url}/api/user/notification-settings`, {}))).toMatchObject({ email: false });
    const response = await fetch(`${replica.url}/api/user/notification-settings`, { headers: { cookie: cookieOf(owner) } });
    expect(await json<NotificationSettings>(response)).toMatchObject({ email: false, push: true });
  });
});

