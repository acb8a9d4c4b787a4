import { describe, expect, it } from 'vitest';
import { ConfigError } from '@snapcracks/kit';
import { oidcSettingsFrom } from './oidc.js';

const config = (issuer: string | undefined, secret: string | undefined = 's3cret') => ({ OIDC_ISSUER: issuer, OIDC_CLIENT_ID: 'snapcracks', OIDC_CLIENT_SECRET: secret });

describe('the identity provider from the configuration', () => {
  it('accepts a plain-http issuer outside production, marked insecure so discovery allows it', () => {
    expect(oidcSettingsFrom(config('http://localhost:8081'), 'development')).toEqual({
      issuer: 'http://localhost:8081',
      clientId: 'snapcracks',
      clientSecret: 's3cret',
      allowInsecure: true,
    });
  });

  it('refuses a plain-http issuer in production, at start', () => {
    expect(() => oidcSettingsFrom(config('http://idp.internal'), 'production')).toThrow(new ConfigError('Invalid configuration: OIDC_ISSUER: must be https in production'));
  });

  it('takes an https issuer as secure in every mode', () => {
    expect(oidcSettingsFrom(config('https://accounts.example.com'), 'production').allowInsecure).toBe(false);
  });

  it('names what is missing', () => {
    expect(() => oidcSettingsFrom(config(undefined, ''), 'development')).toThrow('Invalid configuration: OIDC_ISSUER, OIDC_CLIENT_SECRET: required');
  });
});
