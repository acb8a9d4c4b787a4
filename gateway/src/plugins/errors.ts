import { ERRORS } from '@snapcracks/http-contract';
import fp from 'fastify-plugin';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import { httpStatusForGrpc, isDatabaseUnavailable, isServiceError } from '@snapcracks/kit';
import { HttpError, SHOWN_REFUSALS } from '../http-errors.js';

/**
 * Every error becomes `{ message }` with the right status: validation → 400 with the first problem,
 * gRPC statuses mapped (INVALID_ARGUMENT 400 … UNAVAILABLE 503) keeping the service's message (but a refusal's only
 * when it is one of the product's own texts, SHOWN_REFUSALS), the gateway's own database unreachable for a moment (its
 * sessions) a 503, and anything unexpected a 500 whose details stay in the log.
 */
export default fp(async (app) => {
  app.setErrorHandler((error, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(error)) {
      const first = error.validation[0];
      return reply.code(400).send({ message: first?.message ?? 'Invalid request' });
    }
    if (error instanceof HttpError) return reply.code(error.statusCode).send({ message: error.message });
    if (isServiceError(error)) {
      const status = httpStatusForGrpc(error.code);
      if (status >= 500) request.log.error({ err: error }, 'backend call failed');
      const message = status === 503 || status === 504 ? ERRORS.unavailable : status >= 500 ? ERRORS.internal : shownDetails(error, request.log);
      return reply.code(status).send({ message });
    }
    const status = (error as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) {
      const message = status === 429 ? ERRORS.tooMany : (error as Error).message;
      return reply.code(status).send({ message });
    }
    if (isDatabaseUnavailable(error)) {
      request.log.warn({ err: error }, 'database unavailable');
      return reply.code(503).send({ message: ERRORS.unavailable });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.code(500).send({ message: ERRORS.internal });
  });
});

/** What a browser may read of a service's 4xx: its text, unless it is a refusal whose reason is not for browsers. */
function shownDetails(error: ServiceError, log: { warn(object: object, message: string): void }): string {
  if (error.code !== GrpcStatus.UNAUTHENTICATED && error.code !== GrpcStatus.PERMISSION_DENIED) return error.details;
  if (SHOWN_REFUSALS.has(error.details)) return error.details;
  log.warn({ code: error.code, details: error.details }, 'a service refused the call');
  return error.code === GrpcStatus.UNAUTHENTICATED ? ERRORS.unauthorized : ERRORS.forbidden;
}
