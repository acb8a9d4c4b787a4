import { FailedPreconditionError, InvalidArgumentError, UnavailableError } from '@snapcracks/kit';
import type { GoogleOAuthSettings } from './config.js';
import { createOAuthClient, googleStatus } from './google-oauth.js';

/** Only files this app creates: the narrowest Drive scope that lets the storage service keep its blobs. */
export const DRIVE_SCOPE = 'https://www.googleapis.com/auth/drive.file';

const NOT_CONFIGURED = 'Google Drive is not configured on the server: set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET';

/**
 * The admin's one-time Google Drive authorization: a consent URL asking for offline access (so Google returns a
 * refresh token), and the exchange of the code Google sends back for that refresh token, which the admin then
 * sets as GOOGLE_REFRESH_TOKEN. The server never stores the token itself.
 */
export class DriveAuthorization {
  constructor(private readonly settings: GoogleOAuthSettings | undefined) {}

  authUrl(redirectUri: string): string {
    const client = createOAuthClient(this.requireSettings(), checkRedirectUri(redirectUri));
    return client.generateAuthUrl({ access_type: 'offline', prompt: 'consent', scope: [DRIVE_SCOPE], include_granted_scopes: true });
  }

  async exchangeCode(code: string, redirectUri: string): Promise<string> {
    const settings = this.requireSettings();
    const trimmed = code.trim();
    if (!trimmed || trimmed.length > 2048) throw new InvalidArgumentError('The Google authorization code is missing or invalid');
    const client = createOAuthClient(settings, checkRedirectUri(redirectUri));
    let refreshToken: string | null | undefined;
    try {
      ({ tokens: { refresh_token: refreshToken } } = await client.getToken({ code: trimmed, redirect_uri: redirectUri }));
    } catch (error) {
      const status = googleStatus(error);
      if (status !== undefined && status >= 400 && status < 500) {
        throw new InvalidArgumentError('The Google authorization code is invalid or has expired; please authorize again');
      }
      throw new UnavailableError('Google could not be reached; please try again');
    }
    if (!refreshToken) {
      throw new FailedPreconditionError('Google did not return a refresh token; remove the app from your Google account permissions and authorize again');
    }
    return refreshToken;
  }

  private requireSettings(): GoogleOAuthSettings {
    if (!this.settings) throw new FailedPreconditionError(NOT_CONFIGURED);
    return this.settings;
  }
}

function checkRedirectUri(redirectUri: string): string {
  let url: URL;
  try {
    url = new URL(redirectUri);
  } catch {
    throw new InvalidArgumentError('A valid redirect URI is required');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InvalidArgumentError('A valid redirect URI is required');
  return redirectUri;
}
