import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { controlCharactersMessage, hasControlCharacters } from '@snapcracks/kit';
import type { Photo, UploadPhotoRequest, UploadPhotoResponse } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { acceptMultipart, streamOneFile } from '../multipart/one-file.js';
import { memberLimit } from '../plugins/member-limits.js';
import { photoIdParams, photoJson, privacyBarJson, toBars, toPhotoJson } from '../photo-json.js';
import faceSuggestionRoutes from './photos-face-suggestions.js';

/** Spec §5: one file, JPEG, PNG, HEIC/HEIF or WebP, 10 MB at most. Every refusal of the file says this. */
export const UPLOAD_REFUSED = 'Only image files (PNG, JPG, JPEG) up to 10MB are accepted';
export const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;
/** Room for the multipart framing and a description around a 10 MB file. */
const MAX_UPLOAD_REQUEST_BYTES = MAX_UPLOAD_BYTES + 64 * 1024;
const UPLOAD_DEADLINE_MS = 120_000;

const descriptionEdit = z.object({
  description: z
    .string({ error: 'Description is required' })
    .trim()
    .min(1, 'Description is required')
    .max(500, 'Description must be 500 characters or less'),
});
const optionalDescription = z.string().trim().max(500, 'Description must be 500 characters or less');

const BAR_MESSAGE = 'Each privacy bar needs x, y, width and height between 0 and 100, and must lie inside the photo';
const barsBody = z.object({
  bars: z
    .array(
      privacyBarJson.extend({
        x: z.number({ error: BAR_MESSAGE }).min(0, BAR_MESSAGE).max(100, BAR_MESSAGE),
        y: z.number({ error: BAR_MESSAGE }).min(0, BAR_MESSAGE).max(100, BAR_MESSAGE),
        width: z.number({ error: BAR_MESSAGE }).gt(0, BAR_MESSAGE).max(100, BAR_MESSAGE),
        height: z.number({ error: BAR_MESSAGE }).gt(0, BAR_MESSAGE).max(100, BAR_MESSAGE),
      }),
      { error: 'bars must be a list of privacy bars' },
    )
    .max(20, 'At most 20 privacy bars per photo'),
});
const barsJson = z.object({ bars: z.array(privacyBarJson) });

/**
 * The member's own photos: upload (streamed from the browser through to storage, never held whole here),
 * description and privacy-bar edits, deletion, and the list of their uploads.
 */
export default async function photoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  await acceptMultipart(app, { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 2, parts: 3, fieldSize: 8 * 1024, headerPairs: 100 });
  await app.register(faceSuggestionRoutes, { clients });
  const route = app.withTypeProvider<ZodTypeProvider>();

  // Per member (RATE_LIMIT_UPLOADS, RATE_LIMIT_UPLOADS_IN_FLIGHT): each upload stores and renders images.
  route.post('/api/photos', { ...memberLimit(app, 'uploads'), schema: { response: { 201: z.object({ id: z.number(), filename: z.string() }) } } }, async (request, reply) => {
    const caller = await request.requireMember();
    // The description may come before the file or after it (curl -F in that order); either way it travels in the one
    // upload call, first or last. A refused one cancels the upload, so nothing is stored.
    let description: string | undefined;
    let describedFirst = false;
    const { photo } = await streamOneFile<UploadPhotoRequest, UploadPhotoResponse>(request, reply, {
      field: 'photo',
      maxRequestBytes: MAX_UPLOAD_REQUEST_BYTES,
      refused: UPLOAD_REFUSED,
      tooLarge: UPLOAD_REFUSED,
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

  route.get('/api/user/photos', { schema: { response: { 200: z.array(photoJson) } } }, async (request, reply) => {
    const caller = await request.requireMember();
    const { photos } = await clients.photo.call.listMyPhotos({}, { caller });
    reply.header('cache-control', 'no-store');
    return photos.map(toPhotoJson);
  });

  route.patch('/api/photos/:id', { schema: { params: photoIdParams, body: descriptionEdit, response: { 200: photoJson } } }, async (request) => {
    const caller = await request.requireMember();
    const { photo } = await clients.photo.call.updatePhoto({ id: request.params.id, description: request.body.description }, { caller });
    return toPhotoJson(required(photo));
  });

  route.delete('/api/photos/:id', { schema: { params: photoIdParams } }, async (request, reply) => {
    const caller = await request.requireMember();
    await clients.photo.call.deletePhoto({ id: request.params.id }, { caller });
    return reply.code(204).send();
  });

  route.post('/api/photos/:id/privacy-bars', { schema: { params: photoIdParams, body: barsBody, response: { 200: barsJson } } }, async (request) => {
    const caller = await request.requireMember();
    // Rendering the redacted images takes a moment on a large photo.
    const { bars } = await clients.photo.call.setPrivacyBars({ id: request.params.id, bars: request.body.bars }, { caller, deadlineMs: 60_000 });
    return { bars: toBars(bars) };
  });

  route.get('/api/photos/:id/privacy-bars', { schema: { params: photoIdParams, response: { 200: barsJson } } }, async (request, reply) => {
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

function checkedDescription(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (hasControlCharacters(raw)) throw new HttpError(400, controlCharactersMessage('description'));
  const result = optionalDescription.safeParse(raw);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid description');
  return result.data || undefined;
}
