import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';
import { reachableFrom } from '../call-graph.js';
import { COMPONENT_NAMES } from '../component.js';

/** Who a call is made for. Only the gateway states it (a user assertion); services forward what they were handed. */
export interface Caller {
  userId: string;
  isAdmin: boolean;
  hasAcceptedTerms: boolean;
}

/** A verified call: the user it was made for (if any) and the component that made it. */
export interface CallIdentity {
  caller: Caller | null;
  /** Name of the calling component, e.g. "gateway" or "moderation". */
  service: string;
}

/** The calling component's own proof, bound to one method of one service. Carries no user. */
export const IDENTITY_HEADER = 'x-snapcracks-identity';
/** The gateway's statement of who the user is, forwarded unchanged by every service that acts for that user. */
export const USER_HEADER = 'x-snapcracks-user';

const VERSION = 'v2';
/** The longest a user assertion lives: long enough for a request's chain of calls, short enough to make replay useless. */
export const USER_ASSERTION_LIFETIME_SECONDS = 30;
/** A component's proof is accepted this long after it was made (it names one method of one service). */
const CALL_PROOF_MAX_AGE_SECONDS = 30;
/** Clocks of different pods differ a little; a claim from this far in the future is still accepted. */
const CLOCK_SKEW_SECONDS = 5;

/** What a component signs for one call: who it is, and the one service and method it may be presented to. */
interface CallProofClaims {
  svc: string;
  aud: string;
  mth: string;
  iat: number;
}

/** What the gateway signs about a user: who, with which rights, for which services, until when. */
interface UserClaims {
  sub: string;
  adm: boolean;
  trm: boolean;
  aud: string[];
  iat: number;
  exp: number;
}

// PKCS#8 DER of an Ed25519 private key is this prefix followed by the 32-byte seed (RFC 8410).
const ED25519_PKCS8_PREFIX = Buffer.from('302e020100300506032b657004220420', 'hex');

/**
 * Ed25519 keys of the components: the private key of each component this process runs, and the public key of
 * every component. A service therefore accepts "gateway" only from whoever holds the gateway's private key; a
 * compromised service can sign as itself and nothing else.
 */
export class IdentityKeyring {
  constructor(
    private readonly privateKeys: ReadonlyMap<string, KeyObject>,
    private readonly publicKeys: ReadonlyMap<string, KeyObject>,
  ) {}

  /** Fresh keys for every component, known only to this process (all-in-one, tests). */
  static generate(components: readonly string[] = COMPONENT_NAMES): IdentityKeyring {
    const pairs = components.map((name) => [name, generateKeyPairSync('ed25519')] as const);
    return new IdentityKeyring(new Map(pairs.map(([name, pair]) => [name, pair.privateKey])), new Map(pairs.map(([name, pair]) => [name, pair.publicKey])));
  }

  /**
   * Every component's keys derived from one shared secret: whoever holds it can sign as anyone, which is
   * exactly what separate keys prevent. Development and tests only (see resolveIdentityKeyring).
   */
  static fromSharedSecret(secret: string, components: readonly string[] = COMPONENT_NAMES): IdentityKeyring {
    const privateKeys = new Map(
      components.map((name) => {
        const seed = createHmac('sha256', secret).update(`snapcracks identity ${name}`).digest();
        return [name, createPrivateKey({ key: Buffer.concat([ED25519_PKCS8_PREFIX, seed]), format: 'der', type: 'pkcs8' })] as const;
      }),
    );
    return new IdentityKeyring(privateKeys, new Map([...privateKeys].map(([name, key]) => [name, createPublicKey(key)])));
  }

  /**
   * One component's private key and everyone's public keys, as `pnpm identity:keys` prints them: the private key
   * as base64 PKCS#8 DER, the public keys as `name=<base64 SPKI DER>` pairs separated by commas.
   */
  static fromConfig(component: string, privateKey: string, publicKeys: string): IdentityKeyring {
    const publics = new Map<string, KeyObject>();
    for (const entry of publicKeys.split(',').map((e) => e.trim()).filter(Boolean)) {
      const [name, value] = entry.split('=', 2);
      if (!name || !value) throw new Error(`IDENTITY_PUBLIC_KEYS: "${entry}" is not name=key`);
      publics.set(name, ed25519(createPublicKey({ key: Buffer.from(value, 'base64'), format: 'der', type: 'spki' }), `the public key of ${name}`));
    }
    const own = ed25519(createPrivateKey({ key: Buffer.from(privateKey, 'base64'), format: 'der', type: 'pkcs8' }), 'IDENTITY_PRIVATE_KEY');
    const expected = publics.get(component)?.export({ format: 'der', type: 'spki' });
    if (!expected || !createPublicKey(own).export({ format: 'der', type: 'spki' }).equals(expected)) {
      throw new Error(`IDENTITY_PRIVATE_KEY is not the key whose public half IDENTITY_PUBLIC_KEYS lists for ${component}`);
    }
    return new IdentityKeyring(new Map([[component, own]]), publics);
  }

  privateKeyOf(component: string): KeyObject {
    const key = this.privateKeys.get(component);
    if (!key) throw new Error(`No identity private key for ${component} in this process`);
    return key;
  }

  publicKeyOf(component: string): KeyObject | undefined {
    return this.publicKeys.get(component);
  }

  /** `name=<base64 SPKI>` for every component, the form IDENTITY_PUBLIC_KEYS takes. */
  publicKeysConfig(): string {
    return [...this.publicKeys].map(([name, key]) => `${name}=${key.export({ format: 'der', type: 'spki' }).toString('base64')}`).join(',');
  }

  privateKeyConfig(component: string): string {
    return this.privateKeyOf(component).export({ format: 'der', type: 'pkcs8' }).toString('base64');
  }

  /** The keys as plain maps, to hand to another thread of this process (a KeyObject crosses postMessage whole). */
  keyMaps(): { privateKeys: ReadonlyMap<string, KeyObject>; publicKeys: ReadonlyMap<string, KeyObject> } {
    return { privateKeys: this.privateKeys, publicKeys: this.publicKeys };
  }
}

function ed25519(key: KeyObject, what: string): KeyObject {
  if (key.asymmetricKeyType !== 'ed25519') throw new Error(`${what} is not an Ed25519 key`);
  return key;
}

/** How long a signed proof or assertion is reused: a forwarded assertion keeps at least 20 of its 30 seconds. */
const REUSE_SECONDS = 10;
const CACHE_LIMIT = 10_000;

/** Which user assertion a verified caller came with, so that a service forwards it unchanged to its peers. */
const assertions = new WeakMap<Caller, string>();

/**
 * Signs this component's calls and verifies incoming ones. Two headers travel with a call:
 * - the calling component's proof (IDENTITY_HEADER), signed with its own key and bound to the one service and
 *   method it calls, so a captured header cannot be replayed against anything else;
 * - the user assertion (USER_HEADER), which only the gateway signs: the user, admin and terms claims, the services it
 *   may be presented to (the service called and those it calls in turn) and an expiry 30 s out. A service acting for
 *   the user forwards it unchanged; a service signing for itself carries none, so a compromised service can act only
 *   for users whose requests it is serving, and only for 30 s.
 * Signing and verifying cost tens of microseconds, so proofs and assertions are reused for a few seconds and a
 * verified header is remembered.
 */
export class IdentitySigner {
  private readonly proofs = new Map<string, { header: string; iat: number }>();
  private readonly userAssertions = new Map<string, { header: string; iat: number }>();
  private readonly verifiedProofs = new Map<string, CallProofClaims>();
  private readonly verifiedUsers = new Map<string, { caller: Caller; claims: UserClaims }>();

  constructor(
    private readonly keyring: IdentityKeyring,
    /** The component whose calls this signs and to which incoming calls must be addressed. */
    readonly service: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  /** This component's proof for one call to `target`'s `method` (a gRPC path, e.g. "/snapcracks.vote.v1.VoteService/CastVote"). */
  signCall(target: string, method: string): string {
    const now = this.seconds();
    const cacheKey = `${target} ${method}`;
    const reuse = this.proofs.get(cacheKey);
    if (reuse && now - reuse.iat >= 0 && now - reuse.iat < REUSE_SECONDS) return reuse.header;
    const claims: CallProofClaims = { svc: this.service, aud: target, mth: method, iat: now };
    const header = this.seal(claims, this.service);
    remember(this.proofs, cacheKey, { header, iat: now });
    return header;
  }

  /**
   * The user assertion a call to `target` carries for `caller`: the gateway signs one; a service forwards the one it was
   * handed with the call it is serving, and cannot make one.
   */
  userAssertion(caller: Caller | null, target: string): string | undefined {
    if (!caller) return undefined;
    const handed = assertions.get(caller);
    if (handed) return handed;
    if (this.service !== 'gateway') {
      throw new Error(`${this.service} cannot state who the user is: forward the caller of the call being served (ctx.caller)`);
    }
    const now = this.seconds();
    const cacheKey = `${caller.userId}\u0000${caller.isAdmin}\u0000${caller.hasAcceptedTerms}\u0000${target}`;
    const reuse = this.userAssertions.get(cacheKey);
    if (reuse && now - reuse.iat >= 0 && now - reuse.iat < REUSE_SECONDS) return reuse.header;
    const claims: UserClaims = {
      sub: caller.userId,
      adm: caller.isAdmin,
      trm: caller.hasAcceptedTerms,
      aud: reachableFrom(target),
      iat: now,
      exp: now + USER_ASSERTION_LIFETIME_SECONDS,
    };
    const header = this.seal(claims, 'gateway');
    remember(this.userAssertions, cacheKey, { header, iat: now });
    return header;
  }

  /**
   * Returns who made a call to `method` of this service and for whom, or throws `InvalidIdentityError` (with the reason,
   * for the logs) for a missing, malformed, forged, misaddressed or stale proof or assertion.
   */
  verifyCall(headers: { identity: string | undefined; user: string | undefined }, method: string): CallIdentity {
    const proof = this.verifyProof(headers.identity);
    if (proof.aud !== this.service || proof.mth !== method) throw new InvalidIdentityError(`a call proof addressed to ${proof.aud}${proof.mth}`);
    return { service: proof.svc, caller: headers.user ? this.verifyUser(headers.user) : null };
  }

  /** The user of a user assertion addressed to this service, or throws `InvalidIdentityError`. */
  verifyUser(header: string): Caller {
    let known = this.verifiedUsers.get(header);
    if (!known) {
      const claims = this.open<UserClaims>(header, () => 'gateway');
      if (typeof claims.sub !== 'string' || !claims.sub || !Array.isArray(claims.aud) || !Number.isInteger(claims.exp) || !Number.isInteger(claims.iat)) {
        throw new InvalidIdentityError('malformed user assertion');
      }
      if (claims.exp - claims.iat > USER_ASSERTION_LIFETIME_SECONDS) throw new InvalidIdentityError('a user assertion that lives too long');
      const caller: Caller = { userId: claims.sub, isAdmin: claims.adm === true, hasAcceptedTerms: claims.trm === true };
      assertions.set(caller, header);
      known = { caller, claims };
      remember(this.verifiedUsers, header, known);
    }
    const now = this.seconds();
    if (now > known.claims.exp || known.claims.iat > now + CLOCK_SKEW_SECONDS) throw new InvalidIdentityError('an expired user assertion');
    if (!known.claims.aud.includes(this.service)) throw new InvalidIdentityError(`a user assertion for ${known.claims.aud.join(', ')}`);
    return known.caller;
  }

  /** Adds the proof of a call to `target`'s `method` and, when acting for a user, the user assertion. */
  addTo(metadata: Metadata, target: string, method: string, caller: Caller | null): Metadata {
    metadata.set(IDENTITY_HEADER, this.signCall(target, method));
    const user = this.userAssertion(caller, target);
    if (user) metadata.set(USER_HEADER, user);
    return metadata;
  }

  private verifyProof(header: string | undefined): CallProofClaims {
    if (!header) throw new InvalidIdentityError('missing call proof');
    let claims = this.verifiedProofs.get(header);
    if (!claims) {
      claims = this.open<CallProofClaims>(header, (c) => c.svc);
      if (typeof claims.aud !== 'string' || typeof claims.mth !== 'string' || !Number.isInteger(claims.iat)) throw new InvalidIdentityError('malformed call proof');
      remember(this.verifiedProofs, header, claims);
    }
    const age = this.seconds() - claims.iat;
    if (age > CALL_PROOF_MAX_AGE_SECONDS || age < -CLOCK_SKEW_SECONDS) throw new InvalidIdentityError('a stale call proof');
    return claims;
  }

  private seal(claims: object, signer: string): string {
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = cryptoSign(null, Buffer.from(body), this.keyring.privateKeyOf(signer)).toString('base64url');
    return `${VERSION}.${body}.${signature}`;
  }

  /** The claims of a sealed header, after checking its signature with the key of the component `signerOf` names. */
  private open<C>(header: string, signerOf: (claims: C) => unknown): C {
    const [version, body, signature, extra] = header.split('.');
    if (version !== VERSION || !body || !signature || extra !== undefined) throw new InvalidIdentityError('a malformed header');
    let claims: C;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as C;
    } catch {
      throw new InvalidIdentityError('a malformed header');
    }
    if (typeof claims !== 'object' || claims === null) throw new InvalidIdentityError('a malformed header');
    const signer = signerOf(claims);
    const key = typeof signer === 'string' ? this.keyring.publicKeyOf(signer) : undefined;
    if (!key || !cryptoVerify(null, Buffer.from(body), key, Buffer.from(signature, 'base64url'))) throw new InvalidIdentityError('a forged header');
    return claims;
  }

  private seconds(): number {
    return Math.floor(this.now() / 1000);
  }
}

/**
 * Test support: a caller as a service would have received it, with a fresh gateway assertion for `audience` attached,
 * so that a test can call a service as another service acting for that user.
 */
export function forwardedCaller(gateway: IdentitySigner, caller: Caller, target: string): Caller {
  const header = gateway.userAssertion(caller, target);
  const copy = { ...caller };
  if (header) assertions.set(copy, header);
  return copy;
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

export class InvalidIdentityError extends Error {
  override name = 'InvalidIdentityError';
}
