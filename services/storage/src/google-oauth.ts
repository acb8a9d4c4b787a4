import { auth } from '@googleapis/drive';
import type { GoogleOAuthSettings } from './config.js';

/**
 * Google's OAuth 2.0 client, taken from the Drive package so it is the same google-auth-library copy the Drive
 * client speaks to (an older separate copy would not add its bearer token to the newer request headers).
 */
export type OAuth2Client = InstanceType<typeof auth.OAuth2>;

export function createOAuthClient(settings: GoogleOAuthSettings, redirectUri?: string): OAuth2Client {
  return new auth.OAuth2({
    clientId: settings.clientId,
    clientSecret: settings.clientSecret,
    ...(redirectUri ? { redirectUri } : {}),
    endpoints: {
      ...(settings.authUrl ? { oauth2AuthBaseUrl: settings.authUrl } : {}),
      ...(settings.tokenUrl ? { oauth2TokenUrl: settings.tokenUrl } : {}),
    },
  });
}

/** The HTTP status of a failed Google call, when it got that far. */
export function googleStatus(error: unknown): number | undefined {
  const e = error as { status?: unknown; response?: { status?: unknown } } | null;
  const status = e?.response?.status ?? e?.status;
  return typeof status === 'number' ? status : undefined;
}
