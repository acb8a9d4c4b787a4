import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { MIGRATED_DATABASES } from './databases.js';
import { scramSha256Verifier } from './scram.js';
import { roleUrlVariable, schemaRolesFrom } from './schema-roles-config.js';

const schemas = MIGRATED_DATABASES.map((d) => d.schema);
const adminUrl = 'postgresql://admin:secret@db:5432/snapcracks';
const roles = (env: Record<string, string>) => schemaRolesFrom(env, { adminUrl, schemas });

describe('the roles the migration job makes', () => {
  it('takes each component’s role and password from its own connection string', () => {
    const env = Object.fromEntries(schemas.map((s) => [roleUrlVariable(s), `postgresql://snapcracks_${s}:pw-${s}%40x@pgbouncer:6432/snapcracks?sslmode=require`]));
    expect(roles(env)).toEqual(schemas.map((schema) => ({ schema, role: `snapcracks_${schema}`, password: `pw-${schema}@x` })));
    expect(Object.keys(env)).toContain('GATEWAY_DATABASE_URL');
  });

  it('makes none for a component without one (all-in-one shares the admin URL)', () => {
    expect(roles({})).toEqual([]);
    expect(roles({ AUTH_DATABASE_URL: '' })).toEqual([]);
    expect(roles({ VOTE_DATABASE_URL: 'postgresql://v:p@db/snapcracks' })).toEqual([{ schema: 'vote', role: 'v', password: 'p' }]);
  });

  it('refuses, in one line naming the variable, what would not confine a component', () => {
    const refusal = (env: Record<string, string>) => {
      try {
        roles(env);
      } catch (error) {
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal({ AUTH_DATABASE_URL: 'not a url' })).toMatch(/^Invalid configuration: AUTH_DATABASE_URL: not a URL/);
    expect(refusal({ AUTH_DATABASE_URL: 'mysql://a:b@db/snapcracks' })).toMatch(/AUTH_DATABASE_URL: not a postgresql:\/\/ URL/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://db/snapcracks' })).toMatch(/AUTH_DATABASE_URL: the role .* must be/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://Auth:pw@db/snapcracks' })).toMatch(/lower-case/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://pg_auth:pw@db/snapcracks' })).toMatch(/pg_/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://auth@db/snapcracks' })).toMatch(/AUTH_DATABASE_URL: the role auth needs a password/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://auth:p%C3%A4ss@db/snapcracks' })).toMatch(/printable ASCII/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://auth:pw@db/other' })).toMatch(/names database "other" but the migrations run on "snapcracks"/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://admin:pw@db/snapcracks' })).toMatch(/admin role/);
    expect(refusal({ AUTH_DATABASE_URL: 'postgresql://shared:a@db/snapcracks', PHOTO_DATABASE_URL: 'postgresql://shared:b@db/snapcracks' })).toMatch(
      /^Invalid configuration: PHOTO_DATABASE_URL: the role shared is also AUTH_DATABASE_URL's/,
    );
  });
});

describe('the SCRAM-SHA-256 verifier', () => {
  it('has PostgreSQL’s shape and a fresh salt each time', () => {
    const verifier = scramSha256Verifier('pencil');
    expect(verifier).toMatch(/^SCRAM-SHA-256\$4096:[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=:[A-Za-z0-9+/]{43}=$/);
    expect(scramSha256Verifier('pencil')).not.toBe(verifier);
  });

  it('matches RFC 7677’s example (user "user", password "pencil")', () => {
    // RFC 7677 §3: salt W22ZaJ0SNY7soEsUEjb6gQ==, 4096 iterations; its ServerSignature over the exchange's
    // AuthMessage is 6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=, which only the right ServerKey produces.
    const verifier = scramSha256Verifier('pencil', Buffer.from('W22ZaJ0SNY7soEsUEjb6gQ==', 'base64'));
    const serverKey = Buffer.from(verifier.split(':').at(-1)!, 'base64');
    const authMessage =
      'n=user,r=rOprNGfwEbeRWgbNEkqO,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,' +
      'c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0';
    expect(createHmac('sha256', serverKey).update(authMessage).digest('base64')).toBe('6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=');
  });

  it('refuses a password PostgreSQL might normalise first', () => {
    expect(() => scramSha256Verifier('pässword')).toThrow(/printable ASCII/);
    expect(() => scramSha256Verifier('')).toThrow(/printable ASCII/);
  });
});
