import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { Envelope, eventSignatures, makeEvent, SIGNATURE_HEADER } from '@snapcracks/kit';
import { createTestStream, type TestStream } from '@snapcracks/kit/testing';
import { UserDeleted } from '@snapcracks/proto/events/v1';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

/**
 * The product on NATS, and someone who holds the NATS credential but not auth's private key (a compromised storage
 * process) publishing `auth.user.deleted` for a member: the photo service refuses it, and the member's photo stays.
 */
/** The NATS client the kit uses (this package does not depend on it): its headers, for a message published past the bus. */
type MsgHdrs = NonNullable<NonNullable<Parameters<ReturnType<TestStream['jsm']['jetstream']>['publish']>[2]>['headers']>;
const { headers } = (await import(createRequire(import.meta.resolve('@snapcracks/kit')).resolve('@nats-io/transport-node'))) as { headers: () => MsgHdrs };
const fixture = readFileSync(new URL('../../storage/test/fixtures/rotated-gps.jpg', import.meta.url));
const eventually = { timeout: 20_000, interval: 50 };

let stream: TestStream;
let system: Awaited<ReturnType<typeof startTestSystem>>;
let alice: TestBrowser;
let bob: TestBrowser;

const api = (path: string) => `${system.url}${path}`;
const json = async <T>(response: Response): Promise<T> => {
  expect(response.status).toBe(200);
  return (await response.json()) as T;
};
const myPhotos = async (browser: TestBrowser) => json<{ id: number }[]>(await browser.request(api('/api/user/photos'), {}));
const myId = async (browser: TestBrowser) => (await json<{ id: string }>(await browser.request(api('/api/auth/user'), {}))).id;

async function memberWithPhoto(email: string, name: string): Promise<TestBrowser> {
  const { browser } = await signIn(system.url, email, name);
  const accepted = await browser.request(api('/api/auth/accept-terms'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hasAcceptedTerms":true}' });
  expect(accepted.status).toBe(200);
  const form = new FormData();
  form.append('description', 'A crack');
  form.append('photo', new Blob([new Uint8Array(fixture)]), 'crack.jpg');
  expect((await browser.request(api('/api/photos'), { method: 'POST', body: form })).status).toBe(201);
  return browser;
}

/** Publishes straight to the events subject, past the product's bus, with the given signature header (or none). */
async function publishRaw(type: string, data: Uint8Array, signature?: string): Promise<number> {
  const h = headers();
  if (signature) h.set(SIGNATURE_HEADER, signature);
  const ack = await stream.jsm.jetstream().publish(`${stream.stream.toLowerCase()}.events.${type}`, data, { headers: h });
  return ack.seq;
}

/** Resolves once every durable consumer of `auth.user.deleted` has been handed, and has answered, the message at `seq`. */
async function consumersPast(seq: number): Promise<void> {
  await vi.waitFor(async () => {
    const consumers = await stream.jsm.consumers.list(stream.stream).next();
    const durables = consumers.filter((consumer) => consumer.config.durable_name && consumer.config.filter_subject?.endsWith('.auth.user.deleted'));
    expect(durables.length).toBeGreaterThan(0);
    for (const consumer of durables) {
      expect(consumer.delivered.stream_seq).toBeGreaterThanOrEqual(seq);
      expect(consumer.num_ack_pending + consumer.num_redelivered).toBe(0);
    }
  }, eventually);
}

beforeAll(async () => {
  stream = await createTestStream('forged');
  system = await startTestSystem({}, { natsUrl: stream.url, natsStream: stream.stream });
  [alice, bob] = await Promise.all([memberWithPhoto('alice@example.com', 'Alice Example'), memberWithPhoto('bob@example.com', 'Bob Example')]);
}, 120_000);
afterAll(async () => {
  await system?.stop();
  await stream?.delete();
});

describe('a forged auth.user.deleted on a running system', () => {
  it("changes nothing: unsigned or signed with storage's key, the member's photo stays; auth's own signature is obeyed", async () => {
    const [aliceId, bobId] = await Promise.all([myId(alice), myId(bob)]);
    expect(await myPhotos(alice)).toHaveLength(1);
    const forged = Envelope.encode(makeEvent('auth.user.deleted', UserDeleted, { userId: aliceId }, { source: 'auth' })).finish();
    // storage's private key, used as if it were auth's: the signature names auth, storage made it.
    const storageKey = eventSignatures({ privateKeyOf: () => TEST_IDENTITY.privateKeyOf('storage'), publicKeyOf: () => undefined });
    const asAuth = storageKey.sign('auth.user.deleted', forged);

    await publishRaw('auth.user.deleted', forged);
    await publishRaw('auth.user.deleted', forged, asAuth);
    const last = await publishRaw('auth.user.deleted', forged, `storage.${asAuth.split('.')[1]}`);
    await consumersPast(last);
    expect(await myPhotos(alice)).toHaveLength(1);

    // The same event for bob, signed with auth's key: this system acts on it.
    const genuine = Envelope.encode(makeEvent('auth.user.deleted', UserDeleted, { userId: bobId }, { source: 'auth' })).finish();
    await consumersPast(await publishRaw('auth.user.deleted', genuine, eventSignatures(TEST_IDENTITY).sign('auth.user.deleted', genuine)));
    await vi.waitFor(async () => expect(await myPhotos(bob)).toHaveLength(0), eventually);
    expect(await myPhotos(alice)).toHaveLength(1);
  }, 60_000);
});
