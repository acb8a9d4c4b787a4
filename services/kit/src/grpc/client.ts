import { once } from 'node:events';
import { performance } from 'node:perf_hooks';
import * as grpc from '@grpc/grpc-js';
import { SpanKind, SpanStatusCode, context, propagation, trace } from '@opentelemetry/api';
import type { Caller, IdentitySigner } from './identity.js';
import { rpcDurationRecorder, statusCodeOf } from '../metrics/rpc.js';

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

// ts-proto's last overload of a client-streaming method is (metadata, options, callback).
type ClientStreamTypes<F> = F extends (
  metadata: grpc.Metadata,
  options: Partial<grpc.CallOptions>,
  callback: (error: grpc.ServiceError | null, response: infer Res) => void,
) => grpc.ClientWritableStream<infer Req>
  ? { request: Req; response: Res }
  : never;
// …and of a server-streaming method (request, metadata?, options?).
type ServerStreamTypes<F> = F extends (request: infer Req, metadata?: grpc.Metadata, options?: Partial<grpc.CallOptions>) => grpc.ClientReadableStream<infer Res>
  ? { request: Req; response: Res }
  : never;

type ClientStreamingMethods<C> = { [K in keyof C as ClientStreamTypes<C[K]> extends never ? never : K]: ClientStreamTypes<C[K]> };
type ServerStreamingMethods<C> = { [K in keyof C as ServerStreamTypes<C[K]> extends never ? never : K]: ServerStreamTypes<C[K]> };

/** An open client-streaming call: send messages (waiting while the server is slower), then finish for the answer. */
export interface OutgoingStream<Req, Res> {
  /** Resolves when the message is accepted; rejects at once if the call already failed. */
  send(message: Req): Promise<void>;
  /** Ends the stream and waits for the server's answer. */
  finish(): Promise<Res>;
  /** Gives up: the server sees a cancelled call. */
  cancel(): void;
}

type GeneratedClientConstructor<C extends grpc.Client> = (new (address: string, credentials: grpc.ChannelCredentials, options?: Partial<grpc.ClientOptions>) => C) & {
  service: grpc.ServiceDefinition;
};

export interface ServiceClient<C extends grpc.Client> {
  call: PromiseClient<C>;
  /** Opens a client-streaming call, e.g. `clientStream('storeImage', { caller })`. */
  clientStream<K extends keyof ClientStreamingMethods<C>>(
    method: K,
    options: CallOptions,
  ): OutgoingStream<ClientStreamingMethods<C>[K]['request'], ClientStreamingMethods<C>[K]['response']>;
  /** Makes a server-streaming call; iterate the answer's messages. Breaking out of the loop cancels the call. */
  serverStream<K extends keyof ServerStreamingMethods<C>>(
    method: K,
    request: ServerStreamingMethods<C>[K]['request'],
    options: CallOptions,
  ): AsyncIterable<ServerStreamingMethods<C>[K]['response']>;
  /** The connection to the peer, not a client: the gateway asks each peer's health over the connections it already holds. */
  channel(): ReturnType<grpc.Client['getChannel']>;
  close(): void;
}

const MAX_RECONNECT_BACKOFF_MS = 5_000;

const ROUND_ROBIN = JSON.stringify({ loadBalancingConfig: [{ round_robin: {} }] });

// Looked up per call: a tracer taken at module load stays a no-op when the SDK registers through another copy of the API.
const tracer = () => trace.getTracer('snapcracks.grpc');

/**
 * A client for one peer service. Every call carries the signed caller identity and the current trace
 * context, and has a deadline (default 5 s), so a slow peer fails fast instead of holding requests.
 */
export function createServiceClient<C extends grpc.Client>(
  Client: GeneratedClientConstructor<C>,
  address: string,
  options: {
    signer: IdentitySigner;
    /** The service called: every call's proof is addressed to it (and its method), and user assertions name it. */
    peer: string;
    deadlineMs?: number;
  },
): ServiceClient<C> {
  const raw = new Client(address, grpc.credentials.createInsecure(), {
    // Every address the target resolves to (a headless Service's pods, an ipv4: list) takes calls in turn; with
    // pick_first, the default, one replica would get them all.
    'grpc.service_config': ROUND_ROBIN,
    'grpc.keepalive_time_ms': 30_000,
    'grpc.max_receive_message_length': 16 * 1024 * 1024,
    // A peer that starts after its caller, or comes back from a restart, is reached within a few seconds: grpc-js
    // would otherwise back off up to two minutes between attempts, failing every call meanwhile.
    'grpc.max_reconnect_backoff_ms': MAX_RECONNECT_BACKOFF_MS,
  });
  const defaultDeadline = options.deadlineMs ?? 5_000;
  // Calls are counted under the calling component, whose identity signs them.
  const component = options.signer.service;
  const metadata = (caller: Caller | null, method: string) => {
    const md = options.signer.addTo(new grpc.Metadata(), options.peer, method, caller);
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
    const observe = rpcDurationRecorder('client', component, spec.path);
    call[name] = (request, opts) =>
      tracer().startActiveSpan(spec.path, { kind: SpanKind.CLIENT, attributes: { 'rpc.system': 'grpc', 'rpc.method': spec.path } }, (span) =>
        new Promise((resolve, reject) => {
          const startedAt = performance.now();
          method(request, metadata(opts.caller, spec.path), { deadline: deadline(opts.deadlineMs) }, (error: grpc.ServiceError | null, response: unknown) => {
            observe(startedAt, error ? statusCodeOf(error) : grpc.status.OK);
            if (error) {
              span.setStatus({ code: SpanStatusCode.ERROR, message: error.details });
              reject(error);
            } else resolve(response);
          });
        }).finally(() => span.end()),
      );
  }
  const method = (name: PropertyKey) => (raw as unknown as Record<PropertyKey, (...args: unknown[]) => unknown>)[name]!.bind(raw);
  const pathOf = (name: PropertyKey) => (Client.service as Record<PropertyKey, grpc.MethodDefinition<unknown, unknown> | undefined>)[name]?.path ?? `/unknown/${String(name)}`;

  const streamRecorders = new Map<PropertyKey, ReturnType<typeof rpcDurationRecorder>>();
  const streamObserver = (name: PropertyKey) => {
    let observe = streamRecorders.get(name);
    if (!observe) {
      observe = rpcDurationRecorder('client', component, pathOf(name));
      streamRecorders.set(name, observe);
    }
    return observe;
  };

  function clientStream(name: PropertyKey, opts: CallOptions): OutgoingStream<unknown, unknown> {
    let settled: { error: unknown } | undefined;
    let stream!: grpc.ClientWritableStream<unknown>;
    const observe = streamObserver(name);
    const startedAt = performance.now();
    const answer = new Promise<unknown>((resolve, reject) => {
      stream = method(name)(metadata(opts.caller, pathOf(name)), { deadline: deadline(opts.deadlineMs) }, (error: grpc.ServiceError | null, response: unknown) => {
        observe(startedAt, error ? statusCodeOf(error) : grpc.status.OK);
        settled = { error };
        if (error) reject(error);
        else resolve(response);
      }) as grpc.ClientWritableStream<unknown>;
    });
    // The answer may come (as a refusal) before we finish sending; nobody may be awaiting it yet.
    answer.catch(() => undefined);
    return {
      async send(message) {
        if (settled?.error) throw settled.error;
        if (stream.write(message)) return;
        // Waits for room, but not past the server's answer: a refusal ends the wait.
        await Promise.race([once(stream, 'drain'), answer.then(() => undefined)]);
        if (settled?.error) throw settled.error;
      },
      finish() {
        stream.end();
        return answer;
      },
      cancel() {
        stream.cancel();
      },
    };
  }

  async function* serverStream(name: PropertyKey, request: unknown, opts: CallOptions): AsyncIterable<unknown> {
    const stream = method(name)(request, metadata(opts.caller, pathOf(name)), { deadline: deadline(opts.deadlineMs) }) as grpc.ClientReadableStream<unknown>;
    const startedAt = performance.now();
    let code: number = grpc.status.CANCELLED;
    try {
      for await (const message of stream) yield message;
      code = grpc.status.OK;
    } catch (error) {
      code = statusCodeOf(error);
      throw error;
    } finally {
      if (code === grpc.status.CANCELLED) stream.cancel();
      streamObserver(name)(startedAt, code);
    }
  }

  return {
    call: call as unknown as PromiseClient<C>,
    clientStream: clientStream as ServiceClient<C>['clientStream'],
    serverStream: serverStream as ServiceClient<C>['serverStream'],
    channel: () => raw.getChannel(),
    close: () => raw.close(),
  };
}
