import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { memberLimit } from '../plugins/member-limits.js';
import { privacyBarJson, toBars } from '../photo-json.js';

/** What storage accepts (services/storage: MAX_FACE_SUGGESTION_BYTES), refused here before a byte is read. */
export const FACE_SUGGESTIONS_REFUSED = 'Only JPG, PNG or WebP images up to 3MB can be checked for faces';
export const MAX_FACE_SUGGESTION_BYTES = 3 * 1024 * 1024;
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/webp'];
/** A cold detector thread loads its model first (a few seconds); storage gives up after 15 s. */
const SUGGESTION_DEADLINE_MS = 20_000;

const imageBody = z.custom<Buffer>((body) => Buffer.isBuffer(body) && body.byteLength > 0, { message: FACE_SUGGESTIONS_REFUSED });
const suggestionsJson = z.object({ bars: z.array(privacyBarJson) });

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
  app.addContentTypeParser(IMAGE_TYPES, { parseAs: 'buffer', bodyLimit: MAX_FACE_SUGGESTION_BYTES }, (_request, body, done) => done(null, body));
  const route = app.withTypeProvider<ZodTypeProvider>();
  const limit = memberLimit(app, 'faceSuggestions');

  route.post(
    '/api/photos/face-suggestions',
    {
      // Who may ask comes before what was sent: a signed-out caller gets 401, not a 400 about the body.
      // Then the member's limit (RATE_LIMIT_FACE_SUGGESTIONS), before the image is read.
      onRequest: [
        async (request: FastifyRequest) => {
          await request.requireMember();
          if (Number(request.headers['content-length']) > MAX_FACE_SUGGESTION_BYTES) throw new HttpError(413, FACE_SUGGESTIONS_REFUSED);
        },
        ...limit.onRequest,
      ],
      onSend: limit.onSend,
      schema: { body: imageBody, response: { 200: suggestionsJson } },
    },
    async (request, reply) => {
      const caller = await request.requireMember();
      const { bars } = await clients.storage.call.suggestFaceBars({ image: request.body }, { caller, deadlineMs: SUGGESTION_DEADLINE_MS });
      reply.header('cache-control', 'no-store');
      return { bars: toBars(bars) };
    },
  );
}
