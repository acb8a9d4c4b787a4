import { createHash, sign as cryptoSign, verify as cryptoVerify, type KeyObject } from 'node:crypto';

/**
 * Events on NATS are signed by the component that owns their type, with its Ed25519 identity key (the keys that sign
 * its calls), so that holding the NATS credential is not enough to publish `auth.user.deleted`: a consumer accepts a
 * message only with a valid signature by the owner of its subject's type. One signature per message (an Envelope or
 * a whole EventBatch), in a header beside the bytes: `Snapcracks-Signature: <component>.<base64url signature>`, over
 * `<type>\n<bytes>`. The in-process bus carries none: nothing outside the process can publish on it.
 */
export const SIGNATURE_HEADER = 'Snapcracks-Signature';

/** The keys signatures use: the identity keyring's public methods (IdentityKeyring). */
export interface SigningKeys {
  /** Throws when this process does not hold the component's private key. */
  privateKeyOf(component: string): KeyObject;
  publicKeyOf(component: string): KeyObject | undefined;
}

/** Why a delivered message was refused, as the refusals metric and the warning name it. */
export type RefusalReason = 'unsigned' | 'malformed_signature' | 'wrong_signer' | 'unknown_signer' | 'bad_signature' | 'foreign_type';

/** The component whose events of this type are genuine: the type's first segment (`vote.vote.cast` → vote). */
export function eventOwner(type: string): string {
  return type.split('.', 1)[0]!;
}

export interface EventSignatures {
  /** The header value for a message of `type`; throws (a programming error) when this process does not own the type. */
  sign(type: string, data: Uint8Array): string;
  /** Whether `header` is a valid signature of `data` by the owner of `type`: undefined when it is, else why not. */
  check(type: string, data: Uint8Array, header: string | undefined): { reason: RefusalReason; signer?: string } | undefined;
}

/**
 * Signatures verified lately, each with the digest of what it signed. One process often receives a message more than
 * once (every consumer of its type has its own delivery: all-in-one on NATS runs them all; a redelivery), and an
 * Ed25519 verification costs about 25 times a SHA-256 of a small message. A hit needs the same signature over bytes
 * with the same digest, which only the bytes that verified have.
 */
const VERIFIED_LIMIT = 4_096;

export function eventSignatures(keys: SigningKeys): EventSignatures {
  const verified = new Map<string, string>();
  return {
    sign(type, data) {
      const owner = eventOwner(type);
      let key: KeyObject;
      try {
        key = keys.privateKeyOf(owner);
      } catch (error) {
        throw new Error(`Cannot publish "${type}": its events are signed by ${owner}, whose private key this process does not hold`, { cause: error });
      }
      return `${owner}.${cryptoSign(null, signedBytes(type, data), key).toString('base64url')}`;
    },

    check(type, data, header) {
      if (!header) return { reason: 'unsigned' };
      const dot = header.indexOf('.');
      if (dot <= 0 || dot === header.length - 1) return { reason: 'malformed_signature' };
      const signer = header.slice(0, dot);
      if (signer !== eventOwner(type)) return { reason: 'wrong_signer', signer };
      const signed = signedBytes(type, data);
      const digest = createHash('sha256').update(signed).digest('base64');
      if (verified.get(header) === digest) return undefined;
      const key = keys.publicKeyOf(signer);
      if (!key) return { reason: 'unknown_signer', signer };
      const signature = Buffer.from(header.slice(dot + 1), 'base64url');
      // An Ed25519 signature is 64 bytes; anything else cannot verify (and would make verify throw on some inputs).
      if (signature.length !== 64 || !cryptoVerify(null, signed, key, signature)) return { reason: 'bad_signature', signer };
      if (verified.size >= VERIFIED_LIMIT) verified.clear();
      verified.set(header, digest);
      return undefined;
    },
  };
}

/** The type is signed with the bytes, so a genuine message cannot be replayed onto another type's subject. */
function signedBytes(type: string, data: Uint8Array): Buffer {
  const prefix = Buffer.from(`${type}\n`);
  return Buffer.concat([prefix, data], prefix.length + data.length);
}
