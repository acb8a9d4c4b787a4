import { status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';

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

/** The error a failed gRPC call rejects with (grpc-js's ServiceError), whichever service answered it. */
export function isServiceError(error: unknown): error is ServiceError {
  return error instanceof Error && typeof (error as Partial<ServiceError>).code === 'number' && 'metadata' in error;
}
