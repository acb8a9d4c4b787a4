import { createHmac, timingSafeEqual } from 'node:crypto';
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

/**
 * Signs and verifies the identity header with HMAC-SHA256 over a shared secret, so a pod that can reach a
 * service but does not hold the secret cannot act as someone else.
 */
export class IdentitySigner {
  constructor(
    private readonly secret: string,
    private readonly service: string,
    private readonly now: () => number = () => Date.now(),
  ) {}

  sign(caller: Caller | null): string {
    const claims: Claims = { svc: this.service, iat: Math.floor(this.now() / 1000) };
    if (caller) Object.assign(claims, { sub: caller.userId, adm: caller.isAdmin, trm: caller.hasAcceptedTerms });
    const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
    return `${VERSION}.${body}.${this.mac(body)}`;
  }

  /** Returns the identity, or throws `InvalidIdentityError` for a missing, malformed, forged or stale header. */
  verify(header: string | undefined): CallIdentity {
    if (!header) throw new InvalidIdentityError('missing caller identity');
    const [version, body, mac] = header.split('.');
    if (version !== VERSION || !body || !mac) throw new InvalidIdentityError('malformed caller identity');
    const expected = Buffer.from(this.mac(body));
    const given = Buffer.from(mac);
    if (expected.length !== given.length || !timingSafeEqual(expected, given)) throw new InvalidIdentityError('forged caller identity');
    let claims: Claims;
    try {
      claims = JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as Claims;
    } catch {
      throw new InvalidIdentityError('malformed caller identity');
    }
    const age = Math.floor(this.now() / 1000) - claims.iat;
    if (!Number.isFinite(age) || age > MAX_AGE_SECONDS || age < -MAX_AGE_SECONDS) throw new InvalidIdentityError('stale caller identity');
    const caller = claims.sub ? { userId: claims.sub, isAdmin: claims.adm === true, hasAcceptedTerms: claims.trm === true } : null;
    return { caller, service: claims.svc };
  }

  addTo(metadata: Metadata, caller: Caller | null): Metadata {
    metadata.set(IDENTITY_HEADER, this.sign(caller));
    return metadata;
  }

  private mac(body: string): string {
    return createHmac('sha256', this.secret).update(body).digest('base64url');
  }
}

export class InvalidIdentityError extends Error {
  override name = 'InvalidIdentityError';
}
