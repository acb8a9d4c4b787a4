import { ERRORS, REFUSALS } from '@snapcracks/http-contract';

/**
 * What went wrong, in the terms of the product's rules. Each edge that answers a caller maps a kind to its protocol's
 * status (the kit's gRPC server, and the gateway after it, from the gRPC status).
 */
export type DomainErrorKind =
  | 'invalid_argument'
  | 'unauthenticated'
  | 'permission_denied'
  | 'not_found'
  | 'already_exists'
  | 'failed_precondition'
  | 'aborted'
  | 'cancelled'
  | 'resource_exhausted'
  | 'unavailable';

/**
 * Errors a service raises on purpose: a kind and a message that is safe to show to the user. Anything else is
 * answered as an internal error with a generic message.
 */
export class DomainError extends Error {
  constructor(
    readonly kind: DomainErrorKind,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends DomainError {
  constructor(message: string) {
    super('invalid_argument', message);
  }
}
export class UnauthenticatedError extends DomainError {
  constructor(message: string = REFUSALS.signInRequired) {
    super('unauthenticated', message);
  }
}
export class PermissionDeniedError extends DomainError {
  constructor(message: string = ERRORS.forbidden) {
    super('permission_denied', message);
  }
}
export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super('not_found', message);
  }
}
export class AlreadyExistsError extends DomainError {
  constructor(message: string) {
    super('already_exists', message);
  }
}
export class FailedPreconditionError extends DomainError {
  constructor(message: string) {
    super('failed_precondition', message);
  }
}
/** A concurrent change won; the caller may try again. */
export class AbortedError extends DomainError {
  constructor(message: string) {
    super('aborted', message);
  }
}
/** The caller has used up an allowance (uploads waiting for review); the message says which and why. */
export class ResourceExhaustedError extends DomainError {
  constructor(message: string) {
    super('resource_exhausted', message);
  }
}
export class UnavailableError extends DomainError {
  constructor(message = 'Service temporarily unavailable') {
    super('unavailable', message);
  }
}

/** PostgreSQL's SQLSTATEs of a server going away or not yet back: connection exceptions, shutting down, starting up. */
const DATABASE_GONE_STATES = /^(08...|57P01|57P02|57P03)$/;
/** Prisma's: cannot reach the server, it timed out, or it closed the connection. */
const PRISMA_DATABASE_GONE = new Set(['P1001', 'P1002', 'P1017']);
/** Node's, for a socket that could not connect or was cut. */
const SOCKET_GONE = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT']);
/** Prisma's driver adapter's names for the same (DriverAdapterError's `cause.kind`). */
const ADAPTER_GONE = new Set(['DatabaseNotReachable', 'ConnectionClosed', 'SocketTimeout']);
/** The texts, where a wrapper (Prisma's P2010 "raw query failed") keeps only the message. */
const GONE_TEXT = /^Connection terminated|Can't reach database server|terminating connection due to administrator command|the database system is (starting up|shutting down)/;

/**
 * Whether an error says the database is unreachable for now (restarting, failing over, a connection cut), as pg and
 * Prisma raise it, directly or wrapped (its `cause`, Prisma's `meta.driverAdapterError`): a moment's outage to answer
 * with UNAVAILABLE (503, "try again"), not an internal error.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (depth > 3 || error === null || typeof error !== 'object') return false;
  const { code, kind, message, cause, meta } = error as { code?: unknown; kind?: unknown; message?: unknown; cause?: unknown; meta?: { driverAdapterError?: unknown } };
  if (typeof code === 'string' && (DATABASE_GONE_STATES.test(code) || PRISMA_DATABASE_GONE.has(code) || SOCKET_GONE.has(code))) return true;
  if (typeof kind === 'string' && ADAPTER_GONE.has(kind)) return true;
  if (typeof message === 'string' && GONE_TEXT.test(message)) return true;
  return isDatabaseUnavailable(cause, depth + 1) || isDatabaseUnavailable(meta?.driverAdapterError, depth + 1);
}

/** Prisma's "record not found" and unique-violation codes, so services map them without importing Prisma. */
export function prismaErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('P') ? code : undefined;
}
