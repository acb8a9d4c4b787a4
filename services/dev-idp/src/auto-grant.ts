import type { Configuration } from 'oidc-provider';

/**
 * oidc-provider's `loadExistingGrant`, changed so that consent is never asked: every client of this provider is
 * one of our own apps, so whatever OIDC scopes and claims it requests are granted on the spot. Because this runs
 * on every authorization request (not only after the sign-in form), silent re-authentication never stops for
 * consent either.
 */
export const grantRequestedScopesWithoutConsent: NonNullable<Configuration['loadExistingGrant']> = async (ctx) => {
  const { account, client, session, result, provider } = ctx.oidc;
  // The provider only asks once someone is signed in; without an account there is nothing to grant to.
  if (!account || !client) return undefined;

  const existingId = result?.consent?.grantId ?? session?.grantIdFor(client.clientId);
  const existing = existingId ? await provider.Grant.find(existingId) : undefined;
  // A grant from another person (the browser's session changed hands) must not be reused.
  const grant =
    existing && existing.accountId === account.accountId
      ? existing
      : new provider.Grant({ accountId: account.accountId, clientId: client.clientId });

  grant.addOIDCScope(ctx.oidc.requestParamOIDCScopes);
  const claims = ctx.oidc.requestParamClaims;
  if (claims.size > 0) grant.addOIDCClaims(claims);
  await grant.save();
  return grant;
};
