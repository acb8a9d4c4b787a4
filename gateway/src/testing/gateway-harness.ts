import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import pino from 'pino';
import type { User } from '@snapcracks/proto/auth/v1';
import { IdentityKeyring, IdentitySigner, SERVICE_NAMES, createMemoryEventBus, type Caller, type Logger, type Platform, type ServiceName } from '@snapcracks/kit';
import { buildApp } from '../app.js';
import type { Clients } from '../clients.js';
import { loadGatewayConfig } from '../config.js';
import type { OidcRelyingParty, PendingSignIn } from '../oidc.js';
import { NotificationHub } from '../notifications/notification-hub.js';
import { PersonalFeed } from '../feed/personal-feed.js';
import { PublicPageCache } from '../public-page-cache.js';
import type { Readiness } from '../readiness.js';
import type { PrismaSessionStore } from '../session-store.js';
import { UserDirectory } from '../user-directory.js';
import { SESSION_COOKIE } from '../plugins/session.js';
import { MemorySessionStore } from './memory-session-store.js';
import { MemoryDataExports } from './memory-data-exports.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Handler = (request: any, caller: Caller | null) => unknown;
/** What a fake service answers, method by method; a call to a method it lacks fails the test. */
export type FakeServices = Partial<Record<ServiceName, Record<string, Handler>>>;

export interface RecordedCall {
  service: ServiceName;
  method: string;
  request: unknown;
  caller: Caller | null;
}

/** An account the fake auth service knows; `signIn` makes a session for it. */
export type Account = Partial<User> & { id: string };

export interface HarnessOptions {
  services?: FakeServices;
  /** The gateway's environment beside the defaults (rate limits out of the way). */
  env?: Record<string, string>;
  /** PUBLIC_URL; the request's own origin without it. */
  publicUrl?: string;
  /** The identity provider's answers, where a test needs others than a sign-in that succeeds. */
  oidc?: Partial<OidcRelyingParty>;
  /** Where the gateway logs (silent by default). */
  logger?: Logger;
  /** Members' data exports; in memory, empty, by default. */
  dataExports?: MemoryDataExports;
}

export interface GatewayHarness {
  app: FastifyInstance;
  /** The sessions as stored. */
  sessions: MemorySessionStore;
  calls: RecordedCall[];
  /** The public pages kept, as photo and vote events would clear them. */
  publicPages: PublicPageCache;
  /** Adds or replaces an account, as the auth service would answer it; the gateway sees the change at once. */
  account(account: Account): User;
  /** Signs `account` in through the real sign-in routes; answers its session cookie. */
  signIn(account: Account): Promise<string>;
  inject(options: InjectOptions & { cookie?: string }): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A member who accepted the terms: what most routes need. */
export const MEMBER: Account = { id: 'member-1', hasAcceptedTerms: true };
export const ADMIN: Account = { id: 'admin-1', hasAcceptedTerms: true, isAdmin: true };

/**
 * The whole gateway (`buildApp`, every plugin and route) in front of fake services: each gRPC call goes to a function
 * the test gives and is recorded, so a route test sees exactly what the gateway asks and answers, without a network.
 */
export async function gatewayHarness({
  services = {},
  env = {},
  publicUrl,
  oidc: oidcAnswers,
  logger = pino({ level: 'silent' }),
  dataExports = new MemoryDataExports(),
}: HarnessOptions = {}): Promise<GatewayHarness> {
  const accounts = new Map<string, User>();
  const calls: RecordedCall[] = [];
  let signingIn: string | undefined;
  const auth = {
    getUser: ({ id }: { id: string }) => ({ user: accounts.get(id) }),
    signIn: () => ({ user: accounts.get(signingIn ?? ''), created: false }),
    ...services.auth,
  };
  const clients = fakeClients({ ...services, auth }, calls);
  const oidc = {
    issuerOrigin: 'http://idp.test',
    startSignIn: (redirectUri: string) => {
      const pending: PendingSignIn = { codeVerifier: 'verifier', state: 'state', nonce: 'nonce', redirectUri };
      return Promise.resolve({ url: new URL('http://idp.test/authorize?state=state'), pending });
    },
    finishSignIn: () => Promise.resolve({ claims: { issuer: 'http://idp.test', subject: signingIn, emailVerified: true }, idToken: 'id.token' }),
    endSessionUrl: () => Promise.resolve(undefined),
    ...oidcAnswers,
  } as unknown as OidcRelyingParty;
  const sessions = new MemorySessionStore();
  const bus = createMemoryEventBus();
  const publicPages = new PublicPageCache();
  // Tests sign in and call far more often than a person: the limits are tested on their own (plugins/*limits*.test.ts).
  const config = loadGatewayConfig({ NODE_ENV: 'test', RATE_LIMIT_API: '100000/1m', RATE_LIMIT_SIGN_IN: '100000/1m', ...env });
  const users = new UserDirectory(clients);
  const app = await buildApp({
    logger,
    platform: { bus } as unknown as Platform,
    prisma: undefined as never,
    clients,
    oidc,
    users,
    publicPages,
    // Never loaded here: need-your-vote pages come from the (fake) photo service, as before a replica's feed is ready.
    personalFeed: new PersonalFeed({ clients }),
    notifications: new NotificationHub(),
    sessionStore: sessions as unknown as PrismaSessionStore,
    sessionSecret: 'a test secret of at least thirty-two characters',
    sessionMaxMs: 3_600_000,
    publicUrl: publicUrl ?? null,
    trustProxy: false,
    rateLimits: config.rateLimits,
    readiness: { ready: () => Promise.resolve(true) } as unknown as Readiness,
    dataExports,
    // Resumable uploads need their table: tested against PostgreSQL (resumable-uploads.int.test.ts).
    resumableUploads: { uploads: undefined as never, keepHours: 24 },
  });
  await app.ready();

  const account = (given: Account) => {
    const user: User = { isAdmin: false, isEnabled: true, hasAcceptedTerms: false, createdAt: new Date('2025-01-01T00:00:00Z'), ...given };
    accounts.set(user.id, user);
    // As auth.user.updated does on every replica: the next request sees the change.
    users.remember(user.id, user);
    return user;
  };
  const inject = ({ cookie, ...options }: InjectOptions & { cookie?: string }) =>
    app.inject({ ...options, headers: { ...options.headers, ...(cookie ? { cookie } : {}) } });
  return {
    app,
    sessions,
    calls,
    publicPages,
    account,
    async signIn(given) {
      account(given);
      signingIn = given.id;
      const login = await app.inject({ method: 'GET', url: '/api/login' });
      const started = sessionCookie(login);
      const callback = await inject({ method: 'GET', url: '/api/callback?code=c&state=state', cookie: started });
      const cookie = sessionCookie(callback);
      if (callback.statusCode !== 302 || !cookie) throw new Error(`sign-in failed: ${callback.statusCode} ${callback.body}`);
      calls.length = 0;
      return cookie;
    },
    inject,
    close: () => app.close(),
  };
}

/** The session cookie a response sets, as a `cookie` header's value; empty when it sets none. */
export function sessionCookie(response: LightMyRequestResponse): string {
  const header = [response.headers['set-cookie'] ?? []].flat().find((cookie) => cookie.startsWith(`${SESSION_COOKIE}=`));
  return header?.split(';')[0] ?? '';
}

/**
 * Clients whose calls go to `services`: `call.x(request)` answers `services[name].x(request, caller)`;
 * `clientStream(x)` collects what is sent and answers `x(messages, caller)` on finish; `serverStream(x)` iterates what
 * `x(request, caller)` returns.
 */
function fakeClients(services: FakeServices, calls: RecordedCall[]): Clients {
  const handler = (service: ServiceName, method: string): Handler => {
    const found = services[service]?.[method];
    if (!found) throw new Error(`unexpected call to ${service}.${method}`);
    return found;
  };
  const client = (service: ServiceName) => ({
    call: new Proxy(
      {},
      {
        get: (_target, method: string) => async (request: unknown, options: { caller: Caller | null }) => {
          calls.push({ service, method, request, caller: options.caller });
          return handler(service, method)(request, options.caller);
        },
      },
    ),
    clientStream(method: string, options: { caller: Caller | null }) {
      const messages: unknown[] = [];
      let cancelled = false;
      return {
        send: async (message: unknown) => void messages.push(message),
        finish: async () => {
          if (cancelled) throw new Error('finished after cancel');
          calls.push({ service, method, request: messages, caller: options.caller });
          return handler(service, method)(messages, options.caller);
        },
        cancel: () => {
          cancelled = true;
          calls.push({ service, method: `${method}:cancelled`, request: messages, caller: options.caller });
        },
      };
    },
    serverStream(method: string, request: unknown, options: { caller: Caller | null }) {
      calls.push({ service, method, request, caller: options.caller });
      return (async function* () {
        yield* (await handler(service, method)(request, options.caller)) as Iterable<unknown>;
      })();
    },
    close: () => undefined,
  });
  // Batched votes carry each member's signed origin, made with the gateway's key as in production.
  const signer = new IdentitySigner(IdentityKeyring.generate(['gateway']), 'gateway');
  return { signer, ...Object.fromEntries(SERVICE_NAMES.map((name) => [name, client(name)])) } as unknown as Clients;
}
