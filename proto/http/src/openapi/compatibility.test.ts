import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDocument } from 'zod-openapi';
import { compareDocuments } from './compatibility.js';

/** A one-route document: POST /things with `body` in and `answer` out. */
function api({ body, answer, query }: { body: z.ZodType; answer: z.ZodType; query?: z.ZodObject }) {
  return JSON.parse(
    JSON.stringify(
      createDocument({
        openapi: '3.1.0',
        info: { title: 't', version: '1' },
        paths: {
          '/things': {
            post: {
              ...(query ? { requestParams: { query } } : {}),
              requestBody: { content: { 'application/json': { schema: body } } },
              responses: { 200: { description: 'ok', content: { 'application/json': { schema: answer } } } },
            },
          },
        },
      }),
    ),
  );
}

const body = z.object({ name: z.string().max(50), tags: z.array(z.string()).optional() });
const answer = z.object({ id: z.number().int(), name: z.string(), status: z.enum(['a', 'b']), note: z.string().nullable() });
const base = api({ body, answer });

const breakingOf = (after: ReturnType<typeof api>) => compareDocuments(base, after).filter((change) => change.breaking).map((change) => `${change.where}: ${change.what}`);
const compatibleOf = (after: ReturnType<typeof api>) => compareDocuments(base, after).filter((change) => !change.breaking).map((change) => `${change.where}: ${change.what}`);

describe('compareDocuments', () => {
  it('finds nothing between a document and itself', () => {
    expect(compareDocuments(base, api({ body, answer }))).toEqual([]);
  });

  it('calls a removed route breaking and an added one compatible', () => {
    const without = { ...base, paths: {} };
    expect(breakingOf(without)).toEqual(['POST /things: route removed']);
    expect(compareDocuments(without, base)).toEqual([{ breaking: false, where: 'POST /things', what: 'route added' }]);
  });

  it('calls a removed response field, or one no longer always there, breaking', () => {
    expect(breakingOf(api({ body, answer: answer.omit({ status: true }) }))).toEqual(['POST /things response 200 .status: field removed']);
    expect(breakingOf(api({ body, answer: answer.extend({ name: z.string().optional() }) }))).toEqual(['POST /things response 200 .name: now optional']);
  });

  it('calls a response that may now hold more (a new enum value, null, another type) breaking, and a new field compatible', () => {
    expect(breakingOf(api({ body, answer: answer.extend({ status: z.enum(['a', 'b', 'c']) }) }))).toEqual(['POST /things response 200 .status: value "c" added']);
    expect(breakingOf(api({ body, answer: answer.extend({ name: z.string().nullable() }) }))).toEqual(['POST /things response 200 .name: now nullable']);
    expect(breakingOf(api({ body, answer: answer.extend({ id: z.number() }) }))).toEqual(['POST /things response 200 .id: now any number']);
    expect(breakingOf(api({ body, answer: answer.extend({ extra: z.string() }) }))).toEqual([]);
    expect(compatibleOf(api({ body, answer: answer.extend({ extra: z.string() }) }))).toEqual(['POST /things response 200 .extra: required field added']);
  });

  it('calls a narrowed input breaking: a new required field, a lower maximum, a type it no longer takes', () => {
    expect(breakingOf(api({ body: body.extend({ age: z.number() }), answer }))).toEqual(['POST /things request .age: required field added']);
    expect(breakingOf(api({ body: body.extend({ name: z.string().max(20) }), answer }))).toEqual(['POST /things request .name: maxLength 50 → 20']);
    expect(breakingOf(api({ body: body.extend({ tags: z.array(z.string()) }), answer }))).toEqual(['POST /things request .tags: now required']);
    expect(breakingOf(api({ body: body.extend({ name: z.number() }), answer }))).toEqual(['POST /things request .name: no longer string']);
  });

  it('calls a widened input compatible: a higher maximum, a new optional field or parameter', () => {
    expect(breakingOf(api({ body: body.extend({ name: z.string().max(100) }), answer }))).toEqual([]);
    expect(breakingOf(api({ body: body.extend({ age: z.number().optional() }), answer }))).toEqual([]);
    expect(breakingOf(api({ body, answer, query: z.object({ page: z.string().optional() }) }))).toEqual([]);
    expect(breakingOf(api({ body, answer, query: z.object({ page: z.string() }) }))).toEqual(['POST /things: required parameter query page added']);
  });

  it('follows references into shared schemas', () => {
    const shared = (schema: z.ZodObject) => api({ body, answer: z.object({ item: schema.meta({ id: 'Item' }) }) });
    const before = shared(z.object({ id: z.number() }));
    const after = shared(z.object({ id: z.string() }));
    expect(compareDocuments(before, after).filter((c) => c.breaking).map((c) => c.what)).toEqual(['now also string']);
  });
});
