import { generateKeyPair, randomBytes, randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import type { JWK } from 'oidc-provider';

const generateRsaKeyPair = promisify(generateKeyPair);

/**
 * A fresh RS256 signing key for ID tokens. It lives only as long as the process: tokens signed by an earlier
 * run fail verification, which is the right outcome for a development provider whose sessions die with it too.
 * RS256 because it is the OIDC default every client supports.
 */
export async function generateSigningJwks(): Promise<{ keys: JWK[] }> {
  const { privateKey } = await generateRsaKeyPair('rsa', { modulusLength: 2048 });
  const jwk = privateKey.export({ format: 'jwk' });
  return { keys: [{ ...jwk, kid: randomUUID(), use: 'sig', alg: 'RS256' }] };
}

/** Keys that sign the provider's cookies; new per start, so no secret ever has to be configured or committed. */
export function generateCookieKeys(): string[] {
  return [randomBytes(32).toString('base64url')];
}
