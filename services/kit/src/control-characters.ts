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

const MAX_PATH_LENGTH = 200;

/**
 * Where in `value` (parsed JSON, a query, a gRPC message) the first string holding a control character sits, e.g.
 * `bars.0.label`, or `(root)` for a string itself; undefined when there is none. Bytes (uploads) are not text.
 *
 * Depth first in key order, with a stack of its own rather than recursion: a JSON body of a few hundred kilobytes can
 * nest arrays a hundred thousand deep, which would overflow the call stack (a 500) and, with each level's path
 * written out, cost time quadratic in the depth. The path is written only for the string it names.
 */
export function findControlCharacters(value: unknown): string | undefined {
  if (typeof value === 'string') return hasControlCharacters(value) ? '(root)' : undefined;
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return undefined;
  // Most of what is checked (a route's parameters, a query, a small body) is one level of strings: checked in place,
  // until a field holds more, when the walk below starts over (it names the first field in key order, depth first).
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const field = (value as Record<string, unknown>)[key];
    if (typeof field === 'object' && field !== null) return findNested(value);
    if (hasControlCharacters(key) || (typeof field === 'string' && hasControlCharacters(field))) return pathOf({ key, value: field, parent: undefined });
  }
  return undefined;
}

interface Entry {
  key: string;
  value: unknown;
  parent: Entry | undefined;
}

function pathOf(entry: Entry): string {
  const keys: string[] = [];
  for (let at: Entry | undefined = entry; at; at = at.parent) keys.push(at.key);
  const path = keys.reverse().join('.');
  // A message names the field, not a hundred thousand array indexes.
  return path.length > MAX_PATH_LENGTH ? `${path.slice(0, MAX_PATH_LENGTH)}…` : path;
}

function pushChildren(pending: Entry[], container: unknown, parent: Entry | undefined): void {
  if (typeof container !== 'object' || container === null || ArrayBuffer.isView(container)) return;
  const entries = Object.entries(container);
  // Reversed, so the first key comes off the stack first.
  for (let i = entries.length - 1; i >= 0; i--) pending.push({ key: entries[i]![0], value: entries[i]![1], parent });
}

function findNested(value: object): string | undefined {
  const pending: Entry[] = [];
  pushChildren(pending, value, undefined);
  for (let entry = pending.pop(); entry; entry = pending.pop()) {
    if (hasControlCharacters(entry.key)) return pathOf(entry);
    if (typeof entry.value === 'string') {
      if (hasControlCharacters(entry.value)) return pathOf(entry);
    } else pushChildren(pending, entry.value, entry);
  }
  return undefined;
}

/** The message a refusal gives, naming the field. */
export const controlCharactersMessage = (field: string) => `${field} must not contain control characters`;
