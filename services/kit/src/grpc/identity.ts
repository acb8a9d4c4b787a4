import { createHmac, createPrivateKey, createPublicKey, generateKeyPairSync, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';
import type { Metadata } from '@grpc/grpc-js';

/** Who a call is made for. Set by the gateway from the session; services trust it only when signed. */
export interface Caller {
  userId: string;
  isAdmin: boolean;
  hasAcceptedTerms: boolean;
}

/** A verified identity: the user (if any) and the service that made the call. */
export interface CallIdentity {
  caller: Caller | null;
  /** Name of the calling component, e.g. "gateway" or "moderation". */
  service: string;
}

export const IDENTITY_HEADER = 'x-snapcracks-identity';
const VERSION = 'v1';
/** A signed identity is accepted this long after it was made; longer than any deadline, short enough to make replay useless. */
const MAX_AGE_SECONDS = 120;

interface Claims {
  svc: string;
  sub?: string;
  adm?: boolean;
  trm?: boolean;
  iat: number;
}

/** The components that sign calls: the gateway and every service. */
export const IDENTITY_COMPONENTS = ['gateway', 'auth', 'photo', 'vote', 'moderation', 'stats', 'support', 'storage'] as const;

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
  static generate(components: readonly string[] = IDENTITY_COMPONENTS): IdentityKeyring {
    const pairs = components.map((name) => [name, generateKeyPairSync('ed25519')] as const);
    return new IdentityKeyring(new Map(pairs.map(([name, pair]) => [name, pair.privateKey])), new Map(pairs.map(([name, pair]) => [name, pair.publicKey])));
  }

  /**
   * Every component's keys derived from one shared secret: whoever holds it can sign as anyone, which is
   * exactly what separate keys prevent. Development and tests only (see resolveIdentityKeyring).
   */
  static fromSharedSecret(secret: string, components: readonly string[] = IDENTITY_COMPONENTS): IdentityKeyring {
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

/** How long one signed header is reused for the same caller: well inside MAX_AGE_SECONDS. */
const REUSE_SECONDS = 30;
const CACHE_LIMIT = 10_000;

/**
 * Signs this component's calls with its Ed25519 key and verifies incoming ones with the public key of the
 * component they claim to come from. Signing and verifying cost tens of microseconds, so a header is reused
 * for the same caller for a while and a verified header is remembered until it goes stale.
 */
export class IdentitySigner {
  private readonly signed = new Map<string, { header: string; iat: number }>();
  private readonly verified = new Map<string, { identity: CallIdentity; iat: number }>();

  constructor(
    private readonly keyring: IdentityKeyring,
    /** The component whose calls this signs. */
    readonly service: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  sign(caller: Caller | null): string {
    const now = Math.floor(this.now() / 1000);
    const cacheKey = caller ? `${caller.userId}\u0000${caller.isAdmin}\u0000${caller.hasAcceptedTerms}` : '';
    const reuse = this.signed.get(cacheKey);
    if (reuse && now - reuse.iat >= 0 && now - reuse.iat < REUSE_SECONDS) return reuse.header;
    const claims: Claims = { svc: this.service, iat: now };
    if (caller) Object.assign(claims, { sub: caller.userId, adm: caller.isAdmin, trm: caller.hasAcceptedTerms });
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    const signature = cryptoSign(null, Buffer.from(body), this.keyring.privateKeyOf(this.service)).toString('base64url');
    const header = `${VERSION}.${body}.${signature}`;
    remember(this.signed, cacheKey, { header, iat: now });
    return header;
  }

  /** Returns the identity, or throws `InvalidIdentityError` for a missing, malformed, forged or stale header. */
  verify(header: string | undefined): CallIdentity {
    if (!header) throw new InvalidIdentityError('missing caller identity');
    const now = Math.floor(this.now() / 1000);
    const known = this.verified.get(header);
    if (known) {
      checkAge(now - known.iat);
      return known.identity;
    }
    const [version, body, signature, extra] = header.split('.');
    if (version !== VERSION || !body || !signature || extra !== undefined) throw new InvalidIdentityError('malformed caller identity');
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
    } catch {
      throw new InvalidIdentityError('malformed caller identity');
    }
    const key = typeof claims.svc === 'string' ? this.keyring.publicKeyOf(claims.svc) : undefined;
    if (!key || !cryptoVerify(null, Buffer.from(body), key, Buffer.from(signature, 'base64url'))) throw new InvalidIdentityError('forged caller identity');
    checkAge(now - claims.iat);
    const caller = claims.sub ? { userId: claims.sub, isAdmin: claims.adm === true, hasAcceptedTerms: claims.trm === true } : null;
    const identity = { caller, service: claims.svc };
    remember(this.verified, header, { identity, iat: claims.iat });
    return identity;
  }

  addTo(metadata: Metadata, caller: Caller | null): Metadata {
    metadata.set(IDENTITY_HEADER, this.sign(caller));
    return metadata;
  }
}

function checkAge(age: number): void {
  if (!Number.isFinite(age) || age > MAX_AGE_SECONDS || age < -MAX_AGE_SECONDS) throw new InvalidIdentityError('stale caller identity');
}

function remember<V>(cache: Map<string, V>, key: string, value: V): void {
  if (cache.size >= CACHE_LIMIT) cache.clear();
  cache.set(key, value);
}

export class InvalidIdentityError extends Error {
  override name = 'InvalidIdentityError';
}
