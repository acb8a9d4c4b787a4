import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isServiceError } from '@snapcracks/kit';
import type { Clients } from '../clients.js';

const SETUP_PAGE = '/google-drive-setup';

/**
 * The storage setup page's calls (spec "Storage setup page"): an admin authorizes Google Drive once and
 * stores the refresh token as a server secret. The storage service holds the OAuth client and checks the
 * admin flag too.
 */
export default async function googleDriveRoutes(app: FastifyInstance, { clients, publicUrl }: { clients: Clients; publicUrl: string | null }) {
  const route = app.withTypeProvider<ZodTypeProvider>();
  const redirectUri = (request: FastifyRequest) => `${publicUrl ?? `${request.protocol}://${request.host}`}/api/google-drive/callback`;

  route.get('/api/google-drive/auth-url', { schema: { response: { 200: z.object({ authUrl: z.string() }) } } }, async (request, reply) => {
    const caller = await request.requireAdmin();
    const { authUrl } = await clients.storage.call.getDriveAuthUrl({ redirectUri: redirectUri(request) }, { caller });
    reply.header('cache-control', 'no-store');
    return { authUrl };
  });

  route.post(
    '/api/google-drive/exchange-token',
    {
      schema: {
        body: z.object({ code: z.string({ error: 'Please enter the authorization code' }).trim().min(1, 'Please enter the authorization code') }),
        response: { 200: z.object({ refreshToken: z.string() }) },
      },
    },
    async (request, reply) => {
      const caller = await request.requireAdmin();
      const { refreshToken } = await clients.storage.call.exchangeDriveCode({ code: request.body.code, redirectUri: redirectUri(request) }, { caller });
      reply.header('cache-control', 'no-store');
      return { refreshToken };
    },
  );

  // Google sends the admin's browser back here; the answer goes to the setup page, which reads and removes it.
  route.get(
    '/api/google-drive/callback',
    { schema: { querystring: z.object({ code: z.string().optional(), error: z.string().optional() }).loose() } },
    async (request, reply) => {
      const back = (params: Record<string, string>) => reply.header('cache-control', 'no-store').redirect(`${SETUP_PAGE}?${new URLSearchParams(params)}`);
      const { code, error } = request.query;
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
    },
  );
}
