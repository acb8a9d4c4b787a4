import * as grpc from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Caller, IdentitySigner } from './identity.js';

export interface CallOptions {
  /** The user the call is made for; null for calls with no user (sign-in, public pages). */
  caller: Caller | null;
  /** Overrides the client's default deadline. */
  deadlineMs?: number;
}

type UnaryMethod<F> = F extends (
  request: infer Req,
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: infer Res) => void,
) => grpc.ClientUnaryCall
  ? (request: Req, options: CallOptions) => Promise<Res>
  : never;

/** The unary methods of a ts-proto grpc-js client, as promise-returning functions. */
export type PromiseClient<C> = { [K in keyof C as UnaryMethod<C[K]> extends never ? never : K]: UnaryMethod<C[K]> };

type GeneratedClientConstructor<C extends grpc.Client> = (new (address: string, credentials: grpc.ChannelCredentials, options?: Partial<grpc.ClientOptions>) => C) & {
  service: grpc.ServiceDefinition;
};

export interface ServiceClient<C extends grpc.Client> {
  call: PromiseClient<C>;
  /** The generated client, for streaming calls; pass `metadata(caller)` and a deadline yourself. */
  raw: C;
  metadata(caller: Caller | null): grpc.Metadata;
  deadline(ms?: number): Date;
  close(): void;
}

// Looked up per call: a tracer taken at module load stays a no-op when the SDK registers through another copy of the API.
const tracer = () => trace.getTracer('snapcracks.grpc');

/**
 * A client for one peer service. Every call carries the signed caller identity and the current trace
 * context, and has a deadline (default 5 s), so a slow peer fails fast instead of holding requests.
 */
export function createServiceClient<C extends grpc.Client>(
  Client: GeneratedClientConstructor<C>,
  address: string,
  options: { signer: IdentitySigner; deadlineMs?: number },
): ServiceClient<C> {
  const raw = new Client(address, grpc.credentials.createInsecure(), {
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
  });
  const defaultDeadline = options.deadlineMs ?? 5_000;
  const metadata = (caller: Caller | null) => {
    const md = options.signer.addTo(new grpc.Metadata(), caller);
    const carrier: Record<string, string> = {};
    propagation.inject(context.active(), carrier);
    if (carrier.traceparent) md.set('traceparent', carrier.traceparent);
    return md;
  };
  const deadline = (ms = defaultDeadline) => new Date(Date.now() + ms);

  const call = {} as Record<string, (request: unknown, opts: CallOptions) => Promise<unknown>>;
  for (const [name, spec] of Object.entries(Client.service)) {
    if (spec.requestStream || spec.responseStream) continue;
    const method = (raw as unknown as Record<string, (...args: unknown[]) => grpc.ClientUnaryCall>)[name]!.bind(raw);
    call[name] = (request, opts) =>
      tracer().startActiveSpan(spec.path, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': spec.path } }, (span) =>
        new Promise((resolve, reject) => {
          method(request, metadata(opts.caller), { deadline: deadline(opts.deadlineMs) }, (error: grpc.ServiceError | null, response: unknown) => {
            if (error) {
              span.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
              reject(error);
            } else resolve(response);
          });
        }).finally(() => span.end()),
      );
  }
  return { call: call as unknown as PromiseClient<C>, raw, metadata, deadline, close: () => raw.close() };
}
