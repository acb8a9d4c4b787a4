import { context } from '@opentelemetry/api';
import { Metadata, status as GrpcStatus, type ServiceError } from '@grpc/grpc-js';
import type { BatchItemOrigin, CallError } from '@snapcracks/proto/common/v1';
import { UnauthenticatedError } from '../errors.js';
import { activeTraceparent, traceContextOf } from '../bus/trace-context.js';
import { InvalidIdentityError, type Caller, type IdentitySigner } from './identity.js';
import { REFUSED, mapError, type CallContext } from './server.js';

/*
 * Batched calls: one gRPC call carrying many users' requests, each answered on its own, e.g. the votes a gateway
 * gathers while its previous call is under way. Each item carries what a unary call carries in its metadata for its
 * user (the gateway's user assertion and the trace), so the service authorizes and traces every item exactly as it
 * would a call of its own, and each item's failure comes back as the status that call would have ended with.
 */

/** Client side: the origin of an item of a call to `target` made now for `caller`: its user assertion and trace. */
export function batchItemOrigin(signer: IdentitySigner, caller: Caller | null, target: string): BatchItemOrigin {
  return { identity: signer.userAssertion(caller, target) ?? '', traceparent: activeTraceparent() };
}

/** Client side: an item's failure as the error a unary call would have rejected with (the gateway maps both alike). */
export function callErrorToServiceError(error: CallError | undefined): ServiceError {
  const code = (error?.code ?? GrpcStatus.INTERNAL) as GrpcStatus;
  const details = error?.message ?? 'Internal error';
  return Object.assign(new Error(`${code} ${GrpcStatus[code] ?? 'UNKNOWN'}: ${details}`), { code, details, metadata: new Metadata() });
}

export type BatchItemOutcome<R> = { ok: true; value: R } | { ok: false; error: CallError };

/**
 * Server side: runs one item as its own call. The item's user assertion, if any, must verify as a unary call's would
 * (the gateway's, addressed to this service, unexpired); `handle` gets a context with the item's caller and runs in the
 * item's trace. Any failure becomes the item's CallError, mapped as a unary call's error is; a refused identity is
 * logged and answered with a bare "Refused".
 */
export async function runBatchItem<R>(
  signer: IdentitySigner,
  ctx: CallContext,
  origin: BatchItemOrigin | undefined,
  handle: (itemCtx: CallContext) => Promise<R>,
): Promise<BatchItemOutcome<R>> {
  try {
    const caller = verifyItem(signer, ctx, origin?.identity);
    const value = await context.with(traceContextOf(origin?.traceparent ?? ''), () => handle({ ...ctx, caller }));
    return { ok: true, value };
  } catch (error) {
    const status = mapError(error, ctx.logger, 'batch item');
    return { ok: false, error: { code: status.code ?? GrpcStatus.INTERNAL, message: status.details ?? 'Internal error' } };
  }
}

function verifyItem(signer: IdentitySigner, ctx: CallContext, header: string | undefined): Caller | null {
  if (!header) return null;
  try {
    return signer.verifyUser(header);
  } catch (error) {
    if (!(error instanceof InvalidIdentityError)) throw error;
    ctx.logger.warn({ reason: error.message, service: ctx.service }, 'refused a batch item');
    throw new UnauthenticatedError(REFUSED);
  }
}
