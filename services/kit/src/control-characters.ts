/**
 * Text everywhere in the product refuses control characters: PostgreSQL cannot store NUL in text at all (a NUL was a
 * 500 after half the work was done), and the others have no business in names, descriptions or messages. Tab, line
 * feed and carriage return stay allowed (multi-line text); the field's own rules may refuse them where it is one line.
 */
export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 ? code !== 0x09 && code !== 0x0a && code !== 0x0d : code === 0x7f) return true;
  }
  return false;
}

/**
 * Where in `value` (parsed JSON, a query, a gRPC message) the first string holding a control character sits, e.g.
 * `bars.0.label`, or `(root)` for a string itself; undefined when there is none. Bytes (uploads) are not text.
 */
export function findControlCharacters(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return hasControlCharacters(value) ? path || '(root)' : undefined;
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  for (const [key, child] of Object.entries(value)) {
    const childPath = path ? `${path}.${key}` : key;
    if (hasControlCharacters(key)) return childPath;
    const found = findControlCharacters(child, childPath);
    if (found) return found;
  }
  return undefined;
}

/** The message a refusal gives, naming the field. */
export const controlCharactersMessage = (field: string) => `${field} must not contain control characters`;
