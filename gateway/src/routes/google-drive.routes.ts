import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { routes } from '@snapcracks/http-contract';
import { isServiceError } from '@snapcracks/kit';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { messagePage } from '../pages.js';

const SETUP_PAGE = '/google-drive-setup';
/** How long an admin has at Google's consent page before the callback is refused. */
export const DRIVE_AUTHORIZATION_MS = 10 * 60 * 1000;

/**
 * The storage setup page's calls (spec "Storage setup page"): an admin authorizes Google Drive once and
 * stores the refresh token as a server secret. The storage service holds the OAuth client and checks the
 * admin flag too.
 *
 * The consent URL carries an OAuth `state`, random and kept in the admin's session; the callback exchanges a code only
 * when it brings that state back, within DRIVE_AUTHORIZATION_MS, once. So a callback URL another site sends the admin's
 * browser to (with the attacker's own code, to have the admin store the attacker's Drive token) is refused, as is one
 * from another session or a replay, and nothing is exchanged.
 */
export default async function googleDriveRoutes(app: FastifyInstance, { clients, publicUrl }: { clients: Clients; publicUrl: string | null }) {
  const serve = contractRoutes(app);
  const redirectUri = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}/api/google-drive/callback`;

  serve(routes.driveAuthUrl, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { authUrl } = await clients.storage.call.getDriveAuthUrl({ redirectUri: redirectUri(request) }, { caller });
    // A new state for each consent URL: the latest one the admin asked for is the one the callback accepts.
    const state = randomBytes(32).toString('base64url');
    request.session.driveAuthorization = { state, expiresAt: Date.now() + DRIVE_AUTHORIZATION_MS };
    const url = new URL(authUrl);
    url.searchParams.set('state', state);
    reply.header('cache-control', 'no-store');
    return { authUrl: url.href };
  });

  serve(routes.driveExchangeToken, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { refreshToken } = await clients.storage.call.exchangeDriveCode({ code: request.body.code, redirectUri: redirectUri(request) }, { caller });
    reply.header('cache-control', 'no-store');
    return { refreshToken };
  });

  // Google sends the admin's browser back here; the answer goes to the setup page, which reads and removes it.
  serve(routes.driveCallback, async (request, reply) => {
    const back = (params: Record<string, string>) => reply.header('cache-control', 'no-store').redirect(`${SETUP_PAGE}?${new URLSearchParams(params)}`);
    const { code, error, state } = request.query;
    if (!isExpectedState(state, request.session.driveAuthorization)) {
      // Nothing changes, the authorization under way included: a forged callback must not cancel the admin's own.
      request.log.warn({ hasState: state !== undefined, pending: request.session.driveAuthorization !== undefined }, 'Google Drive callback refused: state missing, unknown, used or expired');
      return reply
        .code(400)
        .header('cache-control', 'no-store')
        .type('text/html')
        .send(
          messagePage(
            'Authorization refused',
            'This Google Drive authorization was not started from your session, has expired, or was already used. Please start again from the storage setup page.',
            { href: SETUP_PAGE, label: 'Back to storage setup' },
          ),
        );
    }
    // Single use: whatever happens next, this state is spent.
    delete request.session.driveAuthorization;
    if (error || !code) return back({ error: error || 'No authorization code was returned' });
    try {
      const caller = await request.requireAdmin();
      const { refreshToken } = await clients.storage.call.exchangeDriveCode({ code, redirectUri: redirectUri(request) }, { caller });
      return back({ token: refreshToken });
    } catch (failure) {
      request.log.warn({ err: failure }, 'Google Drive authorization failed');
      const message = isServiceError(failure) ? failure.details : failure instanceof Error ? failure.message : 'Authorization failed';
      return back({ error: message });
    }
  });
}

function isExpectedState(state: string | undefined, pending: { state: string; expiresAt: number } | undefined): boolean {
  if (state === undefined || pending === undefined || pending.expiresAt <= Date.now()) return false;
  const given = Buffer.from(state);
  const expected = Buffer.from(pending.state);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
