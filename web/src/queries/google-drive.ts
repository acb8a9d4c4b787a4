import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/*
 * The setup page is open to signed-out visitors and says itself what failed (components/google-drive/feedback.ts):
 * a 401 there is reported like any other refusal, not answered with a sign-in.
 */

/** Asks the server for the Google consent-screen URL. */
export function useDriveAuthUrlMutation() {
  return useMutation({ mutationFn: () => api.googleDrive.authUrl(), meta: { redirectOnUnauthorized: false } });
}

/** Trades a pasted authorization code for a refresh token. */
export function useDriveExchangeTokenMutation() {
  return useMutation({ mutationFn: (code: string) => api.googleDrive.exchangeToken(code), meta: { redirectOnUnauthorized: false } });
}
