import { describe, expect, it } from 'vitest';

import { parseDevIdpEnv } from './env.js';

describe('parseDevIdpEnv', () => {
  it('uses the local development defaults, treating empty values as unset', () => {
    expect(parseDevIdpEnv({ DEV_IDP_PORT: '', OIDC_CLIENT_SECRET: '' })).toEqual({
      port: 8081,
      host: '127.0.0.1',
      clientId: 'snapcracks',
      clientSecret: undefined,
      redirectUri: 'http://localhost:8080/api/callback',
      postLogoutRedirectUri: 'http://localhost:8080/',
    });
  });

  it('reads every variable', () => {
    expect(
      parseDevIdpEnv({
        DEV_IDP_PORT: '9000',
        DEV_IDP_HOST: '0.0.0.0',
        OIDC_CLIENT_ID: 'app',
        OIDC_CLIENT_SECRET: 's3cret',
        OIDC_REDIRECT_URI: 'http://localhost:3000/cb',
        OIDC_POST_LOGOUT_REDIRECT_URI: 'http://localhost:3000/bye',
      }),
    ).toEqual({
      port: 9000,
      host: '0.0.0.0',
      clientId: 'app',
      clientSecret: 's3cret',
      redirectUri: 'http://localhost:3000/cb',
      postLogoutRedirectUri: 'http://localhost:3000/bye',
    });
  });

  it('names every bad variable in one line', () => {
    expect(() => parseDevIdpEnv({ DEV_IDP_PORT: 'abc', OIDC_REDIRECT_URI: 'javascript:alert(1)' })).toThrow(
      /^Invalid configuration: DEV_IDP_PORT: .*; OIDC_REDIRECT_URI: expected an http\(s\) URL$/,
    );
  });
});
