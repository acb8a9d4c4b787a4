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

export const MESSAGES = {
  unauthorized: 'Unauthorized',
  disabled: 'Your account has been disabled. Please contact support if you think this is a mistake.',
  termsRequired: 'You must accept the Terms of Service, Privacy Policy, and Community Guidelines to continue',
  crossSite: 'Cross-site request refused',
  notFound: 'Not found',
  adminOnly: 'Administrator access required',
  forbidden: 'You do not have permission to do that',
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable. Please try again.',
  tooMany: 'Too many requests. Please slow down and try again shortly.',
  badRequest: 'Bad request',
  malformedMultipart: 'The upload could not be read: it was cut short or is not a multipart form. Please try again.',
} as const;

/**
 * The refusals (gRPC UNAUTHENTICATED and PERMISSION_DENIED) whose text a browser may see: the spec's and the
 * product's own, each one a person can act on. Any other text a service gives with such a refusal (why it did not
 * believe the caller's identity, which component may call what) is for the logs: the browser gets the generic
 * MESSAGES.unauthorized or MESSAGES.forbidden instead.
 */
export const SHOWN_REFUSALS: ReadonlySet<string> = new Set([
  MESSAGES.unauthorized,
  MESSAGES.disabled,
  MESSAGES.termsRequired,
  MESSAGES.adminOnly,
  MESSAGES.forbidden,
  'Authentication required',
  'Sign in to see the photos that need your vote',
  'You can only change your own photos',
  'You cannot vote on your own photo',
  'You cannot disable or remove admin rights from your own account',
  'Admin accounts cannot be deleted',
]);
