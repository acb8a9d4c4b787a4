import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
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
    // The description and alt text may come before the file or after it (curl -F in that order); either way they
    // travel in the one upload call, in its first message or its last. A refused one cancels the upload, so nothing
    // is stored.
    const fields: { description?: string; altText?: string } = {};
    let header: { description?: string; altText?: string } = {};
    const { photo } = await streamOneFile<UploadPhotoRequest, UploadPhotoResponse>(request, reply, {
      field: 'photo',
      maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES,
      refused: UPLOAD.refused,
      tooLarge: UPLOAD.refused,
      overOtherLimits: 'tooLarge',
      onField: (name, value) => {
        if (name === 'description' || name === 'altText') fields[name] = value;
      },
      open: () => clients.photo.clientStream('uploadPhoto', { caller, deadlineMs: UPLOAD_DEADLINE_MS }),
      header: (file) => {
        header = checkedFields(fields);
        return { part: { $case: 'metadata', value: { originalName: file.filename, mimeType: file.mimetype, ...header } } };
      },
      chunk: (bytes) => ({ part: { $case: 'chunk', value: bytes } }),
      trailer: () => {
        const late = checkedFields({
          ...(!('description' in header) && fields.description !== undefined ? { description: fields.description } : {}),
          ...(!('altText' in header) && fields.altText !== undefined ? { altText: fields.altText } : {}),
        });
        return late.description !== undefined || late.altText !== undefined ? { part: { $case: 'lateFields', value: late } } : undefined;
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
    const { description, altText } = request.body;
    // Null clears the alt text (blank, to the photo service); left out, it stays as it is.
    const { photo } = await clients.photo.call.updatePhoto(
      { id: request.params.id, description, ...(altText !== undefined ? { altText: altText ?? '' } : {}) },
      { caller },
    );
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

/**
 * Multipart fields, so checked here with the same rules as the contract's JSON bodies (no control characters, the
 * length). Each one given is kept, blank included: the photo service stores a blank one as none, and a field sent
 * both before and after the file is refused there.
 */
function checkedFields(raw: { description?: string; altText?: string }): { description?: string; altText?: string } {
  const checked: { description?: string; altText?: string } = {};
  if (raw.description !== undefined) checked.description = checkedField('description', schemas.uploadDescription, raw.description);
  if (raw.altText !== undefined) checked.altText = checkedField('altText', schemas.altTextInput, raw.altText);
  return checked;
}

function checkedField(name: string, schema: z.ZodType<string>, raw: string): string {
  if (hasControlCharacters(raw)) throw new HttpError(400, controlCharactersMessage(name));
  const result = schema.safeParse(raw);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? `Invalid ${name}`);
  return result.data;
}
