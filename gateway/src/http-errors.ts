import { ERRORS, REFUSALS } from '@snapcracks/http-contract';

/** An error the gateway answers with its own status and a message safe to show. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
}

/**
 * The refusals (gRPC UNAUTHENTICATED and PERMISSION_DENIED) whose text a browser may see: the spec's and the
 * product's own, each one a person can act on. Any other text a service gives with such a refusal (why it did not
 * believe the caller's identity, which component may call what) is for the logs: the browser gets the generic
 * ERRORS.unauthorized or ERRORS.forbidden instead.
 */
export const SHOWN_REFUSALS: ReadonlySet<string> = new Set([
  ERRORS.unauthorized,
  ERRORS.disabled,
  ERRORS.termsRequired,
  ERRORS.adminOnly,
  ERRORS.forbidden,
  ...Object.values(REFUSALS),
]);
