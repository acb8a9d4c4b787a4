import { describe, expect, it } from 'vitest';

import { claimsFor, DevAccountStore, emailProblem, profileFromForm, splitName, subjectForEmail } from './accounts.js';

describe('subjectForEmail', () => {
  it('is stable, and ignores case and surrounding spaces', () => {
    const sub = subjectForEmail('ada@example.com');
    expect(sub).toMatch(/^[0-9a-f]{32}$/);
    expect(subjectForEmail('  ADA@Example.com\t')).toBe(sub);
    expect(subjectForEmail('ada2@example.com')).not.toBe(sub);
  });
});

describe('splitName', () => {
  it('takes the first word as given name and the rest as family name', () => {
    expect(splitName('  Ada   King  Lovelace ')).toEqual({ name: 'Ada King Lovelace', givenName: 'Ada', familyName: 'King Lovelace' });
  });

  it('leaves the family name out for a single word and everything out for a blank name', () => {
    expect(splitName('Cher')).toEqual({ name: 'Cher', givenName: 'Cher', familyName: undefined });
    expect(splitName('   ')).toEqual({ name: undefined, givenName: undefined, familyName: undefined });
  });
});

describe('emailProblem', () => {
  it('accepts any address with an "@", including local ones', () => {
    expect(emailProblem('dev@localhost')).toBeUndefined();
    expect(emailProblem(' Someone@Example.org ')).toBeUndefined();
  });

  it('explains a blank or malformed address', () => {
    expect(emailProblem('  ')).toBe('Enter an email address.');
    expect(emailProblem('no-at-sign')).toMatch(/like name@example.com/);
    expect(emailProblem('two words@example.com')).toMatch(/like name@example.com/);
    expect(emailProblem(`${'a'.repeat(250)}@example.com`)).toMatch(/like name@example.com/);
  });
});

describe('DevAccountStore', () => {
  it('returns the claims of the latest sign-in for an account and nothing for strangers', async () => {
    const store = new DevAccountStore();
    const id = store.signIn(profileFromForm('Ada@Example.com', 'Ada'));
    store.signIn(profileFromForm('ada@example.com', 'Ada Lovelace'));
    const account = await store.findAccount(undefined as never, id);
    expect(await account?.claims('id_token', 'openid', {}, [])).toEqual(
      claimsFor(id, { email: 'ada@example.com', name: 'Ada Lovelace', givenName: 'Ada', familyName: 'Lovelace' }),
    );
    expect(await store.findAccount(undefined as never, 'unknown')).toBeUndefined();
  });
});
