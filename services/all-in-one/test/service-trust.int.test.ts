import { sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Metadata, credentials, status, type Client, type ServiceError } from '@grpc/grpc-js';
import { IDENTITY_HEADER, IdentitySigner, USER_HEADER, createServiceClient, type Caller, type ServiceName } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { ModerationServiceClient } from '@snapcracks/proto/moderation/v1';
import { StatsServiceClient } from '@snapcracks/proto/stats/v1';
import { SupportServiceClient } from '@snapcracks/proto/support/v1';
import { StorageServiceClient } from '@snapcracks/proto/storage/v1';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

/*
 * The trust boundary between components, against the running product: a compromised component (here one holding only
 * its own key) cannot act for a user or an admin it was not handed, on any service, whatever it signs.
 */

let system: Awaited<ReturnType<typeof startTestSystem>>;
let admin: Caller;
let member: Caller;

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  const idOf = async (email: string, name: string) => {
    const { browser } = await signIn(system.url, email, name);
    const accepted = await browser.request(`${system.url}/api/auth/accept-terms`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: system.url },
      body: JSON.stringify({ hasAcceptedTerms: true }),
    });
    return ((await accepted.json()) as { id: string }).id;
  };
  admin = { userId: await idOf('boss@example.com', 'Big Boss'), isAdmin: true, hasAcceptedTerms: true };
  member = { userId: await idOf('ann@example.com', 'Ann Member'), isAdmin: false, hasAcceptedTerms: true };
});
afterAll(async () => {
  await system?.stop();
});

type GeneratedClient = (new (address: string, creds: ReturnType<typeof credentials.createInsecure>) => Client) & {
  service: Record<string, { path: string }>;
};

/**
 * One call per service that answers an admin (or, for photo and vote, a member) when the identity is genuine; storage's,
 * with no Drive configured, gets as far as saying so.
 */
const TARGETS: { service: ServiceName; Client: GeneratedClient; method: string; request: object; as: () => Caller; authorizedAnswer?: number }[] = [
  { service: 'auth', Client: AuthServiceClient, method: 'listUsers', request: {}, as: () => admin },
  { service: 'photo', Client: PhotoServiceClient, method: 'listMyPhotos', request: {}, as: () => member },
  { service: 'vote', Client: VoteServiceClient, method: 'getMyVote', request: { photoId: 1 }, as: () => member },
  { service: 'moderation', Client: ModerationServiceClient, method: 'listActions', request: { photoIds: [], limit: 10 }, as: () => admin },
  { service: 'stats', Client: StatsServiceClient, method: 'getAdminStats', request: {}, as: () => admin },
  { service: 'support', Client: SupportServiceClient, method: 'listContactForms', request: { status: 0 }, as: () => admin },
  { service: 'storage', Client: StorageServiceClient, method: 'getDriveAuthUrl', request: { redirectUri: 'http://localhost/cb' }, as: () => admin, authorizedAnswer: status.FAILED_PRECONDITION },
];

/** A call with exactly these headers, as any process on the network could make it. */
async function callWith(target: (typeof TARGETS)[number], headers: { identity?: string; user?: string }): Promise<ServiceError | null> {
  const client = new target.Client(system.platform.addresses[target.service]!, credentials.createInsecure());
  const metadata = new Metadata();
  if (headers.identity) metadata.set(IDENTITY_HEADER, headers.identity);
  if (headers.user) metadata.set(USER_HEADER, headers.user);
  try {
    return await new Promise((resolve) => {
      const method = (client as unknown as Record<string, (...args: unknown[]) => void>)[target.method]!.bind(client);
      method(target.request, metadata, { deadline: new Date(Date.now() + 10_000) }, (error: ServiceError | null) => resolve(error));
    });
  } finally {
    client.close();
  }
}

const pathOf = (target: (typeof TARGETS)[number]) => target.Client.service[target.method]!.path;

/** A user assertion sealed with `component`'s own key: what a compromised component can make. */
function sealedBy(component: string, claims: object): string {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `v2.${body}.${sign(null, Buffer.from(body), TEST_IDENTITY.privateKeyOf(component)).toString('base64url')}`;
}
const now = () => Math.floor(Date.now() / 1000);

describe.each(TARGETS)('the $service service', (target) => {
  /** A compromised component that calls this service in real life where there is one; storage otherwise. */
  const attacker = target.service === 'storage' ? 'photo' : 'storage';
  const proof = () => new IdentitySigner(TEST_IDENTITY, attacker).signCall(target.service, pathOf(target));

  it('answers a genuine call from the gateway (the control)', async () => {
    const gateway = new IdentitySigner(TEST_IDENTITY, 'gateway');
    const client = createServiceClient(target.Client as never, system.platform.addresses[target.service]!, { signer: gateway, peer: target.service });
    try {
      const call = (client.call as Record<string, (request: object, options: { caller: Caller }) => Promise<unknown>>)[target.method]!;
      const answer = call(target.request, { caller: target.as() });
      if (target.authorizedAnswer === undefined) await expect(answer).resolves.toBeDefined();
      else await expect(answer).rejects.toMatchObject({ code: target.authorizedAnswer });
    } finally {
      client.close();
    }
  });

  it(`refuses a call signed by ${attacker} with forged user and admin claims`, async () => {
    const forged = sealedBy(attacker, { sub: target.as().userId, adm: true, trm: true, aud: [target.service], iat: now(), exp: now() + 30 });
    expect(await callWith(target, { identity: proof(), user: forged })).toMatchObject({ code: status.UNAUTHENTICATED, details: 'Refused' });
    // Claiming to be the gateway does not help: its proof is checked against the gateway's key.
    const posing = sealedBy(attacker, { svc: 'gateway', aud: target.service, mth: pathOf(target), iat: now() });
    expect(await callWith(target, { identity: posing, user: forged })).toMatchObject({ code: status.UNAUTHENTICATED });
  });

  it('refuses a genuine assertion shown outside its audience, or after it expired', async () => {
    const gateway = new IdentitySigner(TEST_IDENTITY, 'gateway');
    // The gateway's assertion for a call to another service (support, or vote when this is support) that never reaches this one.
    const elsewhere = gateway.userAssertion(target.as(), target.service === 'support' ? 'vote' : 'support');
    expect(await callWith(target, { identity: proof(), user: elsewhere })).toMatchObject({ code: status.UNAUTHENTICATED, details: 'Refused' });
    const expired = new IdentitySigner(TEST_IDENTITY, 'gateway', () => Date.now() - 31_000).userAssertion(target.as(), target.service);
    expect(await callWith(target, { identity: proof(), user: expired })).toMatchObject({ code: status.UNAUTHENTICATED, details: 'Refused' });
  });

  it('refuses a captured proof replayed against another service or method', async () => {
    const gateway = new IdentitySigner(TEST_IDENTITY, 'gateway');
    const user = gateway.userAssertion(target.as(), target.service);
    const forOtherService = gateway.signCall(target.service === 'auth' ? 'vote' : 'auth', pathOf(target));
    expect(await callWith(target, { identity: forOtherService, user })).toMatchObject({ code: status.UNAUTHENTICATED, details: 'Refused' });
    const forOtherMethod = gateway.signCall(target.service, `${pathOf(target)}Elsewhere`);
    expect(await callWith(target, { identity: forOtherMethod, user })).toMatchObject({ code: status.UNAUTHENTICATED, details: 'Refused' });
  });
});

describe('admin-only changes', () => {
  it('check the acting admin\'s current account, not only the claim', async () => {
    const auth = createServiceClient(AuthServiceClient, system.platform.addresses.auth!, { signer: new IdentitySigner(TEST_IDENTITY, 'gateway'), peer: 'auth' });
    try {
      // A genuine gateway assertion that says "admin" for an account that is not one (a claim made before a demotion).
      const stale = { ...member, isAdmin: true };
      await expect(auth.call.updateUser({ id: member.userId, isAdmin: true }, { caller: stale })).rejects.toMatchObject({
        code: status.PERMISSION_DENIED,
        details: 'Administrator access required',
      });
      const { user } = await auth.call.getUser({ id: member.userId }, { caller: admin });
      expect(user?.isAdmin).toBe(false);
      const moderation = createServiceClient(ModerationServiceClient, system.platform.addresses.moderation!, {
        signer: new IdentitySigner(TEST_IDENTITY, 'gateway'),
        peer: 'moderation',
      });
      try {
        await expect(moderation.call.deletePhoto({ photoId: 1 }, { caller: stale })).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
      } finally {
        moderation.close();
      }
    } finally {
      auth.close();
    }
  });
});
