import { sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdentityKeyring, IdentitySigner, InvalidIdentityError } from './identity.js';

const keys = IdentityKeyring.generate();
const caller = { userId: 'user-1', isAdmin: false, hasAcceptedTerms: true };

/** What one pod of a component holds in production: its own private key and everyone's public keys. */
const podOf = (component: string) => IdentityKeyring.fromConfig(component, keys.privateKeyConfig(component), keys.publicKeysConfig());

describe('IdentitySigner', () => {
  it('round-trips a caller and the calling service', () => {
    const header = new IdentitySigner(podOf('gateway'), 'gateway').sign(caller);
    expect(new IdentitySigner(podOf('vote'), 'vote').verify(header)).toEqual({ caller, service: 'gateway' });
  });

  it('carries calls made for nobody', () => {
    const header = new IdentitySigner(keys, 'gateway').sign(null);
    expect(new IdentitySigner(keys, 'auth').verify(header)).toEqual({ caller: null, service: 'gateway' });
  });

  it('lets a compromised service sign as itself only: it cannot act as the gateway', () => {
    const photoPod = podOf('photo');
    // It does not hold the gateway's private key…
    expect(() => new IdentitySigner(photoPod, 'gateway').sign({ ...caller, isAdmin: true })).toThrow(/No identity private key for gateway/);
    // …and a header claiming "gateway" signed with its own key is refused.
    const [version] = new IdentitySigner(photoPod, 'photo').sign(caller).split('.');
    const claims = Buffer.from(JSON.stringify({ svc: 'gateway', sub: 'user-1', adm: true, trm: true, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
    const forged = `${version}.${claims}.${sign(null, Buffer.from(claims), photoPod.privateKeyOf('photo')).toString('base64url')}`;
    expect(() => new IdentitySigner(podOf('auth'), 'auth').verify(forged)).toThrow(/forged/);
  });

  it('refuses a header signed with other keys, and one from an unknown component', () => {
    const stranger = IdentityKeyring.generate();
    const forged = new IdentitySigner(stranger, 'gateway').sign({ ...caller, isAdmin: true });
    expect(() => new IdentitySigner(keys, 'vote').verify(forged)).toThrow(/forged/);
    const unknown = new IdentitySigner(IdentityKeyring.generate(['intruder']), 'intruder').sign(caller);
    expect(() => new IdentitySigner(keys, 'vote').verify(unknown)).toThrow(/forged/);
  });

  it('refuses a header whose claims were edited after signing', () => {
    const [version, , signature] = new IdentitySigner(keys, 'gateway').sign(caller).split('.');
    const body = Buffer.from(JSON.stringify({ svc: 'gateway', sub: 'user-1', adm: true, trm: true, iat: Math.floor(Date.now() / 1000) })).toString('base64url');
    expect(() => new IdentitySigner(keys, 'vote').verify(`${version}.${body}.${signature}`)).toThrow(InvalidIdentityError);
  });

  it('refuses missing, malformed and stale headers, also when it verified the header before', () => {
    let now = Date.now();
    const verifier = new IdentitySigner(keys, 'vote', () => now);
    expect(() => verifier.verify(undefined)).toThrow(/missing/);
    expect(() => verifier.verify('v1.nonsense')).toThrow(/malformed/);
    const old = new IdentitySigner(keys, 'gateway', () => Date.now() - 10 * 60 * 1000).sign(caller);
    expect(() => verifier.verify(old)).toThrow(/stale/);
    const fresh = new IdentitySigner(keys, 'gateway', () => now).sign(caller);
    expect(verifier.verify(fresh).service).toBe('gateway');
    now += 10 * 60 * 1000;
    expect(() => verifier.verify(fresh)).toThrow(/stale/);
  });

  it('reuses a signed header for the same caller for a while, and signs anew for another caller or later', () => {
    let now = Date.now();
    const signer = new IdentitySigner(keys, 'gateway', () => now);
    const first = signer.sign(caller);
    expect(signer.sign(caller)).toBe(first);
    expect(signer.sign({ ...caller, isAdmin: true })).not.toBe(first);
    now += 31_000;
    expect(signer.sign(caller)).not.toBe(first);
  });
});

describe('IdentityKeyring', () => {
  it('refuses a private key that is not the one its public keys list for the component', () => {
    expect(() => IdentityKeyring.fromConfig('photo', keys.privateKeyConfig('vote'), keys.publicKeysConfig())).toThrow(/not the key/);
    expect(() => IdentityKeyring.fromConfig('photo', keys.privateKeyConfig('photo'), 'photo')).toThrow(/name=key/);
  });

  it('derives the same keys from one shared secret in every process (development only)', () => {
    const a = IdentityKeyring.fromSharedSecret('s'.repeat(32));
    const b = IdentityKeyring.fromSharedSecret('s'.repeat(32));
    expect(new IdentitySigner(b, 'vote').verify(new IdentitySigner(a, 'gateway').sign(caller)).service).toBe('gateway');
  });
});
