import { once } from 'node:events';
import { setTimeout } from 'node:timers/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import multipart, { type MultipartFile } from '@fastify/multipart';
import type { OutgoingStream } from '@snapcracks/kit';
import { HttpError } from '../http-errors.js';
import { coalesceChunks } from './coalesce-chunks.js';
import { MULTIPART_LIMIT_ERRORS, multipartReadError } from './errors.js';

/** How long a refused upload's remaining bytes are read before the connection is closed instead. */
const DISCARD_WAIT_MS = 10_000;

/** The parser's limits for a plugin's routes (busboy's names: fileSize, files, fields, parts, fieldSize, headerPairs). */
export type MultipartLimits = NonNullable<Parameters<typeof multipart>[1]>['limits'];

/**
 * Takes multipart bodies on this plugin's routes, for `streamOneFile`. A file over `fileSize` then fails with
 * FST_REQ_FILE_TOO_LARGE rather than ending quietly cut short.
 */
export async function acceptMultipart(app: FastifyInstance, limits: MultipartLimits): Promise<void> {
  await app.register(multipart, { throwFileSizeLimit: true, limits });
}

/** One file of a multipart form and the gRPC client stream it goes to. */
export interface OneFileUpload<Req, Res> {
  /** The form field of the file. */
  field: string;
  /** The largest body read: the file's limit with room for the multipart framing and the form's other fields. */
  maxRequestBytes: number;
  /** The 400 answer to anything but one such file (none, another file, an unexpected field, not multipart). */
  refused: string;
  /** The 413 answer to a file, or a body, over its size limit. */
  tooLarge: string;
  /** Which of the two answers a body over the parser's other limits (more parts, files or fields than the form has). */
  overOtherLimits: 'refused' | 'tooLarge';
  /** The form's other fields, before or after the file; without it, any field refuses the request. */
  onField?(name: string, value: string): void;
  /** Opens the call, when the file part arrives. */
  open(): OutgoingStream<Req, Res>;
  /** The call's first message, before the file's bytes, when it has one; throwing refuses the request. */
  header?(file: MultipartFile): Req;
  /** A message carrying the next bytes of the file. */
  chunk(bytes: Buffer): Req;
  /** The call's last message, when it has one, once the whole body was read and found sound; throwing refuses the request. */
  trailer?(): Req | undefined;
}

/**
 * Streams the one file of a multipart request to one gRPC client stream as it arrives (never held whole here) and
 * answers the call's response. The call is finished only once the whole body has been read and found sound: a missing,
 * misnamed or second file, a file cut at the size limit or any other problem cancels it, so a refused request stores
 * nothing. Whatever goes wrong, the rest of the body is read and dropped before answering, so the browser sees our
 * answer, not a reset.
 */
export async function streamOneFile<Req, Res>(request: FastifyRequest, reply: FastifyReply, upload: OneFileUpload<Req, Res>): Promise<Res> {
  if (!request.isMultipart()) throw new HttpError(400, upload.refused);
  if (Number(request.headers['content-length']) > upload.maxRequestBytes) {
    reply.header('connection', 'close');
    throw new HttpError(413, upload.tooLarge);
  }
  try {
    return await receive(request, upload);
  } catch (error) {
    await discardRest(request, reply, upload.maxRequestBytes);
    throw error;
  }
}

async function receive<Req, Res>(request: FastifyRequest, upload: OneFileUpload<Req, Res>): Promise<Res> {
  const refused = () => new HttpError(400, upload.refused);
  let call: OutgoingStream<Req, Res> | undefined;
  let failure: unknown;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') {
        if (upload.onField) upload.onField(part.fieldname, String(part.value));
        else failure ??= refused();
        continue;
      }
      if (failure !== undefined || call || part.fieldname !== upload.field) {
        failure ??= refused();
        part.file.resume();
        continue;
      }
      try {
        call = upload.open();
        if (upload.header) await call.send(upload.header(part));
        for await (const chunk of coalesceChunks(part.file)) await call.send(upload.chunk(chunk));
        // At the size limit the stream ends quietly, marked truncated: never let a cut file through.
        if (part.file.truncated) throw new HttpError(413, upload.tooLarge);
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
    call?.cancel();
    throw answerTo(failure, upload);
  }
  if (!call) throw refused();
  try {
    const last = upload.trailer?.();
    if (last !== undefined) await call.send(last);
  } catch (error) {
    call.cancel();
    throw error;
  }
  return call.finish();
}

/** The parser's coded refusals as the route answers them; anything else (ours, a service's) as it is. */
function answerTo(failure: unknown, upload: OneFileUpload<unknown, unknown>): unknown {
  const code = (failure as { code?: unknown }).code;
  if (typeof code === 'string' && MULTIPART_LIMIT_ERRORS.has(code)) {
    const tooLarge = code === 'FST_REQ_FILE_TOO_LARGE' || upload.overOtherLimits === 'tooLarge';
    return tooLarge ? new HttpError(413, upload.tooLarge) : new HttpError(400, upload.refused);
  }
  if (code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') return new HttpError(400, upload.refused);
  return failure;
}

/**
 * After a refusal the parser may have stopped half-way through the body, leaving bytes that would block the next
 * request on this keep-alive connection. Reads and drops them when they are bounded; otherwise (or if they take too
 * long) the connection closes after the answer.
 */
async function discardRest(request: FastifyRequest, reply: FastifyReply, maxRequestBytes: number): Promise<void> {
  const raw = request.raw;
  if (raw.complete) return;
  raw.unpipe();
  raw.resume();
  if (Number(raw.headers['content-length']) <= maxRequestBytes) {
    await Promise.race([once(raw, 'end'), setTimeout(DISCARD_WAIT_MS)]).catch(() => undefined);
  }
  if (!raw.complete) reply.header('connection', 'close');
}
