import type { FastifyInstance } from 'fastify';
import { UPLOAD, routes, schemas } from '@snapcracks/http-contract';
import { controlCharactersMessage, hasControlCharacters } from '@snapcracks/kit';
import type { Photo, UploadPhotoRequest, UploadPhotoResponse } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { contractRoutes } from '../contract-route.js';
import { HttpError } from '../http-errors.js';
import { acceptMultipart, streamOneFile } from '../multipart/one-file.js';
import { toBars, toPhotoJson } from '../photo-json.js';
import faceSuggestionRoutes from './photos-face-suggestions.js';

/** Room for the multipart framing and a description around a 10 MB file. */
const MAX_UPLOAD_REQUEST_BYTES = UPLOAD.maxBytes + 64 * 1024;
const UPLOAD_DEADLINE_MS = 120_000;

/**
 * The member's own photos: upload (streamed from the browser through to storage, never held whole here),
 * description and privacy-bar edits, deletion, and the list of their uploads.
 */
export default async function photoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  await acceptMultipart(app, { fileSize: UPLOAD.maxBytes, files: 1, fields: 2, parts: 3, fieldSize: 8 * 1024, headerPairs: 100 });
  await app.register(faceSuggestionRoutes, { clients });
  const serve = contractRoutes(app);

  // Per member (RATE_LIMIT_UPLOADS, RATE_LIMIT_UPLOADS_IN_FLIGHT): each upload stores and renders images.
  serve(routes.uploadPhoto, async (request, reply) => {
    const caller = await request.requireMember();
    // The description may come before the file or after it (curl -F in that order); either way it travels in the one
    // upload call, first or last. A refused one cancels the upload, so nothing is stored.
    let description: string | undefined;
    let describedFirst = false;
    const { photo } = await streamOneFile<UploadPhotoRequest, UploadPhotoResponse>(request, reply, {
      field: 'photo',
      maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES,
      refused: UPLOAD.refused,
      tooLarge: UPLOAD.refused,
      overOtherLimits: 'tooLarge',
      onField: (name, value) => {
        if (name === 'description') description = value;
      },
      open: () => clients.photo.clientStream('uploadPhoto', { caller, deadlineMs: UPLOAD_DEADLINE_MS }),
      header: (file) => {
        describedFirst = description !== undefined;
        const checked = checkedDescription(description);
        return { part: { $case: 'metadata', value: { originalName: file.filename, mimeType: file.mimetype, ...(checked ? { description: checked } : {}) } } };
      },
      chunk: (bytes) => ({ part: { $case: 'chunk', value: bytes } }),
      trailer: () => {
        if (describedFirst) return undefined;
        const late = checkedDescription(description);
        return late ? { part: { $case: 'description', value: late } } : undefined;
      },
    });
    const { id, filename } = required(photo);
    return reply.code(201).send({ id, filename });
  });

  serve(routes.myPhotos, async (request, reply) => {
    const caller = await request.requireMember();
    const { photos } = await clients.photo.call.listMyPhotos({}, { caller });
    reply.header('cache-control', 'no-store');
    return photos.map(toPhotoJson);
  });

  serve(routes.editDescription, async (request) => {
    const caller = await request.requireMember();
    const { photo } = await clients.photo.call.updatePhoto({ id: request.params.id, description: request.body.description }, { caller });
    return toPhotoJson(required(photo));
  });

  serve(routes.resubmitPhoto, async (request) => {
    const caller = await request.requireMember();
    const { note } = request.body;
    const { photo } = await clients.photo.call.resubmitPhoto({ id: request.params.id, ...(note ? { note } : {}) }, { caller });
    if (!photo) throw new Error('The photo service answered without a photo');
    return toPhotoJson(photo);
  });

  serve(routes.deletePhoto, async (request, reply) => {
    const caller = await request.requireMember();
    await clients.photo.call.deletePhoto({ id: request.params.id }, { caller });
    return reply.code(204).send();
  });

  serve(routes.setPrivacyBars, async (request) => {
    const caller = await request.requireMember();
    // Rendering the redacted images takes a moment on a large photo.
    const { bars } = await clients.photo.call.setPrivacyBars({ id: request.params.id, bars: request.body.bars }, { caller, deadlineMs: 60_000 });
    return { bars: toBars(bars) };
  });

  serve(routes.getPrivacyBars, async (request, reply) => {
    const caller = await request.requireMember();
    const { bars } = await clients.photo.call.getPrivacyBars({ id: request.params.id }, { caller });
    reply.header('cache-control', 'no-store');
    return { bars: toBars(bars) };
  });
}

function required(photo: Photo | undefined): Photo {
  if (!photo) throw new Error('The photo service answered without a photo');
  return photo;
}

/** A multipart field, so checked here with the same rules as the contract's JSON bodies (no control characters, the length). */
function checkedDescription(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (hasControlCharacters(raw)) throw new HttpError(400, controlCharactersMessage('description'));
  const result = schemas.uploadDescription.safeParse(raw);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid description');
  return result.data || undefined;
}
