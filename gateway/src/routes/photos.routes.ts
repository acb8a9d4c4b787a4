import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import { UPLOAD, routes, schemas } from '@snapcracks/http-contract';
import { controlCharactersMessage, hasControlCharacters, type Caller, type OutgoingStream } from '@snapcracks/kit';
import type { Photo, UploadPhotoRequest, UploadPhotoResponse } from '@snapcracks/proto/photo/v1';
import type { Clients } from '../clients.js';
import { HttpError } from '../http-errors.js';
import { MULTIPART_LIMIT_ERRORS, multipartReadError } from '../multipart-errors.js';
import { contractRoutes } from '../contract-route.js';
import { coalesceChunks } from '../streams/coalesce-chunks.js';
import { toBars, toPhotoJson } from '../photo-json.js';
import faceSuggestionRoutes from './photos-face-suggestions.js';

/** Spec §5: one file, JPEG, PNG, HEIC/HEIF or WebP, 10 MB at most. Every refusal of the file says this. */
const UPLOAD_REFUSED = UPLOAD.refused;
/** Room for the multipart framing and a description around a 10 MB file. */
const MAX_UPLOAD_REQUEST_BYTES = UPLOAD.maxBytes + 64 * 1024;
const UPLOAD_DEADLINE_MS = 120_000;
/** How long a refused upload's remaining bytes are read before the connection is closed instead. */
const DISCARD_WAIT_MS = 10_000;


/**
 * The member's own photos: upload (streamed from the browser through to storage, never held whole here),
 * description and privacy-bar edits, deletion, and the list of their uploads.
 */
export default async function photoRoutes(app: FastifyInstance, { clients }: { clients: Clients }) {
  await app.register(multipart, {
    throwFileSizeLimit: true,
    limits: { fileSize: UPLOAD.maxBytes, files: 1, fields: 2, parts: 3, fieldSize: 8 * 1024, headerPairs: 100 },
  });
  await app.register(faceSuggestionRoutes, { clients });
  const serve = contractRoutes(app);

  // Per member (RATE_LIMIT_UPLOADS, RATE_LIMIT_UPLOADS_IN_FLIGHT): each upload stores and renders images.
  serve(routes.uploadPhoto, async (request, reply) => {
    const caller = await request.requireMember();
    if (!request.isMultipart()) throw new HttpError(400, UPLOAD_REFUSED);
    if (Number(request.headers['content-length']) > MAX_UPLOAD_REQUEST_BYTES) {
      reply.header('connection', 'close');
      throw new HttpError(413, UPLOAD_REFUSED);
    }
    try {
      const photo = await receiveUpload(request, caller, clients);
      return await reply.code(201).send({ id: photo.id, filename: photo.filename });
    } catch (error) {
      await discardRest(request, reply);
      throw error;
    }
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
 * Reads the multipart body part by part: the description (before or after the file) and exactly one file
 * named `photo`, whose bytes go straight on to the photo service as they arrive. The upload is finished, and
 * so the photo stored, only once the whole body has been read and found sound: a second file, a file cut at
 * the size limit or any other problem cancels it, so a refused request stores nothing. Whatever goes wrong,
 * the rest of the body is read and dropped before answering, so the browser sees our answer, not a reset.
 */
async function receiveUpload(request: FastifyRequest, caller: Caller, clients: Clients): Promise<Photo> {
  let description: string | undefined;
  let sentDescription = false;
  let upload: OutgoingStream<UploadPhotoRequest, UploadPhotoResponse> | undefined;
  let failure: unknown;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (part.fieldname === 'description') description = String(part.value);
        continue;
      }
      if (failure !== undefined || upload || part.fieldname !== 'photo') {
        failure ??= new HttpError(400, UPLOAD_REFUSED);
        part.file.resume();
        continue;
      }
      try {
        sentDescription = description !== undefined;
        upload = clients.photo.clientStream('uploadPhoto', { caller, deadlineMs: UPLOAD_DEADLINE_MS });
        await sendFile(upload, part, checkedDescription(description));
      } catch (error) {
        // The file's bytes come from the parser too: a body cut short fails here, mid-file.
        failure = multipartReadError(error);
        part.file.resume();
      }
    }
  } catch (error) {
    failure ??= multipartReadError(error);
  }
  if (failure !== undefined) {
    upload?.cancel();
    const code = (failure as { code?: unknown }).code;
    if (typeof code === 'string' && MULTIPART_LIMIT_ERRORS.has(code)) throw new HttpError(413, UPLOAD_REFUSED);
    if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') throw new HttpError(400, UPLOAD_REFUSED);
    throw failure;
  }
  if (!upload) throw new HttpError(400, UPLOAD_REFUSED);
  // A description sent after the file (curl -F in that order) is checked before the upload is finished: a refused one
  // cancels it, so nothing is stored and nothing announced (storing and then deleting the photo left its events and
  // the read models' records of a photo that never was).
  let lateDescription: string | undefined;
  if (description !== undefined && !sentDescription) {
    try {
      lateDescription = checkedDescription(description);
    } catch (error) {
      upload.cancel();
      throw error;
    }
  }
  const photo = required((await upload.finish()).photo);
  return lateDescription ? describeAfterUpload(photo, lateDescription, caller, clients) : photo;
}

/** A description sent after the file, already checked, is applied once the photo exists. */
async function describeAfterUpload(photo: Photo, description: string, caller: Caller, clients: Clients): Promise<Photo> {
  const updated = await clients.photo.call.updatePhoto({ id: photo.id, description }, { caller });
  return required(updated.photo);
}

/**
 * After a refusal the parser may have stopped half-way through the body, leaving bytes that would block the
 * next request on this keep-alive connection. Reads and drops them when they are bounded; otherwise (or if
 * they take too long) the connection closes after the answer.
 */
async function discardRest(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
  if (Number(raw.headers['content-length']) <= MAX_UPLOAD_REQUEST_BYTES) {
    await Promise.race([once(raw, 'end'), setTimeout(DISCARD_WAIT_MS)]).catch(() => undefined);
  }
  if (!raw.complete) reply.header('connection', 'close');
}

function checkedDescription(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (hasControlCharacters(raw)) throw new HttpError(400, controlCharactersMessage('description'));
  const result = schemas.uploadDescription.safeParse(raw);
  if (!result.success) throw new HttpError(400, result.error.issues[0]?.message ?? 'Invalid description');
  return result.data || undefined;
}

async function sendFile(upload: OutgoingStream<UploadPhotoRequest, UploadPhotoResponse>, part: MultipartFile, description: string | undefined): Promise<void> {
  await upload.send({ part: { $case: 'metadata', value: { originalName: part.filename, mimeType: part.mimetype, ...(description ? { description } : {}) } } });
  for await (const chunk of coalesceChunks(part.file)) await upload.send({ part: { $case: 'chunk', value: chunk } });
  // At the size limit the stream ends quietly, marked truncated: never let a cut file through.
  if (part.file.truncated) throw new HttpError(413, UPLOAD_REFUSED);
}
