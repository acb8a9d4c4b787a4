import { ERRORS } from '@snapcracks/http-contract';
import { isServiceError } from '@snapcracks/kit';
import { HttpError } from '../http-errors.js';

/** The codes @fastify/multipart gives a body over the limits a route set. */
export const MULTIPART_LIMIT_ERRORS = new Set(['FST_REQ_FILE_TOO_LARGE', 'FST_FILES_LIMIT', 'FST_PARTS_LIMIT', 'FST_FIELDS_LIMIT']);

/**
 * What reading a multipart body threw, as the client should hear it: the parser's own complaints (no boundary, a body
 * cut short) carry no code and were 500s; they are the client's request, a 400. Our refusals, a service's answer and
 * the limits' coded errors pass through as they are.
 */
export function multipartReadError(error: unknown): unknown {
  if (error instanceof HttpError || isServiceError(error)) return error;
  if (error instanceof Error && typeof (error as { code?: unknown }).code !== 'string') return new HttpError(400, ERRORS.malformedMultipart);
  return error;
}
