import { useMutation } from '@tanstack/react-query';
import { api } from '@/lib/api';

/** Asks the server for the Google consent-screen URL (GET /api/google-drive/auth-url). */
export function useDriveAuthUrlMutation() {
  return useMutation({ mutationFn: () => api.googleDrive.authUrl() });
}

/** Trades a pasted authorization code for a refresh token (POST /api/google-drive/exchange-token). */
export function useDriveExchangeTokenMutation() {
  return useMutation({ mutationFn: (code: string) => api.googleDrive.exchangeToken(code) });
}
