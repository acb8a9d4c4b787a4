import { hostname } from 'node:os';
import { isMainThread } from 'node:worker_threads';
import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { trace } from '@opentelemetry/api';
import { snapcracksVersion } from './version.js';

export type { Logger } from 'pino';

/**
 * JSON logs with the running version and the active trace and span ids; pretty when a person watches the terminal.
 * Requests are never logged whole: callers log ids and outcomes only.
 */
export function createLogger(name: string, level: LoggerOptions['level'] = process.env.LOG_LEVEL ?? 'info', options: { pretty?: boolean; destination?: DestinationStream } = {}): Logger {
  // A worker thread's stdout is no terminal: the thread that made it says whether its lines should be pretty.
  const pretty = options.pretty ?? prettyLogs();
  return pino({
    name,
    level,
    base: { pid: process.pid, hostname: hostname(), version: snapcracksVersion() },
    // Child loggers bind identifiers only (component, rpc, request id), never a secret: pino formats their bindings
    // once, without this.
    formatters: { log: censorSecrets },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,version' } } } : {}),
  }, pretty ? undefined : (options.destination ?? destination()));
}

/** Keys whose values never reach a log line, one level down wherever they sit (a request's headers, a config). */
const SECRET_KEYS = ['password', 'secret', 'token', 'authorization', 'cookie'] as const;
const CENSOR = '[redacted]';

/**
 * A log record as written: the value of a secret key one level down (`{ headers: { cookie } }`) replaced by the
 * censor, in copies (the caller's objects are left alone); a record without one is returned as it is. pino's own
 * `redact` option did the same for these paths, but it parsed every path and cloned for each property of each line:
 * under votes it made 18 % of everything the gateway's thread allocated.
 */
export function censorSecrets<T extends Record<string, unknown>>(record: T): T {
  let censored: Record<string, unknown> | undefined;
  for (const key in record) {
    const value = record[key];
    if (value === null || typeof value !== 'object') continue;
    let copy: Record<string, unknown> | undefined;
    for (const secret of SECRET_KEYS) {
      if (!Object.hasOwn(value, secret)) continue;
      copy ??= copyOf(value);
      copy[secret] = CENSOR;
    }
    if (copy) (censored ??= { ...record })[key] = copy;
  }
  return (censored as T | undefined) ?? record;
}

/** A shallow copy; an Error's keeps its prototype, message and stack (own but not enumerable) for the err serializer. */
function copyOf(value: object): Record<string, unknown> {
  if (!(value instanceof Error)) return { ...value };
  const copy = Object.create(Object.getPrototypeOf(value), Object.getOwnPropertyDescriptors(value));
  // Newer V8 (Node 24) keeps the stack behind an accessor that answers only for the error it was captured on.
  Object.defineProperty(copy, 'stack', { value: value.stack, writable: true, configurable: true, enumerable: false });
  return copy;
}

/**
 * Standard output, written a few kilobytes at a time and at least every quarter second: one write per line cost the
 * gateway about 8 % of its time at a few thousand requests a second (an access line each). pino writes what is left
 * synchronously when the process exits. A worker thread gets no such exit hook from pino, so there every line is
 * written as it comes (pino's default).
 */
function destination(): DestinationStream | undefined {
  return isMainThread ? pino.destination({ dest: 1, minLength: 4096, periodicFlush: 250 }) : undefined;
}

/** Whether this process's logs read best pretty: a person watches the terminal, outside production and CI. */
export function prettyLogs(): boolean {
  return Boolean(process.stdout.isTTY) && process.env.NODE_ENV !== 'production' && !process.env.CI;
}
