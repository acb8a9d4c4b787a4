import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import { HealthImplementation } from 'grpc-health-check';
import { SpanKind, SpanStatusCode, context, propagation, trace, ROOT_CONTEXT } from '@opentelemetry/api';
import { ZodError } from 'zod';
import { DomainError, InvalidArgumentError, isDatabaseUnavailable, type DomainErrorKind } from '../errors.js';
import { isServiceError } from './call-errors.js';
import { controlCharactersMessage, findControlCharacters } from '../control-characters.js';
import type { Logger } from '../logger.js';
import { IDENTITY_HEADER, USER_HEADER, InvalidIdentityError, type CallIdentity, type Caller, type IdentitySigner } from './identity.js';
import { identityRefusalCounter, rpcDurationRecorder, statusCodeOf } from '../metrics/rpc.js';

/** All a refused caller is told; the reason goes to the logs. */
export const REFUSED = 'Refused';

/** What a handler knows about its call besides the request. */
export interface CallContext extends CallIdentity {
  caller: Caller | null;
  metadata: grpc.Metadata;
  logger: Logger;
}

type UnaryHandler<Req, Res> = (request: Req, ctx: CallContext) => Promise<Res>;
type ClientStreamHandler<Req, Res> = (stream: grpc.ServerReadableStream<Req, Res>, ctx: CallContext) => Promise<Res>;
type ServerStreamHandler<Req, Res> = (call: grpc.ServerWritableStream<Req, Res>, ctx: CallContext) => Promise<void>;

/**
 * A service implementation in promise style, derived from ts-proto's generated `…ServiceServer` interface:
 * unary methods take the request and return the response; streaming methods get the stream.
 */
export type Handlers<S> = {
  // ts-proto's server interfaces extend grpc-js's index signature; only the named methods matter.
  [K in keyof S as string extends K ? never : K]: S[K] extends grpc.handleUnaryCall<infer Req, infer Res>
    ? UnaryHandler<Req, Res>
    : S[K] extends grpc.handleClientStreamingCall<infer Req, infer Res>
      ? ClientStreamHandler<Req, Res>
      : S[K] extends grpc.handleServerStreamingCall<infer Req, infer Res>
        ? ServerStreamHandler<Req, Res>
        : never;
};

// Looked up per call: a tracer taken at module load stays a no-op when the SDK registers through another copy of the API.
const tracer = () => trace.getTracer('snapcracks.grpc');

export interface GrpcServerOptions {
  /** Component name, e.g. "vote"; used in logs and as the health service entry. */
  name: string;
  signer: IdentitySigner;
  logger: Logger;
  /** Largest message accepted; uploads stream in chunks below this. */
  maxMessageBytes?: number;
  /**
   * Connections older than this are asked to go away (in-flight calls finish), so that callers reconnect and spread
   * over the replicas there are now, new pods included. Default 2 minutes.
   */
  maxConnectionAgeMs?: number;
}

const DEFAULT_MAX_CONNECTION_AGE_MS = 120_000;

/**
 * A gRPC server with the standard health service (NOT_SERVING until `start` finishes and while draining),
 * signed caller identity on every call, OpenTelemetry spans continued from the caller's trace context, and
 * domain errors mapped to status codes. Unexpected errors are logged and answered as INTERNAL without details.
 */
export class GrpcServer {
  private readonly server: grpc.Server;
  private readonly health: HealthImplementation;
  private readonly serviceNames: string[] = [];

  constructor(private readonly options: GrpcServerOptions) {
    const max = options.maxMessageBytes ?? 4 * 1024 * 1024;
    this.server = new grpc.Server({
      'grpc.max_receive_message_length': max,
      'grpc.max_send_message_length': max,
      'grpc.max_connection_age_ms': options.maxConnectionAgeMs ?? DEFAULT_MAX_CONNECTION_AGE_MS,
    });
    this.health = new HealthImplementation({ '': 'NOT_SERVING' });
    this.health.addToServer(this.server);
  }

  /** Verifies identities inside a call's message, as batched calls carry them (see batch-items.ts). */
  get signer(): IdentitySigner {
    return this.options.signer;
  }

  add<S>(definition: grpc.ServiceDefinition, handlers: Handlers<S>): this {
    const implementation: grpc.UntypedServiceImplementation = {};
    for (const [method, spec] of Object.entries(definition)) {
      const handler = (handlers as Record<string, unknown>)[method];
      if (typeof handler !== 'function') throw new Error(`${this.options.name}: no handler for ${spec.path}`);
      implementation[method] = this.wrap(spec, handler as (...args: never[]) => Promise<unknown>);
    }
    this.server.addService(definition, implementation);
    const first = Object.values(definition)[0];
    if (first) this.serviceNames.push(first.path.split('/')[1] ?? '');
    for (const service of this.serviceNames) this.health.setStatus(service, 'NOT_SERVING');
    return this;
  }

  /** Binds (port 0 picks a free one), then reports SERVING. Returns the bound port. */
  async start(host: string, port: number): Promise<number> {
    const bound = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync(`${host}:${port}`, grpc.ServerCredentials.createInsecure(), (error, p) => (error ? reject(error) : resolve(p))),
    );
    this.setServing(true);
    return bound;
  }

  setServing(serving: boolean): void {
    const status = serving ? 'SERVING' : 'NOT_SERVING';
    this.health.setStatus('', status);
    for (const service of this.serviceNames) this.health.setStatus(service, status);
  }

  /** Reports NOT_SERVING, lets in-flight calls finish for up to `graceMs`, then cancels the rest. */
  async shutdown(graceMs = 10_000): Promise<void> {
    this.setServing(false);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        this.server.forceShutdown();
        resolve();
      }, graceMs);
      this.server.tryShutdown(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private wrap(spec: grpc.MethodDefinition<unknown, unknown>, handler: (...args: never[]) => Promise<unknown>) {
    const { logger, signer } = this.options;
    const path = spec.path;
    // One per method, not per call: a child logger serialises its bindings when made.
    const methodLogger = logger.child({ rpc: path });
    const observe = rpcDurationRecorder('server', this.options.name, path);
    const refusals = identityRefusalCounter(this.options.name, path);

    const begin = (call: { metadata: grpc.Metadata }): { ctx: CallContext; run: <T>(fn: () => Promise<T>) => Promise<T> } | { error: Partial<grpc.StatusObject> } => {
      let identity: CallIdentity;
      try {
        identity = signer.verifyCall({ identity: headerValue(call.metadata, IDENTITY_HEADER), user: headerValue(call.metadata, USER_HEADER) }, path);
      } catch (error) {
        // The reason is for the operators; the caller learns only that it was refused.
        const reason = error instanceof InvalidIdentityError ? error.message : 'an invalid identity';
        logger.warn({ path, reason }, 'refused a call');
        refusals.add(1);
        return { error: { code: grpc.status.UNAUTHENTICATED, details: REFUSED } };
      }
      const parent = propagation.extract(ROOT_CONTEXT, { traceparent: headerValue(call.metadata, 'traceparent') });
      const ctx: CallContext = { ...identity, metadata: call.metadata, logger: methodLogger };
      const run = <T>(fn: () => Promise<T>) =>
        tracer().startActiveSpan(path, { kind: SpanKind.SERVER, attributes: { 'rpc.system': 'grpc', 'rpc.method': path } }, parent, async (span) => {
          try {
            return await fn();
          } catch (error) {
            span.setStatus({ code: SpanStatusCode.ERROR });
            throw error;
          } finally {
            span.end();
          }
        });
      return { ctx, run };
    };

    const toStatus = (error: unknown): Partial<grpc.StatusObject> => mapError(error, logger, path);
    /** Answers a call that answers once, recording its duration and status first. */
    const answer = (startedAt: number, callback: grpc.sendUnaryData<unknown>, status: Partial<grpc.StatusObject> | null, response: unknown): void => {
      observe(startedAt, status ? statusCodeOf(status) : grpc.status.OK);
      callback(status, response);
    };

    if (!spec.requestStream && !spec.responseStream) {
      return (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const startedAt = performance.now();
        const started = begin(call);
        if ('error' in started) return answer(startedAt, callback, started.error, null);
        const refusal = textRefusal(call.request);
        if (refusal) return answer(startedAt, callback, toStatus(refusal), null);
        const { ctx, run } = started;
        context.with(ROOT_CONTEXT, () =>
          run(() => (handler as UnaryHandler<unknown, unknown>)(call.request, ctx)).then(
            (response) => answer(startedAt, callback, null, response),
            (error: unknown) => answer(startedAt, callback, toStatus(error), null),
          ),
        );
      };
    }
    if (spec.requestStream && !spec.responseStream) {
      return (call: grpc.ServerReadableStream<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
        const startedAt = performance.now();
        const started = begin(call);
        if ('error' in started) return answer(startedAt, callback, started.error, null);
        const { ctx, run } = started;
        run(() => (handler as ClientStreamHandler<unknown, unknown>)(call, ctx)).then(
          (response) => answer(startedAt, callback, null, response),
          (error: unknown) => answer(startedAt, callback, toStatus(error), null),
        );
      };
    }
    if (!spec.requestStream && spec.responseStream) {
      return (call: grpc.ServerWritableStream<unknown, unknown>) => {
        const startedAt = performance.now();
        const fail = (status: Partial<grpc.StatusObject>) => {
          observe(startedAt, statusCodeOf(status));
          return call.emit('error', status);
        };
        const started = begin(call);
        if ('error' in started) return fail(started.error);
        const refusal = textRefusal(call.request);
        if (refusal) return fail(toStatus(refusal));
        const { ctx, run } = started;
        run(() => (handler as ServerStreamHandler<unknown, unknown>)(call, ctx)).then(
          () => {
            observe(startedAt, grpc.status.OK);
            call.end();
          },
          (error: unknown) => fail(toStatus(error)),
        );
      };
    }
    throw new Error(`${path}: bidirectional streaming is not supported`);
  }
}

/**
 * Every service refuses text with control characters in a request, whoever the caller: the gateway refuses them
 * too, but a service must not rely on its callers (PostgreSQL cannot store NUL in text).
 */
function textRefusal(request: unknown): InvalidArgumentError | undefined {
  const field = findControlCharacters(request);
  return field ? new InvalidArgumentError(controlCharactersMessage(field)) : undefined;
}

function headerValue(metadata: grpc.Metadata, key: string): string | undefined {
  const value = metadata.get(key)[0];
  return typeof value === 'string' ? value : undefined;
}

/** The status a caller gets for each kind of domain error. */
const STATUS_OF_KIND: Record<DomainErrorKind, grpc.status> = {
  invalid_argument: grpc.status.INVALID_ARGUMENT,
  unauthenticated: grpc.status.UNAUTHENTICATED,
  permission_denied: grpc.status.PERMISSION_DENIED,
  not_found: grpc.status.NOT_FOUND,
  already_exists: grpc.status.ALREADY_EXISTS,
  failed_precondition: grpc.status.FAILED_PRECONDITION,
  aborted: grpc.status.ABORTED,
  cancelled: grpc.status.CANCELLED,
  resource_exhausted: grpc.status.RESOURCE_EXHAUSTED,
  unavailable: grpc.status.UNAVAILABLE,
};

/**
 * Domain and validation errors keep their message, with the status of their kind; a downstream service's status passes
 * through; an unreachable database is UNAVAILABLE; anything else is hidden.
 */
export function mapError(error: unknown, logger: Logger, path: string): Partial<grpc.StatusObject> {
  if (error instanceof DomainError) return { code: STATUS_OF_KIND[error.kind], details: error.message };
  if (error instanceof ZodError) return { code: grpc.status.INVALID_ARGUMENT, details: error.issues[0]?.message ?? 'Invalid request' };
  if (isServiceError(error) && error.code !== grpc.status.UNKNOWN && error.code !== grpc.status.INTERNAL) {
    return { code: error.code, details: error.details };
  }
  // A database restarting or failing over is a moment's outage: UNAVAILABLE, which callers answer with "try again".
  if (isDatabaseUnavailable(error)) {
    logger.warn({ err: error, rpc: path }, 'database unavailable');
    return { code: grpc.status.UNAVAILABLE, details: 'Service temporarily unavailable' };
  }
  logger.error({ err: error, rpc: path }, 'unexpected error in handler');
  return { code: grpc.status.INTERNAL, details: 'Internal error' };
}
