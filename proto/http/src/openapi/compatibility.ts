/**
 * What changed between two versions of the OpenAPI document, and which changes break a client written against the
 * older one: a removed route, parameter or field, a type narrowed where the client sends it or widened where the client
 * reads it, a new required input. The committed document (docs/openapi.json) is compared with the generated one, so a
 * change to the API is always seen, and one that breaks clients is said to.
 */

export interface ApiChange {
  breaking: boolean;
  /** Where, e.g. `PATCH /api/photos/{id} response 200 .description`. */
  where: string;
  what: string;
}

type Schema = Record<string, unknown>;
type Document = { paths?: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
type Operation = {
  parameters?: Array<{ name: string; in: string; required?: boolean; schema?: Schema }>;
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Schema }> };
  responses?: Record<string, { content?: Record<string, { schema?: Schema }> }>;
};

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Every change from `before` to `after`, breaking ones first. */
export function compareDocuments(before: Document, after: Document): ApiChange[] {
  const changes: ApiChange[] = [];
  const resolveBefore = resolver(before);
  const resolveAfter = resolver(after);
  for (const [path, item] of Object.entries(before.paths ?? {})) {
    for (const method of METHODS) {
      const old = item[method];
      if (!old) continue;
      const where = `${method.toUpperCase()} ${path}`;
      const current = after.paths?.[path]?.[method];
      if (!current) {
        changes.push({ breaking: true, where, what: 'route removed' });
        continue;
      }
      const context = { changes, before: resolveBefore, after: resolveAfter };
      compareParameters(where, old, current, context);
      compareRequestBody(where, old, current, context);
      compareResponses(where, old, current, context);
    }
  }
  for (const [path, item] of Object.entries(after.paths ?? {})) {
    for (const method of METHODS) {
      if (item[method] && !before.paths?.[path]?.[method]) changes.push({ breaking: false, where: `${method.toUpperCase()} ${path}`, what: 'route added' });
    }
  }
  return changes.sort((a, b) => Number(b.breaking) - Number(a.breaking));
}

interface Context {
  changes: ApiChange[];
  before: (schema: Schema | undefined) => Schema | undefined;
  after: (schema: Schema | undefined) => Schema | undefined;
}

function compareParameters(where: string, old: Operation, current: Operation, context: Context): void {
  const key = (p: { name: string; in: string }) => `${p.in} ${p.name}`;
  const now = new Map((current.parameters ?? []).map((p) => [key(p), p]));
  const was = new Map((old.parameters ?? []).map((p) => [key(p), p]));
  for (const [name, parameter] of was) {
    const next = now.get(name);
    if (!next) {
      context.changes.push({ breaking: true, where, what: `parameter ${name} removed` });
      continue;
    }
    if (next.required && !parameter.required) context.changes.push({ breaking: true, where, what: `parameter ${name} now required` });
    compareSchemas(`${where} parameter ${name}`, context.before(parameter.schema), context.after(next.schema), 'request', context);
  }
  for (const [name, parameter] of now) {
    if (!was.has(name)) context.changes.push({ breaking: Boolean(parameter.required), where, what: `${parameter.required ? 'required' : 'optional'} parameter ${name} added` });
  }
}

function compareRequestBody(where: string, old: Operation, current: Operation, context: Context): void {
  const was = old.requestBody;
  const now = current.requestBody;
  if (!was) {
    if (now?.required) context.changes.push({ breaking: true, where, what: 'a request body is now required' });
    return;
  }
  if (!now) {
    context.changes.push({ breaking: true, where, what: 'request body removed' });
    return;
  }
  if (now.required && !was.required) context.changes.push({ breaking: true, where, what: 'the request body is now required' });
  for (const [type, media] of Object.entries(was.content ?? {})) {
    const next = now.content?.[type];
    if (!next) context.changes.push({ breaking: true, where, what: `request body no longer accepted as ${type}` });
    else compareSchemas(`${where} request`, context.before(media.schema), context.after(next.schema), 'request', context);
  }
}

function compareResponses(where: string, old: Operation, current: Operation, context: Context): void {
  for (const [status, response] of Object.entries(old.responses ?? {})) {
    const next = current.responses?.[status];
    const success = status.startsWith('2');
    if (!next) {
      context.changes.push({ breaking: success, where, what: `response ${status} removed` });
      continue;
    }
    for (const [type, media] of Object.entries(response.content ?? {})) {
      const nextMedia = next.content?.[type];
      if (!nextMedia) context.changes.push({ breaking: success, where, what: `response ${status} no longer ${type}` });
      else compareSchemas(`${where} response ${status}`, context.before(media.schema), context.after(nextMedia.schema), 'response', context);
    }
  }
  for (const status of Object.keys(current.responses ?? {})) {
    if (!old.responses?.[status]) context.changes.push({ breaking: false, where, what: `response ${status} added` });
  }
}

/**
 * Compares a schema as the client sends it (`request`: the server must still accept everything it accepted) or as the
 * client reads it (`response`: the server must send nothing the client did not expect).
 */
function compareSchemas(where: string, was: Schema | undefined, now: Schema | undefined, direction: 'request' | 'response', context: Context, seen = new Set<Schema>()): void {
  if (!was || !now || seen.has(was)) return;
  seen.add(was);
  const report = (widened: boolean, what: string) => {
    const breaking = direction === 'request' ? !widened : widened;
    context.changes.push({ breaking, where, what });
  };
  const a = normalize(was, context.before);
  const b = normalize(now, context.after);

  if (a.nullable !== b.nullable) report(b.nullable, b.nullable ? 'now nullable' : 'no longer nullable');
  for (const type of a.types) if (!b.types.has(type)) report(false, `no longer ${type}`);
  for (const type of b.types) if (!a.types.has(type) && !(type === 'integer' && a.types.has('number')) && !(type === 'number' && a.types.has('integer'))) report(true, `now also ${type}`);
  if (a.types.has('number') && b.types.has('integer') && !b.types.has('number')) report(false, 'now an integer');
  if (a.types.has('integer') && b.types.has('number') && !b.types.has('integer')) report(true, 'now any number');

  if (a.enum || b.enum) {
    const before = new Set(a.enum ?? []);
    const after = new Set(b.enum ?? []);
    if (!b.enum) report(true, 'no longer limited to a list of values');
    else if (!a.enum) report(false, 'now limited to a list of values');
    else {
      for (const value of before) if (!after.has(value)) report(false, `value ${JSON.stringify(value)} removed`);
      for (const value of after) if (!before.has(value)) report(true, `value ${JSON.stringify(value)} added`);
    }
  }
  compareBound(a.schema.maxLength, b.schema.maxLength, 'maxLength', 'upper', report);
  compareBound(a.schema.minLength, b.schema.minLength, 'minLength', 'lower', report);
  compareBound(a.schema.maximum, b.schema.maximum, 'maximum', 'upper', report);
  compareBound(a.schema.minimum, b.schema.minimum, 'minimum', 'lower', report);
  compareBound(a.schema.maxItems, b.schema.maxItems, 'maxItems', 'upper', report);
  compareBound(a.schema.minItems, b.schema.minItems, 'minItems', 'lower', report);
  if (a.schema.pattern !== b.schema.pattern) report(b.schema.pattern === undefined, b.schema.pattern === undefined ? 'pattern removed' : `pattern now ${String(b.schema.pattern)}`);

  const propsA = (a.schema.properties ?? {}) as Record<string, Schema>;
  const propsB = (b.schema.properties ?? {}) as Record<string, Schema>;
  const requiredA = new Set((a.schema.required ?? []) as string[]);
  const requiredB = new Set((b.schema.required ?? []) as string[]);
  for (const [name, schema] of Object.entries(propsA)) {
    const field = `${where} .${name}`;
    if (!(name in propsB)) {
      context.changes.push({ breaking: true, where: field, what: direction === 'request' ? 'field no longer read' : 'field removed' });
      continue;
    }
    if (requiredA.has(name) !== requiredB.has(name)) {
      const nowRequired = requiredB.has(name);
      context.changes.push({ breaking: direction === 'request' ? nowRequired : !nowRequired, where: field, what: nowRequired ? 'now required' : 'now optional' });
    }
    compareSchemas(field, schema, propsB[name], direction, context, seen);
  }
  for (const name of Object.keys(propsB)) {
    if (name in propsA) continue;
    const required = requiredB.has(name);
    context.changes.push({ breaking: direction === 'request' && required, where: `${where} .${name}`, what: `${required ? 'required ' : ''}field added` });
  }
  if (a.schema.items || b.schema.items) compareSchemas(`${where}[]`, a.schema.items as Schema, b.schema.items as Schema, direction, context, seen);
}

function compareBound(before: unknown, after: unknown, name: string, kind: 'upper' | 'lower', report: (widened: boolean, what: string) => void): void {
  if (before === after) return;
  if (typeof after !== 'number') return report(true, `${name} removed`);
  if (typeof before !== 'number') return report(false, `${name} ${after} added`);
  report(kind === 'upper' ? after > before : after < before, `${name} ${before} → ${after}`);
}

interface Normalized {
  schema: Schema;
  types: Set<string>;
  nullable: boolean;
  enum: unknown[] | undefined;
}

/** A schema's types and nullability, whether written as a type list, `anyOf: [X, null]`, `const` or `enum`. */
function normalize(schema: Schema, resolve: (schema: Schema | undefined) => Schema | undefined): Normalized {
  let body = resolve(schema) ?? {};
  let nullable = false;
  const variants = body.anyOf as Schema[] | undefined;
  if (variants) {
    const nonNull = variants.map((variant) => resolve(variant) ?? {}).filter((variant) => variant.type !== 'null');
    nullable = nonNull.length < variants.length;
    if (nonNull.length === 1) body = { ...body, anyOf: undefined, ...nonNull[0] };
  }
  const listed = Array.isArray(body.type) ? (body.type as string[]) : body.type ? [body.type as string] : [];
  if (listed.includes('null')) nullable = true;
  const types = new Set(listed.filter((type) => type !== 'null'));
  const values = body.const !== undefined ? [body.const] : (body.enum as unknown[] | undefined);
  // zod writes JavaScript's safe range on every integer: no bound at all, as far as a client is concerned.
  if (body.minimum === Number.MIN_SAFE_INTEGER || body.maximum === Number.MAX_SAFE_INTEGER) {
    body = { ...body, ...(body.minimum === Number.MIN_SAFE_INTEGER ? { minimum: undefined } : {}), ...(body.maximum === Number.MAX_SAFE_INTEGER ? { maximum: undefined } : {}) };
  }
  return { schema: body, types, nullable, enum: values?.filter((value) => value !== null) };
}

function resolver(document: Document): (schema: Schema | undefined) => Schema | undefined {
  return (schema) => {
    let current = schema;
    for (let hops = 0; current && typeof current.$ref === 'string' && hops < 10; hops++) {
      const name = current.$ref.replace('#/components/schemas/', '');
      current = document.components?.schemas?.[name];
    }
    return current;
  };
}

/** The changes as lines a person reads in a failed test. */
export function describeChanges(changes: ApiChange[]): string {
  return changes.map((change) => `${change.breaking ? 'BREAKING' : 'compatible'}: ${change.where}: ${change.what}`).join('\n');
}
