/** Where the committed OpenAPI document lives: beside the docs, for people and client generators to read. */
export const OPENAPI_FILE = new URL('../../../../docs/openapi.json', import.meta.url);

/** The document as it is committed: two-space JSON with a final newline. */
export function serializeDocument(document: unknown): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
