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
  internal: 'Internal server error',
  unavailable: 'Service temporarily unavailable. Please try again.',
  tooMany: 'Too many requests. Please slow down and try again shortly.',
  badRequest: 'Bad request',
  malformedMultipart: 'The upload could not be read: it was cut short or is not a multipart form. Please try again.',
} as const;
