import { describe, expect, it } from 'vitest';
import { status } from '@grpc/grpc-js';
import { httpStatusForGrpc } from './call-errors.js';

describe('httpStatusForGrpc', () => {
  it.each([
    [status.INVALID_ARGUMENT, 400],
    [status.UNAUTHENTICATED, 401],
    [status.PERMISSION_DENIED, 403],
    [status.NOT_FOUND, 404],
    [status.ALREADY_EXISTS, 409],
    [status.FAILED_PRECONDITION, 409],
    [status.RESOURCE_EXHAUSTED, 429],
    [status.UNAVAILABLE, 503],
    [status.DEADLINE_EXCEEDED, 504],
    [status.INTERNAL, 500],
    [status.UNKNOWN, 500],
  ])('maps gRPC status %i to HTTP %i', (code, http) => {
    expect(httpStatusForGrpc(code)).toBe(http);
  });
});
