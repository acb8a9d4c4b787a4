import { createHash } from 'node:crypto';
import type { Account, AccountClaims, FindAccount } from 'oidc-provider';

/** What a person typed on the sign-in form, after normalisation. */
export interface DevProfile {
  email: string;
  name: string | undefined;
  givenName: string | undefined;
  familyName: string | undefined;
}

// Deliberately loose: this is a development sign-in where "any email works"; it only has to catch typos
// such as a blank field or a missing "@" (so `dev@localhost` is fine). 254 is the longest usable address.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;
const MAX_EMAIL_LENGTH = 254;
const MAX_NAME_LENGTH = 200;

/** Case and surrounding spaces never make two accounts out of one address. */
export function normaliseEmail(raw: string): string {
  return raw.trim().toLowerCase();
}

/** What is wrong with a typed email, in words for the form; undefined when it is usable. */
export function emailProblem(raw: string): string | undefined {
  const email = normaliseEmail(raw);
  if (email === '') return 'Enter an email address.';
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL_SHAPE.test(email)) return 'Enter an email address like name@example.com.';
  return undefined;
}

/**
 * The subject is derived from the email, not stored, so the same address maps to the same `sub` across
 * restarts of the provider (the app keys its users by `sub`). 128 bits of SHA-256 is plenty to avoid clashes.
 */
export function subjectForEmail(email: string): string {
  return createHash('sha256').update(normaliseEmail(email), 'utf8').digest('hex').slice(0, 32);
}

/** First word = given name, the rest = family name; runs of whitespace collapse. Blank means "no name". */
export function splitName(raw: string): Pick<DevProfile, 'name' | 'givenName' | 'familyName'> {
  const words = raw.trim().slice(0, MAX_NAME_LENGTH).split(/\s+/).filter(Boolean);
  if (words.length === 0) return { name: undefined, givenName: undefined, familyName: undefined };
  const [givenName, ...rest] = words;
  return { name: words.join(' '), givenName, familyName: rest.length > 0 ? rest.join(' ') : undefined };
}

export function profileFromForm(email: string, name: string): DevProfile {
  return { email: normaliseEmail(email), ...splitName(name) };
}

/** Standard OIDC claims for a profile; absent name parts are left out rather than sent empty. */
export function claimsFor(accountId: string, profile: DevProfile): AccountClaims {
  return {
    sub: accountId,
    email: profile.email,
    // Nobody verifies anything here, but the app treats the dev provider as trusted: it stands in for a real one.
    email_verified: true,
    ...(profile.name === undefined ? {} : { name: profile.name }),
    ...(profile.givenName === undefined ? {} : { given_name: profile.givenName }),
    ...(profile.familyName === undefined ? {} : { family_name: profile.familyName }),
  };
}

/**
 * The profiles of people who signed in since this provider started. Only the latest name per address is kept;
 * like the provider's own in-memory state, it is gone after a restart (sessions are too, so nobody notices).
 */
export class DevAccountStore {
  readonly #profiles = new Map<string, DevProfile>();

  /** Records (or updates) the profile and returns its stable account id. */
  signIn(profile: DevProfile): string {
    const accountId = subjectForEmail(profile.email);
    this.#profiles.set(accountId, profile);
    return accountId;
  }

  profileOf(accountId: string): DevProfile | undefined {
    return this.#profiles.get(accountId);
  }

  /** oidc-provider's `findAccount`: the claims of a known account, or undefined (which ends its session). */
  readonly findAccount: FindAccount = (_ctx, accountId): Account | undefined => {
    const profile = this.#profiles.get(accountId);
    if (!profile) return undefined;
    return { accountId, claims: () => claimsFor(accountId, profile) };
  };
}
