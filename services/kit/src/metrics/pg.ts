import { performance } from 'node:perf_hooks';
import { SpanKind, SpanStatusCode, context, trace, type Span } from '@opentelemetry/api';
import type pg from 'pg';
import { tracingRecords } from '../telemetry.js';
import { instruments } from './instruments.js';
import { onEveryProvider } from './provider.js';

interface ObservedPool {
  pool: pg.Pool;
  idle: { component: string; state: 'idle' };
  used: { component: string; state: 'used' };
  attributes: { component: string };
}

const pools = new Set<ObservedPool>();

onEveryProvider((meter) => {
  const connections = meter.createObservableGauge('snapcracks.db.pool.connections', {
    description: 'Connections the pool holds, by state: idle or used (checked out)',
    unit: '{connection}',
  });
  const max = meter.createObservableGauge('snapcracks.db.pool.max', { description: 'Most connections the pool may open', unit: '{connection}' });
  const waiting = meter.createObservableGauge('snapcracks.db.pool.waiting', { description: 'Callers waiting for a connection', unit: '{request}' });
  meter.addBatchObservableCallback(
    (result) => {
      for (const observed of pools) {
        const { pool } = observed;
        if (pool.ended) {
          pools.delete(observed);
          continue;
        }
        result.observe(connections, pool.idleCount, observed.idle);
        result.observe(connections, pool.totalCount - pool.idleCount, observed.used);
        result.observe(max, pool.options.max ?? 10, observed.attributes);
        result.observe(waiting, pool.waitingCount, observed.attributes);
      }
    },
    [connections, max, waiting],
  );
});

/**
 * Metrics and traces of a component's connection pool: its connections (idle, used, max, waiting) at each collection,
 * the time each caller waits to get a connection, and a span per statement while a recorded trace is active. Call once
 * per pool, right after making it.
 */
export function instrumentPool(pool: pg.Pool, options: { component: string; schema?: string }): void {
  const attributes = { component: options.component };
  pools.add({ pool, attributes, idle: { ...attributes, state: 'idle' }, used: { ...attributes, state: 'used' } });
  measureWaits(pool, attributes);
  // Every statement runs on a pooled client (pool.query checks one out too), so tracing the clients traces them all once.
  pool.on('connect', (client) => traceQueries(client, options.schema));
}

type ConnectCallback = (error: Error | undefined, client: pg.PoolClient | undefined, release: (error?: Error) => void) => void;

function measureWaits(pool: pg.Pool, attributes: { component: string }): void {
  const connect = pool.connect as (callback?: ConnectCallback) => Promise<pg.PoolClient> | undefined;
  const record = (started: number) => instruments().poolWait.record((performance.now() - started) / 1000, attributes);
  // pool.query calls this.connect with a callback; explicit checkouts (transactions) use the promise.
  (pool as { connect: unknown }).connect = function (this: pg.Pool, callback?: ConnectCallback) {
    const started = performance.now();
    if (callback) {
      return connect.call(this, (error, client, release) => {
        record(started);
        callback(error, client, release);
      });
    }
    return connect.call(this)!.then(
      (client) => {
        record(started);
        return client;
      },
      (error: unknown) => {
        record(started);
        throw error;
      },
    );
  };
}

/** Longest statement text a span carries: enough to recognise it, never a bulk insert's whole text. */
const MAX_STATEMENT_LENGTH = 1_000;

const tracer = () => trace.getTracer('snapcracks.pg');

type Query = (...args: unknown[]) => unknown;

/**
 * Wraps a client's query in a span (db.system, db.namespace, db.operation.name, the statement text truncated; never the
 * parameters). Nothing but one boolean check when this process records no spans, and no span outside a recorded trace
 * (the outbox relay's polling would otherwise start a trace of its own twice a second).
 */
export function traceQueries(client: pg.ClientBase, schema: string | undefined): void {
  const query = client.query as unknown as Query;
  (client as unknown as { query: Query }).query = function (this: pg.ClientBase, ...args: unknown[]) {
    if (!tracingRecords()) return query.apply(this, args);
    const parent = trace.getSpan(context.active());
    if (!parent?.isRecording()) return query.apply(this, args);
    const text = statementText(args[0]);
    const operation = operationName(text);
    const span = tracer().startSpan(operation ?? 'postgresql', {
      kind: SpanKind.CLIENT,
      attributes: {
        'db.system.name': 'postgresql',
        'db.system': 'postgresql',
        ...(schema ? { 'db.namespace': schema } : {}),
        ...(operation ? { 'db.operation.name': operation } : {}),
        'db.query.text': text.length > MAX_STATEMENT_LENGTH ? text.slice(0, MAX_STATEMENT_LENGTH) : text,
      },
    });
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === 'function') {
      args[last] = (error: Error | null, ...rest: unknown[]) => {
        endSpan(span, error);
        return (callback as (...a: unknown[]) => unknown)(error, ...rest);
      };
      return query.apply(this, args);
    }
    let result: unknown;
    try {
      result = query.apply(this, args);
    } catch (error) {
      endSpan(span, error);
      throw error;
    }
    if (result && typeof (result as Promise<unknown>).then === 'function') {
      (result as Promise<unknown>).then(
        () => endSpan(span, null),
        (error: unknown) => endSpan(span, error),
      );
    } else {
      // A Submittable (a cursor): its rows are read later, the span covers sending it.
      endSpan(span, null);
    }
    return result;
  };
}

function endSpan(span: Span, error: unknown): void {
  if (error) span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.message : String(error) });
  span.end();
}

function statementText(first: unknown): string {
  if (typeof first === 'string') return first;
  const text = (first as { text?: unknown } | null)?.text;
  return typeof text === 'string' ? text : '';
}

/** The statement's first keyword (SELECT, INSERT, BEGIN, …), or undefined for none. */
export function operationName(text: string): string | undefined {
  const match = /^\s*(?:--[^\n]*\n\s*)*([a-zA-Z]+)/.exec(text);
  return match ? match[1]!.toUpperCase() : undefined;
}
