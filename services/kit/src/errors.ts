import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';

/**
 * Errors a service raises on purpose. Each carries the gRPC status it maps to and a message that is
 * safe to show to the user; anything else becomes INTERNAL with a generic message.
 */
export class DomainError extends Error {
  constructor(
    readonly code: GrpcStatus,
    message: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class InvalidArgumentError extends DomainError {
  constructor(message: string) {
    super(GrpcStatus.INVALID_ARGUMENT, message);
  }
}
export class UnauthenticatedError extends DomainError {
  constructor(message = 'Authentication required') {
    super(GrpcStatus.UNAUTHENTICATED, message);
  }
}
export class PermissionDeniedError extends DomainError {
  constructor(message = 'You do not have permission to do that') {
    super(GrpcStatus.PERMISSION_DENIED, message);
  }
}
export class NotFoundError extends DomainError {
  constructor(message = 'Not found') {
    super(GrpcStatus.NOT_FOUND, message);
  }
}
export class AlreadyExistsError extends DomainError {
  constructor(message: string) {
    super(GrpcStatus.ALREADY_EXISTS, message);
  }
}
export class FailedPreconditionError extends DomainError {
  constructor(message: string) {
    super(GrpcStatus.FAILED_PRECONDITION, message);
  }
}
export class UnavailableError extends DomainError {
  constructor(message = 'Service temporarily unavailable') {
    super(GrpcStatus.UNAVAILABLE, message);
  }
}

/** gRPC status → HTTP status, as the gateway answers the browser. */
export function httpStatusForGrpc(code: GrpcStatus): number {
  switch (code) {
    case GrpcStatus.OK:
      return 200;
    case GrpcStatus.INVALID_ARGUMENT:
    case GrpcStatus.OUT_OF_RANGE:
      return 400;
    case GrpcStatus.UNAUTHENTICATED:
      return 401;
    case GrpcStatus.PERMISSION_DENIED:
      return 403;
    case GrpcStatus.NOT_FOUND:
      return 404;
    case GrpcStatus.ALREADY_EXISTS:
    case GrpcStatus.FAILED_PRECONDITION:
    case GrpcStatus.ABORTED:
      return 409;
    case GrpcStatus.RESOURCE_EXHAUSTED:
      return 429;
    case GrpcStatus.UNAVAILABLE:
      return 503;
    case GrpcStatus.DEADLINE_EXCEEDED:
      return 504;
    default:
      return 500;
  }
}

export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
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
