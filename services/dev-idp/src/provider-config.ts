import type { ClientMetadata, Configuration, JWK } from 'oidc-provider';

import type { DevAccountStore } from './accounts.js';
import { grantRequestedScopesWithoutConsent } from './auto-grant.js';
import { contentSecurityPolicy } from './html.js';
import { AUTO_SUBMIT_SCRIPT_SOURCE, errorPage, signedOutPage, signingOutPage } from './pages.js';

/** A relying party (our gateway) registered with the development provider. */
export interface DevClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
}

export interface ProviderConfigInput {
  clients: readonly DevClient[];
  accounts: DevAccountStore;
  signingKeys: { keys: JWK[] };
  cookieKeys: string[];
}

/** The path of our own sign-in page for one pending interaction; `src/interactions.ts` serves it. */
export function interactionPath(uid: string): string {
  return `/interaction/${encodeURIComponent(uid)}`;
}

const MINUTE = 60;
const HOUR = 60 * MINUTE;

function toClientMetadata(client: DevClient): ClientMetadata {
  return {
    client_id: client.clientId,
    client_secret: client.clientSecret,
    redirect_uris: client.redirectUris,
    post_logout_redirect_uris: client.postLogoutRedirectUris,
    grant_types: ['authorization_code'],
    response_types: ['code'],
    // oidc-provider accepts the secret in the body (openid-client's default) as well as in Basic auth.
    token_endpoint_auth_method: 'client_secret_basic',
  };
}

/** oidc-provider 9 configuration for a development-only, consent-free code + PKCE provider. */
export function buildProviderConfiguration({ clients, accounts, signingKeys, cookieKeys }: ProviderConfigInput): Configuration {
  return {
    clients: clients.map(toClientMetadata),
    jwks: signingKeys,
    cookies: { keys: cookieKeys },
    // adapter left unset: oidc-provider's in-memory adapter, one store per provider instance.

    scopes: ['openid', 'profile', 'email'],
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name', 'given_name', 'family_name'],
    },
    // Put the profile and email claims in the ID token itself, so the app needs no extra userinfo call.
    conformIdTokenClaims: false,
    findAccount: accounts.findAccount,
    loadExistingGrant: grantRequestedScopesWithoutConsent,

    responseTypes: ['code'],
    // Every client must use PKCE (oidc-provider 9 only implements S256), confidential ones included.
    pkce: { required: () => true },

    interactions: { url: (_ctx, interaction) => interactionPath(interaction.uid) },

    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx, form) => {
          ctx.type = 'html';
          ctx.set('Content-Security-Policy', contentSecurityPolicy([AUTO_SUBMIT_SCRIPT_SOURCE]));
          ctx.body = signingOutPage(form);
        },
        postLogoutSuccessSource: (ctx) => {
          ctx.type = 'html';
          ctx.set('Content-Security-Policy', contentSecurityPolicy());
          ctx.body = signedOutPage();
        },
      },
    },

    renderError: (ctx, out) => {
      ctx.type = 'html';
      ctx.set('Content-Security-Policy', contentSecurityPolicy());
      const message = out.error_description ? `${out.error}: ${out.error_description}` : out.error;
      ctx.body = errorPage('Sign-in failed', message);
    },

    ttl: {
      AuthorizationCode: MINUTE,
      // Long enough to type an email; an abandoned sign-in page then simply starts over.
      Interaction: 10 * MINUTE,
      AccessToken: HOUR,
      IdToken: HOUR,
      // A working day: long enough not to nag during development, short enough not to linger.
      Session: 12 * HOUR,
      Grant: 12 * HOUR,
      RefreshToken: 12 * HOUR,
    },
  };
}
