import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { status as GrpcStatus } from '@grpc/grpc-js';
import { Server as TusServer } from '@tus/server';
import { NodeRequest } from 'srvx/node';
import { RESUMABLE_UPLOAD, UPLOAD, routes, type RouteDefinition } from '@snapcracks/http-contract';
import { isServiceError } from '@snapcracks/kit';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import type { ResumableUploadRepository } from '../resumable-uploads/resumable-upload.repository.js';
import { TusUploadStore, isTusRefusal, uploadCaller } from '../resumable-uploads/tus-store.js';

const HOUR_MS = 3600 * 1000;
/** As POST /api/photos: storing and rendering a large photo. */
const UPLOAD_DEADLINE_MS = 120_000;

/** What the tus handler's refusals say to a member, by status; its own texts are for developers. */
const MESSAGES: Partial<Record<number, string>> = {
  404: RESUMABLE_UPLOAD.notFound,
  409: RESUMABLE_UPLOAD.offsetConflict,
  410: RESUMABLE_UPLOAD.expired,
  413: UPLOAD.refused,
  415: UPLOAD.refused,
};

/** Response headers of the protocol's handler that the gateway sets itself, or that only matter across origins. */
const NOT_PASSED_ON = new Set(['content-length', 'content-type', 'access-control-allow-origin', 'access-control-expose-headers']);

export interface ResumableUploadSettings {
  uploads: ResumableUploadRepository;
  keepHours: number;
}

/**
 * Uploads that survive a bad connection (docs/resumable-uploads.md): the tus 1.0 protocol, served by `@tus/server`
 * over the gateway's own table of uploads, so any replica continues any upload; then one JSON call turns the whole
 * upload into a photo by the same path as POST /api/photos (the photo service's upload stream: type by the bytes,
 * metadata stripped, the upload allowance). The signed-in member and the contract's headers are checked here first;
 * every answer, the protocol's refusals included, is the gateway's (security headers, `{ message }`).
 */
export default async function resumableUploadRoutes(app: FastifyInstance, { clients, settings }: { clients: Clients; settings: ResumableUploadSettings }) {
  // The protocol's handler reads the body itself, as it arrives.
  app.addContentTypeParser('application/offset+octet-stream', (_request, _payload, done) => done(null));
  const tus = new TusServer({
    path: RESUMABLE_UPLOAD.path,
    datastore: new TusUploadStore(settings.uploads, { keepMs: settings.keepHours * HOUR_MS, maxUnfinished: RESUMABLE_UPLOAD.maxUnfinished }),
    maxSize: UPLOAD.maxBytes,
    relativeLocation: true,
    // Same origin only: no CORS headers.
    allowedOrigins: [],
    onResponseError: async (_request, error) => {
      if (!isTusRefusal(error)) uploadCaller.getStore()?.logError(error);
      return undefined;
    },
  });
  const serve = contractRoutes(app);

  const protocol = (route: RouteDefinition) => async (request: FastifyRequest, reply: FastifyReply) => {
    const { userId } = await request.requireMember();
    if (request.headers['tus-resumable'] !== RESUMABLE_UPLOAD.tusVersion) {
      reply.header('tus-resumable', RESUMABLE_UPLOAD.tusVersion);
      throw new HttpError(412, `Tus-Resumable: ${RESUMABLE_UPLOAD.tusVersion} is required.`);
    }
    const headers = route.headers?.safeParse(request.headers);
    if (headers && !headers.success) {
      const issue = headers.error.issues[0];
      throw new HttpError(400, issue?.path[0] === 'upload-length' ? RESUMABLE_UPLOAD.lengthRequired : `Invalid ${String(issue?.path[0] ?? 'header')}`);
    }
    const answer = await uploadCaller.run({ userId, logError: (error) => request.log.error({ err: error }, 'resumable upload failed') }, () =>
      tus.handleWeb(new NodeRequest({ req: request.raw, res: reply.raw })),
    );
    for (const [name, value] of answer.headers) if (!NOT_PASSED_ON.has(name)) reply.header(name, value);
    reply.header('cache-control', 'no-store');
    reply.code(answer.status);
    if (answer.status >= 400) {
      const text = (await answer.text()).trim();
      return reply.send({ message: MESSAGES[answer.status] ?? (text || 'The upload could not be handled.') });
    }
    return reply.send();
  };

  serve(routes.createResumableUpload, protocol(routes.createResumableUpload));
  serve(routes.resumableUploadOffset, protocol(routes.resumableUploadOffset));
  serve(routes.appendResumableUpload, protocol(routes.appendResumableUpload));
  serve(routes.cancelResumableUpload, protocol(routes.cancelResumableUpload));

  // Per member (RATE_LIMIT_UPLOADS, RATE_LIMIT_UPLOADS_IN_FLIGHT), as POST /api/photos: here the image is made.
  serve(routes.finishResumableUpload, async (request, reply) => {
    const caller = await request.requireMember();
    const { description, altText } = request.body;
    const result = await settings.uploads.finish(
      caller.userId,
      request.params.id,
      async (upload, bytes) => {
        const call = clients.photo.clientStream('uploadPhoto', { caller, deadlineMs: UPLOAD_DEADLINE_MS });
        try {
          await call.send({
            part: {
              $case: 'metadata',
              value: { originalName: upload.filename, mimeType: '', ...(description !== undefined ? { description } : {}), ...(altText !== undefined ? { altText } : {}) },
            },
          });
          for await (const chunk of bytes) await call.send({ part: { $case: 'chunk', value: chunk } });
        } catch (error) {
          call.cancel();
          throw error;
        }
        const { photo } = await call.finish();
        if (!photo) throw new Error('The photo service answered without a photo');
        return { id: photo.id, filename: photo.filename };
      },
      // Bytes the photo service refused as an image never become one: they go at once.
      (error) => isServiceError(error) && error.code === GrpcStatus.INVALID_ARGUMENT,
    );
    switch (result.kind) {
      case 'missing':
        throw new HttpError(404, RESUMABLE_UPLOAD.notFound);
      case 'expired':
        throw new HttpError(410, RESUMABLE_UPLOAD.expired);
      case 'incomplete':
        throw new HttpError(409, RESUMABLE_UPLOAD.incomplete);
      case 'finished':
      case 'made':
        return reply.code(201).send(result.photo);
    }
  });
}
