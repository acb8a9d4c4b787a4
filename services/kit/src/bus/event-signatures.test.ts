import { describe, expect, it } from 'vitest';
import { IdentityKeyring } from '../grpc/identity.js';
import { eventOwner, eventSignatures } from './event-signatures.js';

const keyring = IdentityKeyring.generate();
const signatures = eventSignatures(keyring);
const data = Buffer.from('an encoded envelope');

describe('event signatures', () => {
  it('names the first segment of the type as its owner', () => {
    expect(eventOwner('vote.vote.cast')).toBe('vote');
    expect(eventOwner('support.contact_form.submitted')).toBe('support');
  });

  it("signs with the owner's key, and the owner's signature checks", () => {
    const header = signatures.sign('auth.user.deleted', data);
    expect(header).toMatch(/^auth\.[A-Za-z0-9_-]{86}$/);
    expect(signatures.check('auth.user.deleted', data, header)).toBeUndefined();
  });

  it('refuses a missing, malformed, foreign, unknown or wrong signature, and one moved to another type', () => {
    const genuine = signatures.sign('auth.user.deleted', data);
    const storage = keyring.privateKeyConfig('storage');
    const storageOnly = eventSignatures(IdentityKeyring.fromConfig('storage', storage, keyring.publicKeysConfig()));
    const forged = `auth.${storageOnly.sign('storage.blob.gone', data).split('.')[1]}`;
    expect(signatures.check('auth.user.deleted', data, undefined)).toEqual({ reason: 'unsigned' });
    expect(signatures.check('auth.user.deleted', data, 'nodot')).toEqual({ reason: 'malformed_signature' });
    expect(signatures.check('auth.user.deleted', data, '.abc')).toEqual({ reason: 'malformed_signature' });
    expect(signatures.check('auth.user.deleted', data, `storage.${genuine.split('.')[1]}`)).toEqual({ reason: 'wrong_signer', signer: 'storage' });
    expect(signatures.check('auth.user.deleted', data, forged)).toEqual({ reason: 'bad_signature', signer: 'auth' });
    expect(signatures.check('auth.user.deleted', Buffer.from('an encoded envelopf'), genuine)).toEqual({ reason: 'bad_signature', signer: 'auth' });
    expect(signatures.check('auth.user.deleted', data, 'auth.short')).toEqual({ reason: 'bad_signature', signer: 'auth' });
    expect(signatures.check('auth.user.updated', data, genuine)).toEqual({ reason: 'bad_signature', signer: 'auth' });
    const withoutAuth = eventSignatures({ privateKeyOf: (c) => keyring.privateKeyOf(c), publicKeyOf: (c) => (c === 'auth' ? undefined : keyring.publicKeyOf(c)) });
    expect(withoutAuth.check('auth.user.deleted', data, genuine)).toEqual({ reason: 'unknown_signer', signer: 'auth' });
  });

  it('verifies a message received again (another consumer, a redelivery) once, and its signature accepts only the bytes it signed', () => {
    let verifications = 0;
    const checking = eventSignatures({ privateKeyOf: (c) => keyring.privateKeyOf(c), publicKeyOf: (c) => (verifications++, keyring.publicKeyOf(c)) });
    const header = signatures.sign('auth.user.deleted', data);
    expect(checking.check('auth.user.deleted', data, header)).toBeUndefined();
    expect(checking.check('auth.user.deleted', Buffer.from(data), header)).toBeUndefined();
    expect(verifications).toBe(1);
    expect(checking.check('auth.user.deleted', Buffer.from('another envelope'), header)).toEqual({ reason: 'bad_signature', signer: 'auth' });
    expect(checking.check('auth.user.updated', data, header)).toEqual({ reason: 'bad_signature', signer: 'auth' });
  });

  it('will not sign a type whose owner’s private key the process does not hold: a programming error', () => {
    const storageOnly = eventSignatures(IdentityKeyring.fromConfig('storage', keyring.privateKeyConfig('storage'), keyring.publicKeysConfig()));
    expect(() => storageOnly.sign('auth.user.deleted', data)).toThrow(/signed by auth, whose private key this process does not hold/);
  });
});
