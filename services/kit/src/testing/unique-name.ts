import { randomUUID } from 'node:crypto';

/** `<prefix>_<random>` in lower case letters, digits and `_`, valid as a database, schema or stream name. */
export function uniqueTestName(prefix: string): string {
  const suffix = randomUUID().replaceAll('-', '').slice(0, 12);
  return `${prefix}_${suffix}`.toLowerCase().replaceAll(/[^a-z0-9_]/g, '_');
}
