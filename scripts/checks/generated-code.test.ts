import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { COMPONENTS, componentDir } from '../db/components.js';

const root = fileURLToPath(new URL('../..', import.meta.url));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

describe('committed generated code', () => {
  it('the TypeScript in proto/gen is what `pnpm proto:gen` makes from the .proto files', { timeout: 60_000 }, () => {
    const out = mkdtempSync(join(tmpdir(), 'proto-gen-'));
    execFileSync(join(root, 'proto/node_modules/.bin/buf'), ['generate', '--output', out], { cwd: join(root, 'proto') });
    const committed = join(root, 'proto/gen');
    const fresh = join(out, 'gen');
    const list = (dir: string) => files(dir).map((f) => relative(dir, f)).sort();
    expect(list(fresh)).toEqual(list(committed));
    for (const file of list(fresh)) expect(readFileSync(join(fresh, file), 'utf8'), file).toBe(readFileSync(join(committed, file), 'utf8'));
  });

  it.each(COMPONENTS)('%s: the Prisma schema has no change without a migration (run pnpm db:migration)', (component) => {
    const dir = componentDir(component);
    const schema = readFileSync(join(dir, 'prisma/schema.prisma'), 'utf8');
    const snapshot = readFileSync(join(dir, 'prisma/migrations/schema.snapshot.prisma'), 'utf8');
    expect(schema).toBe(snapshot);
  });
});
