import { sign } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { IdentityKeyring, IdentitySigner, InvalidIdentityError, USER_ASSERTION_LIFETIME_SECONDS, forwardedCaller, type Caller } from './identity.js';

const keys = IdentityKeyring.generate();
const caller: Caller = { userId: 'user-1', isAdmin: false, hasAcceptedTerms: true };
const CAST_VOTE = '/snapcracks.vote.v1.VoteService/CastVote';
const LIST_USERS = '/snapcracks.auth.v1.AuthService/ListUsers';
const STORE_IMAGE = '/snapcracks.storage.v1.StorageService/StoreImage';

/** What one pod of a component holds in production: its own private key and everyone's public keys. */
const podOf = (component: string) => IdentityKeyring.fromConfig(component, keys.privateKeyConfig(component), keys.publicKeysConfig());
const signerOf = (component: string, now?: () => number) => new IdentitySigner(podOf(component), component, now);

/** What a call from `from` to `target`'s `method` for `who` carries. */
function headersOf(from: IdentitySigner, target: string, method: string, who: Caller | null) {
  return { identity: from.signCall(target, method), user: from.userAssertion(who, target) };
}

/** A header sealed with `key` over claims of one's choosing, as a compromised component would make one. */
function sealed(claims: object, component: string, pod = podOf(component)) {
  const body = Buffer.from(JSON.stringify(claims)).toString('base64url');
  return `v2.${body}.${sign(null, Buffer.from(body), pod.privateKeyOf(component)).toString('base64url')}`;
}
const nowSeconds = () => Math.floor(Date.now() / 1000);

describe('IdentitySigner', () => {
  it('round-trips the gateway\'s user and the calling component', () => {
    const vote = signerOf('vote');
    expect(vote.verifyCall(headersOf(signerOf('gateway'), 'vote', CAST_VOTE, caller), CAST_VOTE)).toEqual({ caller, service: 'gateway' });
  });

  it('carries calls made for nobody', () => {
    expect(signerOf('auth').verifyCall(headersOf(signerOf('gateway'), 'auth', LIST_USERS, null), LIST_USERS)).toEqual({ caller: null, service: 'gateway' });
  });

  it('lets a service forward the user it was handed, to the services the gateway named, and nowhere else', () => {
    const gateway = signerOf('gateway');
    const photo = signerOf('photo');
    const handed = photo.verifyCall(headersOf(gateway, 'photo', '/snapcracks.photo.v1.PhotoService/UploadPhoto', caller), '/snapcracks.photo.v1.PhotoService/UploadPhoto').caller!;
    // Photo calls storage for that user: storage is in the assertion's audience (photo's peers).
    const storage = signerOf('storage');
    expect(storage.verifyCall(headersOf(photo, 'storage', STORE_IMAGE, handed), STORE_IMAGE)).toEqual({ caller, service: 'photo' });
    // The same assertion shown to auth, which photo never calls, is refused.
    expect(() => signerOf('auth').verifyCall(headersOf(photo, 'auth', LIST_USERS, handed), LIST_USERS)).toThrow(/user assertion for photo, storage/);
  });

  it('never lets a service state who the user is, with its own key or by editing claims', () => {
    const storage = signerOf('storage');
    const admin = { userId: 'anyone', isAdmin: true, hasAcceptedTerms: true };
    // Asked to act for a user it was not handed, it refuses to sign…
    expect(() => storage.userAssertion(admin, 'auth')).toThrow(/storage cannot state who the user is/);
    // …it holds no gateway key…
    expect(() => new IdentitySigner(podOf('storage'), 'gateway').userAssertion(admin, 'auth')).toThrow(/No identity private key for gateway/);
    // …and an assertion it seals with its own key is refused as forged.
    const forged = sealed({ sub: 'anyone', adm: true, trm: true, aud: ['auth'], iat: nowSeconds(), exp: nowSeconds() + 30 }, 'storage');
    const auth = signerOf('auth');
    expect(() => auth.verifyCall({ identity: storage.signCall('auth', LIST_USERS), user: forged }, LIST_USERS)).toThrow(/forged/);
    // Nor can it edit the claims of one it was handed.
    const [, , signature] = signerOf('gateway').userAssertion(caller, 'photo')!.split('.');
    const edited = Buffer.from(JSON.stringify({ sub: 'user-1', adm: true, trm: true, aud: ['photo', 'storage', 'auth'], iat: nowSeconds(), exp: nowSeconds() + 30 })).toString('base64url');
    expect(() => auth.verifyUser(`v2.${edited}.${signature}`)).toThrow(InvalidIdentityError);
  });

  it('binds a component\'s proof to one method of one service: a captured proof replays nowhere else', () => {
    const gateway = signerOf('gateway');
    const proof = gateway.signCall('vote', CAST_VOTE);
    expect(() => signerOf('auth').verifyCall({ identity: proof, user: undefined }, LIST_USERS)).toThrow(/addressed to vote/);
    expect(() => signerOf('vote').verifyCall({ identity: proof, user: undefined }, '/snapcracks.vote.v1.VoteService/GetMyVote')).toThrow(/addressed to vote/);
  });

  it('refuses proofs signed with other keys, claiming another component, or from an unknown one', () => {
    const vote = signerOf('vote');
    const stranger = new IdentitySigner(IdentityKeyring.generate(), 'gateway').signCall('vote', CAST_VOTE);
    expect(() => vote.verifyCall({ identity: stranger, user: undefined }, CAST_VOTE)).toThrow(/forged/);
    const posing = sealed({ svc: 'gateway', aud: 'vote', mth: CAST_VOTE, iat: nowSeconds() }, 'photo');
    expect(() => vote.verifyCall({ identity: posing, user: undefined }, CAST_VOTE)).toThrow(/forged/);
    const unknown = new IdentitySigner(IdentityKeyring.generate(['intruder']), 'intruder').signCall('vote', CAST_VOTE);
    expect(() => vote.verifyCall({ identity: unknown, user: undefined }, CAST_VOTE)).toThrow(/forged/);
  });

  it('refuses missing, malformed and stale proofs, also when it verified them before', () => {
    let now = Date.now();
    const vote = signerOf('vote', () => now);
    expect(() => vote.verifyCall({ identity: undefined, user: undefined }, CAST_VOTE)).toThrow(/missing/);
    expect(() => vote.verifyCall({ identity: 'v2.nonsense', user: undefined }, CAST_VOTE)).toThrow(/malformed/);
    const old = signerOf('gateway', () => Date.now() - 60_000).signCall('vote', CAST_VOTE);
    expect(() => vote.verifyCall({ identity: old, user: undefined }, CAST_VOTE)).toThrow(/stale/);
    const fresh = signerOf('gateway', () => now).signCall('vote', CAST_VOTE);
    expect(vote.verifyCall({ identity: fresh, user: undefined }, CAST_VOTE).service).toBe('gateway');
    now += 31_000;
    expect(() => vote.verifyCall({ identity: fresh, user: undefined }, CAST_VOTE)).toThrow(/stale/);
  });

  it('refuses a user assertion once it expired (30 s), and one that claims to live longer', () => {
    let now = Date.now();
    const gateway = signerOf('gateway', () => now);
    const vote = signerOf('vote', () => now);
    const assertion = gateway.userAssertion(caller, 'vote')!;
    expect(vote.verifyUser(assertion)).toEqual(caller);
    now += (USER_ASSERTION_LIFETIME_SECONDS + 1) * 1000;
    expect(() => vote.verifyUser(assertion)).toThrow(/expired/);
    const iat = nowSeconds();
    const longLived = sealed({ sub: 'user-1', adm: false, trm: true, aud: ['vote'], iat, exp: iat + 3600 }, 'gateway');
    expect(() => signerOf('vote').verifyUser(longLived)).toThrow(/lives too long/);
  });

  it('reuses a proof and an assertion for a few seconds, and signs anew for another caller, target or later', () => {
    let now = Date.now();
    const gateway = signerOf('gateway', () => now);
    const first = gateway.userAssertion(caller, 'vote');
    expect(gateway.userAssertion(caller, 'vote')).toBe(first);
    expect(gateway.userAssertion({ ...caller, isAdmin: true }, 'vote')).not.toBe(first);
    expect(gateway.userAssertion(caller, 'photo')).not.toBe(first);
    const proof = gateway.signCall('vote', CAST_VOTE);
    expect(gateway.signCall('vote', CAST_VOTE)).toBe(proof);
    now += 11_000;
    expect(gateway.userAssertion(caller, 'vote')).not.toBe(first);
    expect(gateway.signCall('vote', CAST_VOTE)).not.toBe(proof);
  });

  it('test support: forwardedCaller hands a service a caller with the gateway\'s assertion', () => {
    const handed = forwardedCaller(signerOf('gateway'), caller, 'photo');
    expect(signerOf('storage').verifyUser(signerOf('photo').userAssertion(handed, 'storage')!)).toEqual(caller);
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
    const headers = { identity: new IdentitySigner(a, 'gateway').signCall('vote', CAST_VOTE), user: undefined };
    expect(new IdentitySigner(b, 'vote').verifyCall(headers, CAST_VOTE).service).toBe('gateway');
  });
});
