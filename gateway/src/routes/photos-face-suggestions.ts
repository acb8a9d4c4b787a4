import type { FastifyInstance, FastifyRequest } from 'fastify';
import { FACE_SUGGESTIONS, routes } from '@snapcracks/http-contract';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import { toBars } from '../photo-json.js';

/** A cold detector thread loads its model first (a few seconds); storage gives up after 15 s. */
const SUGGESTION_DEADLINE_MS = 20_000;

/**
 * `POST /api/photos/face-suggestions`: privacy bars over the faces in a photo a member is about to upload.
 *
 * The photo has no id yet (on /upload bars are drawn before the upload), so the body is the image itself, a copy
 * the browser scaled down, sent as `image/jpeg`, `image/png` or `image/webp`; it goes to storage's face detector
 * and is never stored. Members only (401 signed out, 403 before accepting the terms or when disabled). The
 * answer is `{bars}` in the editor's percentages, empty when no face was found; a slow, busy or failing
 * detector is a 503.
 */
export default async function faceSuggestionRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  // Scoped to this plugin: nowhere else does the gateway take a raw image as a body.
  app.addContentTypeParser([...FACE_SUGGESTIONS.types], { parseAs: 'buffer', bodyLimit: FACE_SUGGESTIONS.maxBytes }, (_request, body, done) => done(null, body));

  // Who may ask comes before what was sent: a signed-out caller gets 401, not a 400 about the body, and a body that is
  // too large is refused before it is read. Then the member's limit (RATE_LIMIT_FACE_SUGGESTIONS).
  const refuseEarly = async (request: FastifyRequest) => {
    await request.requireMember();
    if (Number(request.headers['content-length']) > FACE_SUGGESTIONS.maxBytes) throw new HttpError(413, FACE_SUGGESTIONS.refused);
  };
  contractRoutes(app)(
    routes.faceSuggestions,
    async (request, reply) => {
      const caller = await request.requireMember();
      const image = Buffer.from(request.body.buffer, request.body.byteOffset, request.body.byteLength);
      const { bars } = await clients.storage.call.suggestFaceBars({ image }, { caller, deadlineMs: SUGGESTION_DEADLINE_MS });
      reply.header('cache-control', 'no-store');
      return { bars: toBars(bars) };
    },
    { onRequest: [refuseEarly] },
  );
}
