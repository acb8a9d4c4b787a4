import * as client from 'openid-client';
import { ConfigError, type Platform } from '@snapcracks/kit';
import type { SignInRequest } from '@snapcracks/proto/auth/v1';

export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Plain-http issuers are accepted only outside production (the development identity provider). */
  allowInsecure: boolean;
}

/**
 * The identity provider from the configuration (OIDC_ISSUER, OIDC_CLIENT_ID, OIDC_CLIENT_SECRET). A plain-http issuer
 * is refused here, at start, in production, where tokens and codes must not cross the network in clear; elsewhere it
 * is allowed, so that split mode and containers sign in through the development identity provider.
 */
export function oidcSettingsFrom(
  config: { OIDC_ISSUER?: string | undefined; OIDC_CLIENT_ID: string; OIDC_CLIENT_SECRET?: string | undefined },
  nodeEnv: Platform['nodeEnv'],
): OidcSettings {
  const missing = (['OIDC_ISSUER', 'OIDC_CLIENT_SECRET'] as const).filter((key) => !config[key]);
  if (missing.length) throw new ConfigError(`Invalid configuration: ${missing.join(', ')}: required`);
  const issuer = new URL(config.OIDC_ISSUER!);
  if (issuer.protocol !== 'https:' && issuer.protocol !== 'http:') throw new ConfigError('Invalid configuration: OIDC_ISSUER: expected an http(s) URL');
  const insecure = issuer.protocol === 'http:';
  if (insecure && nodeEnv === 'production') throw new ConfigError('Invalid configuration: OIDC_ISSUER: must be https in production');
  return { issuer: config.OIDC_ISSUER!, clientId: config.OIDC_CLIENT_ID, clientSecret: config.OIDC_CLIENT_SECRET!, allowInsecure: insecure };
}

/**
 * The OpenID Connect relying party: discovery once (retried on the next sign-in if the issuer was down),
 * authorization code flow with PKCE, state and nonce.
 */
export class OidcRelyingParty {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(private readonly settings: OidcSettings) {}

  /** Where sign-in and sign-out send the browser. */
  get issuerOrigin(): string {
    return new URL(this.settings.issuer).origin;
  }

  private discover(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(new URL(this.settings.issuer), this.settings.clientId, this.settings.clientSecret, undefined, {
        execute: this.settings.allowInsecure ? [client.allowInsecureRequests] : [],
      })
      .catch((error: unknown) => {
        this.configuration = undefined;
        throw error;
      });
    return this.configuration;
  }

  /** Everything the callback must check, to be kept in the session until it returns. */
  async startSignIn(redirectUri: string): Promise<{ url: URL; pending: PendingSignIn }> {
    const config = await this.discover();
    const codeVerifier = client.randomPKCECodeVerifier();
    const pending: PendingSignIn = { codeVerifier, state: client.randomState(), nonce: client.randomNonce(), redirectUri };
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: 'openid email profile',
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: 'S256',
      state: pending.state,
      nonce: pending.nonce,
    });
    return { url, pending };
  }

  async finishSignIn(callbackUrl: URL, pending: PendingSignIn): Promise<{ claims: SignInRequest; idToken: string | undefined }> {
    const config = await this.discover();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const idClaims = tokens.claims();
    if (!idClaims) throw new Error('The identity provider returned no ID token');
    const str = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
    return {
      idToken: tokens.id_token,
      claims: {
        issuer: idClaims.iss,
        subject: idClaims.sub,
        email: str(idClaims.email),
        // Only the issuer's explicit word counts: the auth service links accounts and grants ADMIN_EMAILS on it.
        emailVerified: idClaims.email_verified === true,
        firstName: str(idClaims.given_name),
        lastName: str(idClaims.family_name),
        profileImageUrl: str(idClaims.picture),
      },
    };
  }

  /** The issuer's end-session URL when it has one, else null (then signing out is local only). */
  async endSessionUrl(postLogoutRedirectUri: string, idToken: string | undefined): Promise<URL | null> {
    const config = await this.discover().catch(() => null);
    if (!config?.serverMetadata().end_session_endpoint) return null;
    return client.buildEndSessionUrl(config, {
      post_logout_redirect_uri: postLogoutRedirectUri,
      ...(idToken ? { id_token_hint: idToken } : {}),
    });
  }
}

export interface PendingSignIn {
  codeVerifier: string;
  state: string;
  nonce: string;
  redirectUri: string;
  /** The same-origin path (and query) the sign-in started from, to land on afterwards; `/` when absent. */
  returnTo?: string;
}
