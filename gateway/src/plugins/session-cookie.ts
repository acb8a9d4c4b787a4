import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How many verified cookie values a replica remembers; past that the oldest are forgotten (and verified again if used). */
const VERIFIED_LIMIT = 10_000;

/**
 * Signs session ids into cookie values and verifies them, in the format @fastify/cookie's Signer uses (and with it
 * @fastify/session, which issued the gateway's cookies before): `<id>.<HMAC-SHA256(id) in base64 without padding>`,
 * keyed with SESSION_SECRET. A value that verified is remembered, exactly as it arrived, with its id: a signed-in
 * browser sends the same value on every request, and a repeat costs a map lookup instead of an HMAC. Only values
 * that verified are remembered, so no forged or altered value is ever accepted.
 */
export class SessionCookies {
  private readonly verified = new Map<string, string>();

  constructor(
    private readonly secret: string,
    private readonly limit = VERIFIED_LIMIT,
  ) {
    // As @fastify/session required; resolveSecret (kit) already refuses a shorter SESSION_SECRET.
    if (secret.length < 32) throw new Error('The session secret must be at least 32 characters long');
  }

  /** A new session id (24 random bytes, base64url, as @fastify/session made them) and its cookie value. */
  issue(): { id: string; value: string } {
    const id = randomBytes(24).toString('base64url');
    const value = `${id}.${this.signature(id)}`;
    this.remember(value, id);
    return { id, value };
  }

  /** The session id a (decoded) cookie value carries, or null when the value was not signed with this secret. */
  idOf(value: string): string | null {
    const known = this.verified.get(value);
    if (known !== undefined) return known;
    const id = this.verify(value);
    if (id !== null) this.remember(value, id);
    return id;
  }

  /** Forgets a value whose session ended, so it costs an HMAC again should it come back. */
  forget(value: string): void {
    this.verified.delete(value);
  }

  /** How many values are remembered (tests). */
  get size(): number {
    return this.verified.size;
  }

  private verify(signed: string): string | null {
    const dot = signed.lastIndexOf('.');
    if (dot <= 0 || dot === signed.length - 1) return null;
    const id = signed.slice(0, dot);
    const actual = Buffer.from(signed.slice(dot + 1));
    const expected = Buffer.from(this.signature(id));
    return actual.length === expected.length && timingSafeEqual(actual, expected) ? id : null;
  }

  private signature(id: string): string {
    return createHmac('sha256', this.secret).update(id).digest('base64').replace(/=+$/, '');
  }

  private remember(value: string, id: string): void {
    // Oldest first: a Map iterates in insertion order.
    if (this.verified.size >= this.limit) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(value, id);
  }
}
