import { describe, expect, it, vi } from 'vitest';
import { SessionCookies } from './session-cookie.js';

// Issued by @fastify/session 11 (through @fastify/cookie's Signer) with this secret, before the gateway had its own plugin.
const OLD_SECRET = 'an old secret that is at least 32 characters long';
const OLD_COOKIES = [
  ['mpNIOCn0ZOwG1JiDyYJDSuiTtadRBKaN.Rd/wremWZhgmFls69JAqb/KjrjDGUimqJxA7RDdAa4Y', 'mpNIOCn0ZOwG1JiDyYJDSuiTtadRBKaN'],
  ['0a0uc8d7I51usrv2TGxvDC_dhbnL3Gun.zBJUGjzcJFY1+V0PPA9OqLzTN+J49kEOcI08F9tLc70', '0a0uc8d7I51usrv2TGxvDC_dhbnL3Gun'],
] as const;
const SECRET = 'a test secret of at least thirty-two characters';

/** Every way to spoil a signed value: each must be refused. */
function spoiled(value: string): string[] {
  const dot = value.lastIndexOf('.');
  const flip = (text: string, at: number) => text.slice(0, at) + (text[at] === 'A' ? 'B' : 'A') + text.slice(at + 1);
  return [
    flip(value, 0), // the id
    flip(value, dot + 1), // the signature
    flip(value, value.length - 1),
    value.slice(0, -1),
    `${value}A`,
    `${value}=`,
    value.slice(0, dot),
    `${value.slice(0, dot)}.`,
    `x${value}`,
    `other.${value.slice(dot + 1)}`,
    value.replace('.', ''),
    value.toLowerCase(),
  ];
}

describe('session cookie values', () => {
  it('reads cookies that @fastify/session issued', () => {
    const cookies = new SessionCookies(OLD_SECRET);
    for (const [value, id] of OLD_COOKIES) expect(cookies.idOf(value)).toBe(id);
  });

  it('issues values in the same format: a new 32-character id and its HMAC-SHA256 in unpadded base64', () => {
    const cookies = new SessionCookies(SECRET);
    const { id, value } = cookies.issue();
    expect(id).toMatch(/^[\w-]{32}$/);
    expect(value).toMatch(new RegExp(`^${id}\\.[A-Za-z0-9+/]{43}$`));
    expect(cookies.issue().id).not.toBe(id);
    expect(new SessionCookies(SECRET).idOf(value)).toBe(id);
  });

  it('needs a secret of at least 32 characters', () => {
    expect(() => new SessionCookies('too short')).toThrow(/32 characters/);
  });

  it('refuses values signed with another secret, altered values and garbage', () => {
    const cookies = new SessionCookies(SECRET);
    for (const [value] of OLD_COOKIES) expect(cookies.idOf(value)).toBeNull();
    const { value } = new SessionCookies(SECRET).issue();
    for (const bad of [...spoiled(value), '', '.', 'garbage', 'a.b', '%E0%A4%A', '.'.repeat(100), 'x'.repeat(5000)]) {
      expect(cookies.idOf(bad), bad).toBeNull();
    }
    expect(cookies.size).toBe(0);
  });

  it('remembers only values that verified, so a refused value is refused every time', () => {
    const cookies = new SessionCookies(SECRET);
    const { id, value } = new SessionCookies(SECRET).issue();
    const forged = spoiled(value);
    for (let round = 0; round < 3; round += 1) {
      for (const bad of forged) expect(cookies.idOf(bad)).toBeNull();
      expect(cookies.size).toBe(0);
    }
    expect(cookies.idOf(value)).toBe(id);
    expect(cookies.size).toBe(1);
    // A remembered value does not make its neighbours acceptable.
    for (const bad of forged) expect(cookies.idOf(bad)).toBeNull();
    expect(cookies.size).toBe(1);
  });

  it('verifies a value once, then answers it from memory', () => {
    const cookies = new SessionCookies(SECRET);
    const { id, value } = new SessionCookies(SECRET).issue();
    const verify = vi.spyOn(cookies as unknown as { verify: (signed: string) => string | null }, 'verify');
    expect(cookies.idOf(value)).toBe(id);
    expect(cookies.idOf(value)).toBe(id);
    expect(cookies.idOf(`${value}`)).toBe(id);
    expect(verify).toHaveBeenCalledTimes(1);
    // Values it issued itself are known from the start.
    const issued = cookies.issue();
    expect(cookies.idOf(issued.value)).toBe(issued.id);
    expect(verify).toHaveBeenCalledTimes(1);
    // A forgotten value is verified again.
    cookies.forget(value);
    expect(cookies.idOf(value)).toBe(id);
    expect(verify).toHaveBeenCalledTimes(2);
  });

  it('keeps at most its limit, forgetting the oldest first', () => {
    const signer = new SessionCookies(SECRET);
    const values = Array.from({ length: 5 }, () => signer.issue());
    const cookies = new SessionCookies(SECRET, 3);
    for (const { value } of values) cookies.idOf(value);
    expect(cookies.size).toBe(3);
    const verify = vi.spyOn(cookies as unknown as { verify: (signed: string) => string | null }, 'verify');
    expect(cookies.idOf(values[4]!.value)).toBe(values[4]!.id);
    expect(verify).not.toHaveBeenCalled();
    expect(cookies.idOf(values[0]!.value)).toBe(values[0]!.id);
    expect(verify).toHaveBeenCalledTimes(1);
  });
});
