// Writes each service's `calls` in snapcracks/values.yaml from SERVICE_PEERS (services/kit/src/call-graph.ts), the one
// statement of who calls whom, which Helm cannot read, then the chart README's values table:
//   pnpm exec tsx deploy/helm/values-calls.ts
// deploy/deploy.test.ts fails while values.yaml says otherwise.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SERVICE_PEERS } from '../../services/kit/src/call-graph.js';

export const VALUES_FILE = fileURLToPath(new URL('./snapcracks/values.yaml', import.meta.url));

/**
 * `values` (the text of values.yaml) with each service's `calls:` line under `services:` saying `peers`; everything
 * else, comments included, as it was. A service of `peers` without a `calls:` line is an error.
 */
export function withCalls(values: string, peers: Readonly<Record<string, readonly string[]>>): string {
  const written = new Set<string>();
  let inServices = false;
  let service: string | undefined;
  const lines = values.split('\n').map((line) => {
    if (/^\S/.test(line) && !line.startsWith('#')) {
      inServices = line.startsWith('services:');
      service = undefined;
      return line;
    }
    if (!inServices) return line;
    const key = /^ {2}([\w-]+):\s*$/.exec(line);
    if (key) service = key[1];
    const calls = /^( {4}calls:).*$/.exec(line);
    if (!calls || !service || !(service in peers)) return line;
    written.add(service);
    return `${calls[1]} [${peers[service]!.join(', ')}]`;
  });
  const missing = Object.keys(peers).filter((name) => !written.has(name));
  if (missing.length > 0) throw new Error(`values.yaml has no services.<name>.calls for ${missing.join(', ')}`);
  return lines.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const before = readFileSync(VALUES_FILE, 'utf8');
  const after = withCalls(before, SERVICE_PEERS);
  writeFileSync(VALUES_FILE, after);
  console.log(after === before ? 'values.yaml already says SERVICE_PEERS' : 'values.yaml now says SERVICE_PEERS');
  const table = spawnSync(process.execPath, [fileURLToPath(new URL('./values-table.mjs', import.meta.url))], { stdio: 'inherit' });
  process.exitCode = table.status ?? 1;
}
