import { describe, expect, it } from 'vitest';
import { IdentitySigner, InvalidIdentityError } from './identity.js';

const secret = 'a'.repeat(32);
const caller = { userId: 'user-1', isAdmin: false, hasAcceptedTerms: true };

describe('IdentitySigner', () => {
  it('round-trips a caller and the calling service', () => {
    const header = new IdentitySigner(secret, 'gateway').sign(caller);
    expect(new IdentitySigner(secret, 'vote').verify(header)).toEqual({ caller, service: 'gateway' });
  });

  it('carries calls made for nobody', () => {
    const header = new IdentitySigner(secret, 'gateway').sign(null);
    expect(new IdentitySigner(secret, 'auth').verify(header)).toEqual({ caller: null, service: 'gateway' });
  });

  it('refuses a header signed with another secret', () => {
    const forged = new IdentitySigner('b'.repeat(32), 'gateway').sign({ ...caller, isAdmin: true });
    expect(() => new IdentitySigner(secret, 'vote').verify(forged)).toThrow(/forged/);
  });

  it('refuses a header whose claims were edited after signing', () => {
    const [version, , mac] = new IdentitySigner(secret, 'gateway').sign(caller).split('.');
    const body = Buffer.from(JSON.stringify({ svc: 'gateway', sub: 'user-1', adm: true, trm: true, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
    expect(() => new IdentitySigner(secret, 'vote').verify(`${version}.${body}.${mac}`)).toThrow(InvalidIdentityError);
  });

  it('refuses missing, malformed and stale headers', () => {
    const verifier = new IdentitySigner(secret, 'vote');
    expect(() => verifier.verify(undefined)).toThrow(/missing/);
    expect(() => verifier.verify('v1.nonsense')).toThrow(/malformed/);
    const old = new IdentitySigner(secret, 'gateway', () => Date.now() - 10 * 60 * 1000).sign(caller);
    expect(() => verifier.verify(old)).toThrow(/stale/);
  });
});
