import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { startTelemetry } from '../telemetry.js';
import { createTestDatabase, type TestDatabase } from '../testing/postgres.js';
import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../testing/prisma/generated/client.js';
import { instrumentPool } from './pg.js';

const spans = new InMemorySpanExporter();
let telemetry: { shutdown(): Promise<void> };
let db: TestDatabase;
let pool: pg.Pool;

beforeAll(async () => {
  telemetry = startTelemetry('pg-test', { spanProcessors: [new SimpleSpanProcessor(spans)] });
  db = await createTestDatabase('pgtrace');
  pool = new pg.Pool({ connectionString: db.url, max: 2 });
  instrumentPool(pool, { component: 'vote', schema: 'vote' });
});

afterAll(async () => {
  await pool.end();
  await db.drop();
  await telemetry.shutdown();
});

const tracer = () => trace.getTracer('test');

describe('statement spans', () => {
  it('traces each statement inside a recorded trace, on the pool and on a checked-out client, without its parameters', async () => {
    spans.reset();
    await tracer().startActiveSpan('request', async (request) => {
      await pool.query('SELECT $1::text AS secret', ['hunter2']);
      const client = await pool.connect();
      try {
        await client.query({ text: '  -- the tally\n  update pg_catalog.pg_class set relname = relname where false', values: [] });
        await new Promise<void>((resolve, reject) => client.query('SELECT 1', (error) => (error ? reject(error) : resolve())));
        await expect(client.query('SELECT * FROM no_such_table')).rejects.toThrow();
      } finally {
        client.release();
      }
      request.end();
    });

    const finished = spans.getFinishedSpans();
    const parent = finished.find((span) => span.name === 'request')!;
    const statements = finished.filter((span) => span !== parent);
    expect(statements.map((span) => span.name)).toEqual(['SELECT', 'UPDATE', 'SELECT', 'SELECT']);
    for (const span of statements) {
      expect(span.kind).toBe(SpanKind.CLIENT);
      expect(span.parentSpanContext?.spanId).toBe(parent.spanContext().spanId);
      expect(span.attributes['db.system.name']).toBe('postgresql');
      expect(span.attributes['db.namespace']).toBe('vote');
    }
    expect(statements[0]!.attributes['db.query.text']).toBe('SELECT $1::text AS secret');
    expect(statements[0]!.attributes['db.operation.name']).toBe('SELECT');
    expect(JSON.stringify(statements.map((span) => span.attributes))).not.toContain('hunter2');
    expect(statements[1]!.attributes['db.operation.name']).toBe('UPDATE');
    expect(statements[3]!.status.code).toBe(SpanStatusCode.ERROR);
  });

  it('traces what Prisma runs over the pool, in a transaction too', async () => {
    spans.reset();
    const prisma = new PrismaClient({ adapter: new PrismaPg(pool, { schema: 'vote' }) });
    try {
      await tracer().startActiveSpan('request', async (request) => {
        await prisma.$queryRawUnsafe('SELECT 2 AS two');
        await prisma.$transaction(async (tx) => tx.$executeRawUnsafe('SELECT 3'));
        request.end();
      });
    } finally {
      await prisma.$disconnect();
    }
    const texts = spans.getFinishedSpans().map((span) => span.attributes['db.query.text']);
    expect(texts).toContain('SELECT 2 AS two');
    expect(texts).toContain('SELECT 3');
    expect(texts).toContain('BEGIN');
  });

  it('starts no trace of its own: statements outside a recorded span make no span', async () => {
    spans.reset();
    await pool.query('SELECT 1');
    expect(spans.getFinishedSpans()).toEqual([]);
  });

  it('truncates a long statement', async () => {
    spans.reset();
    const text = `SELECT ${Array.from({ length: 400 }, (_, i) => `${i} AS c${i}`).join(', ')}`;
    await tracer().startActiveSpan('request', async (request) => {
      await pool.query(text);
      request.end();
    });
    const statement = spans.getFinishedSpans().find((span) => span.name === 'SELECT')!;
    expect(String(statement.attributes['db.query.text'])).toBe(text.slice(0, 1_000));
  });
});
