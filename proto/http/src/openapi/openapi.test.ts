import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { OPENAPI_FILE } from './committed.js';
import { compareDocuments, describeChanges } from './compatibility.js';
import { openApiDocument } from './document.js';
import { routes } from '../routes.js';

const generated = JSON.parse(JSON.stringify(openApiDocument())) as Parameters<typeof compareDocuments>[0];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(generated);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The validator does refuse what is not a document: a parameter that does not say where it goes.
    const broken = JSON.parse(JSON.stringify(generated)) as { paths: Record<string, Record<string, { parameters: Array<{ in?: string }> }>> };
    delete broken.paths['/api/photos/{id}/vote']!.post!.parameters[0]!.in;
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every route of the contract, with its parameters, body, answers and errors', () => {
    for (const [name, route] of Object.entries(routes)) {
      const operation = generated.paths?.[route.path]?.[route.method.toLowerCase()] as { operationId?: string; responses?: Record<string, unknown> } | undefined;
      expect(operation?.operationId, `${route.method} ${route.path}`).toBe(name);
      expect(Object.keys(operation?.responses ?? {}), name).toContain(String(route.ok.status));
      if (route.access !== 'public') expect(Object.keys(operation?.responses ?? {}), name).toContain('401');
    }
  });

  it('is the one committed in docs/openapi.json (run `pnpm openapi:write` after changing the API)', () => {
    const committed = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as typeof generated;
    if (isDeepStrictEqual(committed, generated)) return;
    const changes = compareDocuments(committed, generated);
    const breaking = changes.some((change) => change.breaking);
    throw new Error(
      `docs/openapi.json is not the document the code generates. ${breaking ? 'Some changes BREAK clients written against it' : 'No change breaks a client'}; ` +
        `run \`pnpm openapi:write\` to commit the new document${breaking ? ' only if breaking them is intended (and say so in the release notes)' : ''}.\n` +
        (describeChanges(changes) || 'Only descriptions or examples changed.'),
    );
  });
});
