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
export function createLogger(name: string, level: LoggerOptions['level'] = process.env.LOG_LEVEL ?? 'info', options: { pretty?: boolean } = {}): Logger {
  // A worker thread's stdout is no terminal: the thread that made it says whether its lines should be pretty.
  const pretty = options.pretty ?? prettyLogs();
  return pino({
    name,
    level,
    base: { pid: process.pid, hostname: hostname(), version: snapcracksVersion() },
    redact: { paths: ['*.password', '*.secret', '*.token', '*.authorization', '*.cookie'], censor: '[redacted]' },
    mixin() {
      const span = trace.getActiveSpan();
      if (!span) return {};
      const { traceId, spanId } = span.spanContext();
      return { traceId, spanId };
    },
    ...(pretty ? { transport: { target: 'pino-pretty', options: { colorize: true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname,version' } } } : {}),
  }, pretty ? undefined : destination());
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
