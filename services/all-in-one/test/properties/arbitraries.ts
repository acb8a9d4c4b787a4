import fc, { type Arbitrary } from 'fast-check';
import { z } from 'zod';

/**
 * fast-check arbitraries for a route's request parts, built from the JSON Schema zod 4 gives of the route's own zod
 * schema (`z.toJSONSchema`, input side). No maintained zod → fast-check library supports zod 4 and fast-check 4 yet
 * (zod-fast-check stops at zod 3 and fast-check 3), and the JSON Schema is the stable, documented form of a zod schema.
 *
 * Each value is a mix: mostly valid for the schema (so requests get past validation and reach the services), often at
 * or over a limit the schema states (lengths, ranges, counts), sometimes hostile whatever the schema says (wrong types,
 * NaN-like and huge numbers, control characters, unicode, very long or deeply nested values, missing and extra fields).
 */

/** The subset of JSON Schema (draft 2020-12) zod emits for the gateway's schemas. */
export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
}

/** What a request can carry, as the client sends it. */
export function jsonSchemaOf(schema: z.ZodType): JsonSchema {
  // `unrepresentable: 'any'`: a z.custom (the face detector's image body) becomes "anything", which is what we send it.
  // An empty registry: the contract names its shapes for the OpenAPI document (`.meta({ id })`), which would make them
  // references here; the generators want each schema whole.
  return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any', metadata: z.registry() }) as JsonSchema;
}

/** Text that has broken parsers, databases and number conversions before: as values, keys, path segments. */
export const HOSTILE_STRINGS = [
  '',
  ' ',
  '\t',
  '\n',
  '0',
  '-0',
  '-1',
  '00',
  '01',
  '1.5',
  '1e3',
  '1e309',
  '-1e309',
  '0x1F',
  ' 1',
  '1 ',
  '+1',
  'NaN',
  'Infinity',
  '-Infinity',
  'undefined',
  'null',
  'true',
  'false',
  '[]',
  '{}',
  '[object Object]',
  '__proto__',
  'constructor',
  'prototype',
  '9'.repeat(16),
  '9'.repeat(40),
  String(Number.MAX_SAFE_INTEGER + 2),
  '2147483648',
  '9223372036854775808',
  '١٢٣',
  '１２３',
  '\u0000',
  'a\u0000b',
  '\u0007',
  '\u001b[31mred',
  '\u007f',
  '\u0085',
  '\u2028',
  '\u200b',
  '\ufeff',
  '\ud800',
  '\udfff',
  '😀',
  'é',
  'e\u0301',
  'ß',
  'İ',
  '%',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '..',
  '.',
  '/',
  '\\',
  "' OR '1'='1",
  '"; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '{{7*7}}',
  'a'.repeat(1_000),
  'ü'.repeat(10_000),
];

const HOSTILE_NUMBERS = [0, -0, -1, 1, 1.5, -1.5, 0.1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e21, 1e308, -1e308, 5e-324, Number.MAX_SAFE_INTEGER];

/** A value nested `depth` arrays deep. */
function deeplyNested(depth: number): unknown {
  let value: unknown = 'x';
  for (let i = 0; i < depth; i++) value = [value];
  return value;
}

/**
 * JSON text nested `depth` arrays deep under `key`: small, but a recursive walk over the parsed value overflows the stack.
 * Sent as text, since JSON.stringify (and fast-check's own printing of a value) would overflow on it here.
 */
const deeplyNestedJson = (depth: number, key: string) => `{"${key}":${'['.repeat(depth)}"x"${']'.repeat(depth)}}`;

/** Any JSON value, with a bias towards the ones that break things. */
export const hostileValue: Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom<unknown>(...HOSTILE_STRINGS) },
  { weight: 2, arbitrary: fc.constantFrom<unknown>(...HOSTILE_NUMBERS, null, true, false, [], {}, [null], { '': '' }) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.constant(deeplyNested(64)) },
);

const typesOf = (schema: JsonSchema): string[] => [schema.type ?? []].flat();

/** A value the schema accepts (as far as JSON Schema can say: zod refinements such as "at most 50" are not in it). */
export function validValue(schema: JsonSchema, name = ''): Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => validValue(alternative, name)));
  const [type] = typesOf(schema);
  switch (type) {
    case 'string':
      return validString(schema, name);
    case 'integer':
      return fc.integer({ min: Math.max(schema.minimum ?? -(2 ** 31), -(2 ** 31)), max: Math.min(schema.maximum ?? 2 ** 31 - 1, 2 ** 31 - 1) });
    case 'number':
      return fc.double({
        min: schema.exclusiveMinimum ?? schema.minimum ?? -1e9,
        max: schema.exclusiveMaximum ?? schema.maximum ?? 1e9,
        minExcluded: schema.exclusiveMinimum !== undefined,
        maxExcluded: schema.exclusiveMaximum !== undefined,
        noNaN: true,
      });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(schema.items ? validValue(schema.items, name) : fc.jsonValue({ maxDepth: 2 }), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.min(schema.maxItems ?? 5, 5),
      });
    case 'object':
      return validObject(schema);
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

const PLAIN_EMAIL = /^[a-z0-9]{1,12}(\.[a-z0-9]{1,6})?@[a-z0-9]{1,12}\.[a-z]{2,6}$/;

function validString(schema: JsonSchema, name: string): Arbitrary<string> {
  const minLength = schema.minLength ?? 0;
  const maxLength = schema.maxLength ?? 80;
  const fits = (text: string) => text.length >= minLength && text.length <= maxLength;
  // Small sizes: a page or a limit is more often a few digits than six (zod's "at most 50" is not in the JSON Schema).
  if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter(fits);
  const plain = fc.oneof(
    { weight: 3, arbitrary: fc.string({ minLength: Math.max(minLength, 1), maxLength: Math.min(maxLength, Math.max(minLength, 1) + 30) }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', minLength, maxLength: Math.min(maxLength, minLength + 20) }).filter(fits) },
  );
  // A field named for an email address takes one (the contact form's email is checked as one after its length). Plain
  // ones: fast-check's own emailAddress() is RFC 5322's, and most of those (a!#$%@b.c) are not addresses zod accepts.
  return /email/i.test(name) ? fc.oneof({ weight: 3, arbitrary: fc.stringMatching(PLAIN_EMAIL).filter(fits) }, { weight: 1, arbitrary: plain }) : plain;
}

function validObject(schema: JsonSchema): Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, validValue(property, key)]));
  return fc.record(model, { requiredKeys: (schema.required ?? []).filter((key) => key in properties) });
}

/** Values at and just over the limits the schema states, and of the wrong type for it. */
export function edgeValue(schema: JsonSchema, name = ''): Arbitrary<unknown> {
  const wrongTypes = fc.constantFrom<unknown>(null, true, 0, -1, '', 'NaN', [], {}, ['x'], { value: 1 });
  const edges: unknown[] = [];
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives) return fc.oneof(...alternatives.map((alternative) => edgeValue(alternative, name)), wrongTypes);
  if (schema.enum || 'const' in schema) {
    for (const value of schema.enum ?? [schema.const]) {
      if (typeof value === 'string') edges.push(value.toUpperCase(), ` ${value}`, `${value}\u0000`, `${value}s`);
      else edges.push(String(value), [value]);
    }
  }
  const [type] = typesOf(schema);
  if (type === 'string') {
    const { minLength = 0, maxLength } = schema;
    edges.push('', ' '.repeat(Math.max(minLength, 1)), 'x'.repeat(Math.max(minLength - 1, 0)), 'x'.repeat(minLength), '😀'.repeat(Math.max(minLength, 1)));
    if (maxLength !== undefined) edges.push('x'.repeat(maxLength), 'x'.repeat(maxLength + 1), 'é'.repeat(maxLength), '😀'.repeat(Math.ceil(maxLength / 2) + 1), ` ${'x'.repeat(maxLength)} `);
    edges.push('x'.repeat(100_000));
  }
  if (type === 'integer' || type === 'number') {
    const { minimum, maximum, exclusiveMinimum, exclusiveMaximum } = schema;
    for (const limit of [minimum, maximum, exclusiveMinimum, exclusiveMaximum]) {
      if (limit !== undefined) edges.push(limit, limit - 1, limit + 1, limit - 0.5, limit + 0.5, limit - Number.EPSILON, String(limit));
    }
    edges.push(...HOSTILE_NUMBERS);
  }
  if (type === 'boolean') edges.push('true', 'false', 0, 1, 'yes', [true]);
  if (type === 'array') {
    const item = schema.items ?? {};
    const count = (schema.maxItems ?? 20) + 1;
    return fc.oneof(
      fc.constantFrom<unknown>([], [null], {}, 'x', [[]]),
      fc.array(validValue(item, name), { minLength: count, maxLength: count }),
      fc.array(fc.oneof(edgeValue(item, name), hostileValue), { maxLength: 4 }),
      fc.constant(Array.from({ length: 2_000 }, () => 0)),
      wrongTypes,
    );
  }
  if (type === 'object') return fc.oneof(objectValue(schema), fc.constantFrom<unknown>({}, [], null, 'x', 1), wrongTypes);
  return edges.length ? fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...edges) }, { weight: 1, arbitrary: wrongTypes }) : wrongTypes;
}

/** Mostly valid, often at an edge, sometimes hostile: what one field of a generated request holds. */
export function fieldValue(schema: JsonSchema, name = ''): Arbitrary<unknown> {
  return fc.oneof(
    { weight: 6, arbitrary: validValue(schema, name) },
    { weight: 3, arbitrary: edgeValue(schema, name) },
    { weight: 1, arbitrary: hostileValue },
  );
}

/** `arbitrary`'s value with the given probability, else null. */
export function sometimes<T>(arbitrary: Arbitrary<T>, probability: number): Arbitrary<T | null> {
  const weight = Math.round(probability * 60);
  // Null first: fast-check shrinks towards the first alternative.
  return fc.oneof({ weight: 60 - weight, arbitrary: fc.constant(null) }, { weight, arbitrary });
}

const extraKey = fc.oneof(fc.constantFrom('__proto__', 'constructor', 'id', 'userId', 'isAdmin', 'status', '', 'a\u0000b'), fc.string({ maxLength: 12 }));

/**
 * An object for an object schema: each property from `fieldValue`, required ones now and then missing, extra
 * properties now and then (`__proto__` and `constructor` among them).
 */
export function objectValue(schema: JsonSchema): Arbitrary<Record<string, unknown>> {
  const properties = schema.properties ?? {};
  const required = (schema.required ?? []).filter((key) => key in properties);
  const model = Object.fromEntries(Object.entries(properties).map(([key, property]) => [key, fieldValue(property, key)]));
  return fc
    .tuple(
      fc.record(model, { requiredKeys: required }),
      required.length ? sometimes(fc.subarray(required, { minLength: 1 }), 1 / 6) : fc.constant(null),
      sometimes(fc.dictionary(extraKey, hostileValue, { minKeys: 1, maxKeys: 3 }), 1 / 5),
    )
    .map(([value, missing, extra]) => {
      const result: Record<string, unknown> = { ...value };
      for (const key of missing ?? []) delete result[key];
      // defineProperty, so a generated `__proto__` key is a real own property and reaches the JSON text.
      for (const [key, extraValue] of Object.entries(extra ?? {})) Object.defineProperty(result, key, { value: extraValue, enumerable: true, writable: true, configurable: true });
      return result;
    });
}

/** A request body as sent: JSON, raw text under some content type, or nothing. */
export type Body = { kind: 'none' } | { kind: 'json'; value: unknown } | { kind: 'raw'; contentType: string | null; text: string };

const rawBodies: Arbitrary<Body> = fc.oneof(
  fc.constantFrom<Body>(
    { kind: 'raw', contentType: 'application/json', text: '' },
    { kind: 'raw', contentType: 'application/json', text: '{' },
    { kind: 'raw', contentType: 'application/json', text: '{"a":1,}' },
    { kind: 'raw', contentType: 'application/json', text: 'nul' },
    { kind: 'raw', contentType: 'application/json', text: '{"__proto__":{"isAdmin":true}}' },
    { kind: 'raw', contentType: 'application/json', text: '{"constructor":{"prototype":{"isAdmin":true}}}' },
    { kind: 'raw', contentType: 'application/json', text: '\ufeff{}' },
    { kind: 'raw', contentType: 'application/json', text: `{"a":"${'x'.repeat(1_100_000)}"}` },
    { kind: 'raw', contentType: 'application/json; charset=utf-16', text: '{}' },
    { kind: 'raw', contentType: 'text/plain', text: 'hello' },
    { kind: 'raw', contentType: 'application/x-www-form-urlencoded', text: 'a=1&b=2' },
    { kind: 'raw', contentType: 'application/xml', text: '<a/>' },
    { kind: 'raw', contentType: null, text: '{}' },
    { kind: 'raw', contentType: 'image/png', text: 'not a png' },
  ),
  fc.constantFrom(1_000, 20_000, 200_000).chain((depth) => fc.constantFrom('a', 'description', 'bars', 'name').map((key): Body => ({ kind: 'raw', contentType: 'application/json', text: deeplyNestedJson(depth, key) }))),
  fc.string({ unit: 'binary', maxLength: 60 }).map((text): Body => ({ kind: 'raw', contentType: 'application/json', text })),
);

/** A body for a route's body schema; for a route without one, whatever a client might send it anyway. */
export function bodyArbitrary(schema: JsonSchema | undefined): Arbitrary<Body> {
  const none: Arbitrary<Body> = fc.constant({ kind: 'none' });
  const json = (value: Arbitrary<unknown>) => value.map((v): Body => ({ kind: 'json', value: v }));
  if (!schema) return fc.oneof({ weight: 5, arbitrary: none }, { weight: 2, arbitrary: json(hostileValue) }, { weight: 1, arbitrary: rawBodies });
  const shaped = typesOf(schema).includes('object') ? objectValue(schema) : fieldValue(schema);
  return fc.oneof(
    { weight: 12, arbitrary: json(shaped) },
    { weight: 2, arbitrary: json(hostileValue) },
    { weight: 2, arbitrary: rawBodies },
    { weight: 1, arbitrary: none },
  );
}

/** Long enough for any limit a query or path states, short enough that most URLs stay under Node's 16 KB of headers. */
const MAX_URL_TEXT = 2_000;

/** A query or path value as text: numbers and the rest written as a client would write them. */
const asQueryText = (value: unknown): string => {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : (JSON.stringify(value) ?? '');
  return text.slice(0, MAX_URL_TEXT);
};

/**
 * A query for a route's querystring schema, as name/value pairs (a name twice makes an array on the server), or raw
 * text after the `?` that a URL encoder would never produce.
 */
export type Query = { pairs: [string, string][] } | { raw: string };

/** A query the schema accepts (as far as the JSON Schema says). */
export function validQueryArbitrary(schema: JsonSchema | undefined): Arbitrary<Query> {
  return validObject(schema ?? {}).map((values) => ({ pairs: Object.entries(values).map(([key, value]): [string, string] => [key, asQueryText(value)]) }));
}

export function queryArbitrary(schema: JsonSchema | undefined): Arbitrary<Query> {
  const properties = schema?.properties ?? {};
  const pair = (key: string, property: JsonSchema) => fieldValue(property, key).map((value): [string, string] => [key, asQueryText(value)]);
  const fromSchema = fc
    .tuple(
      // Each parameter there two times in three, now and then twice (an array on the server); extra ones now and then.
      ...Object.entries(properties).map(([key, property]) => sometimes(fc.array(pair(key, property), { minLength: 1, maxLength: 2, size: 'xsmall' }), 2 / 3)),
      sometimes(fc.array(fc.tuple(extraKey, hostileValue.map(asQueryText)), { minLength: 1, maxLength: 2 }), 1 / 5),
    )
    .map((groups) => ({ pairs: groups.flatMap((group) => group ?? []) }));
  const raw = fc.constantFrom('%', '%zz', 'a=%E0%A4%A', '&&&', '=', 'a[b]=1', 'a[]=1&a[]=2', '__proto__[isAdmin]=true', `q=${'x'.repeat(9_000)}`).map((text) => ({ raw: text }));
  return fc.oneof({ weight: 8, arbitrary: fromSchema }, { weight: 1, arbitrary: raw });
}

/** encodeURIComponent, which throws on a lone surrogate: a client would send U+FFFD's bytes for it. */
function encodeSegment(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return encodeURIComponent(text.replace(/[\ud800-\udfff]/g, '\ufffd'));
  }
}

/** A path segment: text as sent, or the n-th id that exists when the request is sent (ids change as runs delete things). */
export type Segment = { text: string } | { known: number };

const encodedSegment = (value: Arbitrary<unknown>) => value.map((v): Segment => ({ text: encodeSegment(asQueryText(v)) }));

/**
 * One path segment for a parameter: valid for its schema, an id that exists (the owner's photo, a member's id…), a
 * word the product's paths use, or hostile text; percent-encoded as a client would, or now and then raw.
 */
export function segmentArbitrary(schema: JsonSchema | undefined, name: string, words: readonly string[]): Arbitrary<Segment> {
  return fc.oneof(
    { weight: 4, arbitrary: validSegmentArbitrary(schema, name, words) },
    { weight: 2, arbitrary: encodedSegment(schema ? edgeValue(schema, name) : fc.constantFrom(...HOSTILE_STRINGS)) },
    { weight: 1, arbitrary: encodedSegment(fc.constantFrom(...HOSTILE_STRINGS)) },
    { weight: 1, arbitrary: fc.constantFrom('%', '%E0%A4%A', '%00', '..', '.', '%2e%2e', 'a;b', '%2F', 'x?y=1', 'x#y').map((text): Segment => ({ text })) },
  );
}

/** A segment a route may well answer: an id that exists, a word its paths use, or a value its schema accepts. */
export function validSegmentArbitrary(schema: JsonSchema | undefined, name: string, words: readonly string[]): Arbitrary<Segment> {
  const known = fc.nat().map((n): Segment => ({ known: n }));
  const fromSchema = encodedSegment(schema ? validValue(schema, name) : fc.string());
  // Words only where the schema says no more than "text": a pattern or a list of values already says what fits.
  if (schema?.pattern || schema?.enum || !words.length) return fc.oneof({ weight: 3, arbitrary: known }, { weight: 1, arbitrary: fromSchema });
  const word = fc.constantFrom(...words).map((text): Segment => ({ text }));
  return fc.oneof({ weight: 3, arbitrary: known }, { weight: 2, arbitrary: word }, { weight: 1, arbitrary: fromSchema });
}
