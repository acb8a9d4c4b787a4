/**
 * `tsx scripts/bench/cpuprofile-summary.ts FILE.cpuprofile [--top N] [--match TEXT]`: where a Node CPU profile's time
 * went (from `node --cpu-prof`, e.g. `pnpm bench:gallery --only need-your-vote --profile /tmp/prof`):
 *
 * - by package: the product's own code per workspace package, each node_modules package, Node's internals, the GC,
 *   idle time; then the time each package is anywhere on the stack (its callees included, but not its async callers);
 * - the functions with the most self time (file:line function), and the product's own functions with the most total
 *   time (self plus everything they call), each as a share of the busy (non-idle) time.
 *
 * With --match, only samples whose stack has a frame whose file or function contains TEXT count (e.g. gallery.routes);
 * with --last N, only the profile's last N seconds (the load, without the start-up before it).
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { frameLabel as label, repositoryRoot as root, type CallFrame } from './profile-frames.js';

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const { values, positionals } = parseArgs({ allowPositionals: true, options: { top: { type: 'string', default: '25' }, match: { type: 'string' }, last: { type: 'string' } } });
if (!positionals[0]) {
  console.error('tsx scripts/bench/cpuprofile-summary.ts FILE.cpuprofile [--top N] [--match TEXT] [--last SECONDS]');
  process.exit(64);
}
const top = Number(values.top);
const profile = JSON.parse(readFileSync(positionals[0], 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

function bucket(frame: CallFrame): string {
  const name = frame.functionName;
  if (name === '(idle)' || name === '(program)' || name === '(garbage collector)') return name;
  const url = frame.url.replace(/^file:\/\//, '');
  if (!url) return '(native/V8)';
  if (url.startsWith('node:')) return 'node: internals';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
  if (pnpm) return `npm ${pnpm[1]}`;
  if (url.startsWith(root)) {
    const own = /^(gateway|services\/[^/]+|proto|scripts)\//.exec(url.slice(root.length));
    return own ? `own ${own[1]}` : 'own (other)';
  }
  return url;
}


// Sample weights: each sample's time is the delta to the next one.
const self = new Map<number, number>();
let total = 0;
let counted = 0;
const match = values.match;
const stackOf = (id: number): ProfileNode[] => {
  const stack: ProfileNode[] = [];
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
  return stack;
};
const inclusive = new Map<string, number>();
const onStack = new Map<string, number>();
// Sample i happened at the sum of the deltas up to it.
const at: number[] = [];
for (let i = 0, t = 0; i < profile.timeDeltas.length; i += 1) at.push((t += profile.timeDeltas[i]!));
const from = values.last ? at[at.length - 1]! - Number(values.last) * 1e6 : -Infinity;
for (let i = 0; i < profile.samples.length; i += 1) {
  if (at[i]! < from) continue;
  const id = profile.samples[i]!;
  const ms = (profile.timeDeltas[i + 1] ?? profile.timeDeltas[i] ?? 0) / 1000;
  total += ms;
  const stack = stackOf(id);
  if (match && !stack.some((n) => n.callFrame.url.includes(match) || n.callFrame.functionName.includes(match))) continue;
  counted += ms;
  self.set(id, (self.get(id) ?? 0) + ms);
  // Time with each package anywhere on the stack (once per sample).
  for (const name of new Set(stack.map((n) => bucket(n.callFrame)))) onStack.set(name, (onStack.get(name) ?? 0) + ms);
  // Total time per own function, each function once per sample however deep it recurses.
  const seen = new Set<string>();
  for (const node of stack) {
    if (!node.callFrame.url.includes(root) || node.callFrame.url.includes('node_modules')) continue;
    const key = label(node.callFrame);
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
  }
}

const buckets = new Map<string, number>();
const functions = new Map<string, number>();
for (const [id, ms] of self) {
  const frame = byId.get(id)!.callFrame;
  buckets.set(bucket(frame), (buckets.get(bucket(frame)) ?? 0) + ms);
  if (!['(idle)', '(program)', '(garbage collector)'].includes(frame.functionName)) functions.set(label(frame), (functions.get(label(frame)) ?? 0) + ms);
}
const idle = buckets.get('(idle)') ?? 0;
const busy = counted - idle;
const share = (ms: number) => `${((100 * ms) / busy).toFixed(1).padStart(5)} %`;
const sorted = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);

console.log(`${positionals[0]}: ${(total / 1000).toFixed(1)} s profiled${match ? `, ${(counted / 1000).toFixed(1)} s with ${match} on the stack` : ''}, ${(busy / 1000).toFixed(1)} s busy (shares below are of busy time)\n`);
console.log('Self time by package');
for (const [name, ms] of sorted(buckets)) if (name !== '(idle)') console.log(`  ${share(ms)}  ${name}`);
console.log('\nTime with the package anywhere on the stack (async callers are not on it)');
for (const [name, ms] of sorted(onStack)) if (!name.startsWith('(') && ms / busy >= 0.005) console.log(`  ${share(ms)}  ${name}`);
console.log(`\nTop ${top} functions by self time`);
for (const [name, ms] of sorted(functions).slice(0, top)) console.log(`  ${share(ms)}  ${name}`);
console.log(`\nTop ${top} of the product's own functions by total time (self + callees)`);
for (const [name, ms] of sorted(inclusive).slice(0, top)) console.log(`  ${share(ms)}  ${name}`);
