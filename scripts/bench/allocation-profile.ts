/**
 * `tsx scripts/bench/allocation-profile.ts --port 9230 [--wait-for FILE:TEXT] [--seconds 15] [--out FILE] [--top N]`:
 * what a running product allocates, garbage included, and where: V8's sampling heap profiler on the process's main
 * thread and every worker thread (the all-in-one's services thread), started and stopped over the inspector.
 * `--port` is the product's inspector, e.g. `pnpm bench:gallery --only vote-random --inspect 9230` (all-in-one).
 * `--wait-for` starts sampling once FILE (the benchmark's output, say) contains TEXT, e.g. "signed in", so the window
 * is the load rather than the start-up. Profiles of live objects only (`--heap-prof`) show what is kept, never the
 * churn that garbage collection spends its time on; this counts both.
 *
 * Runs on Node 22 or later (`~/.cache/snapcracks/node-24/bin/node --import tsx scripts/bench/allocation-profile.ts …`).
 * Prints, per thread, the megabytes sampled and the allocating functions with their callers, each as a share of the
 * thread's allocations; `--out` keeps the raw profiles (`tsx … --summarize FILE` prints them again).
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { frameLabel, type CallFrame } from './profile-frames.js';

interface SamplingNode {
  callFrame: CallFrame;
  selfSize: number;
  children: SamplingNode[];
}
interface SamplingProfile {
  head: SamplingNode;
}
/** An inspector protocol message: a call's answer (id), an event (method), or a worker's message wrapped in one. */
interface ProtocolMessage {
  id?: number;
  method?: string;
  params?: { sessionId?: string; message?: string };
  result?: { profile?: SamplingProfile };
  error?: { message: string };
}
type Send = (method: string, params?: Record<string, unknown>) => Promise<ProtocolMessage>;

const { values } = parseArgs({
  options: {
    port: { type: 'string' },
    'wait-for': { type: 'string' },
    seconds: { type: 'string', default: '15' },
    out: { type: 'string' },
    top: { type: 'string', default: '25' },
    summarize: { type: 'string' },
  },
});
const top = Number(values.top);

if (values.summarize) {
  summarize(JSON.parse(readFileSync(values.summarize, 'utf8')) as Record<string, SamplingProfile>, Number(values.seconds));
} else if (values.port && typeof WebSocket === 'undefined') {
  console.error('This needs Node 22 or later (its WebSocket client), e.g. the Node 24 the benchmark runs the product on.');
  process.exit(69);
} else if (values.port) {
  const profiles = await sample(Number(values.port), Number(values.seconds), values['wait-for']);
  if (values.out) writeFileSync(values.out, JSON.stringify(profiles));
  summarize(profiles, Number(values.seconds));
} else {
  console.error('Usage: tsx scripts/bench/allocation-profile.ts --port N [--wait-for FILE:TEXT] [--seconds S] [--out FILE] [--top N] | --summarize FILE');
  process.exit(64);
}

/** Samples every thread of the process behind the inspector on `port` for `seconds`. */
async function sample(port: number, seconds: number, waitFor?: string): Promise<Record<string, SamplingProfile>> {
  if (waitFor) await until(waitFor);
  const [target] = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as { webSocketDebuggerUrl: string }[];
  const socket = new WebSocket(target!.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.addEventListener('open', resolve);
    socket.addEventListener('error', reject);
  });
  let lastId = 0;
  const answers = new Map<number, (message: ProtocolMessage) => void>();
  const workers: string[] = [];
  socket.addEventListener('message', (event) => {
    const message = JSON.parse(String(event.data)) as ProtocolMessage;
    if (message.method === 'NodeWorker.attachedToWorker') workers.push(message.params!.sessionId!);
    // A worker's answers arrive wrapped, with the id the request carried inside.
    const answer = message.method === 'NodeWorker.receivedMessageFromWorker' ? (JSON.parse(message.params!.message!) as ProtocolMessage) : message;
    if (answer.id === undefined) return;
    answers.get(answer.id)?.(answer);
    answers.delete(answer.id);
  });
  const request = (build: (id: number) => string) =>
    new Promise<ProtocolMessage>((resolve) => {
      const id = ++lastId;
      answers.set(id, resolve);
      socket.send(build(id));
    });
  const main: Send = (method, params = {}) => request((id) => JSON.stringify({ id, method, params }));
  const inWorker = (sessionId: string): Send => (method, params = {}) =>
    request((id) => JSON.stringify({ id: ++lastId, method: 'NodeWorker.sendMessageToWorker', params: { sessionId, message: JSON.stringify({ id, method, params }) } }));

  await main('NodeWorker.enable', { waitForDebuggerOnStart: false });
  await new Promise((resolve) => setTimeout(resolve, 500)); // the workers already running announce themselves
  const threads: [string, Send][] = [['main', main], ...workers.map((session, i): [string, Send] => [`worker ${i + 1}`, inWorker(session)])];
  const options = { samplingInterval: 8192, includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true };
  for (const [name, send] of threads) {
    await send('HeapProfiler.enable');
    const started = await send('HeapProfiler.startSampling', options);
    if (started.error) throw new Error(`${name}: ${started.error.message}`);
  }
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  const profiles: Record<string, SamplingProfile> = {};
  for (const [name, send] of threads) profiles[name] = (await send('HeapProfiler.stopSampling')).result!.profile!;
  socket.close();
  return profiles;
}

/** Resolves once the file in `spec` (FILE:TEXT) contains the text. */
async function until(spec: string): Promise<void> {
  const split = spec.lastIndexOf(':');
  const [file, text] = [spec.slice(0, split), spec.slice(split + 1)];
  while (!(existsSync(file) && readFileSync(file, 'utf8').includes(text))) await new Promise((resolve) => setTimeout(resolve, 250));
}

function summarize(profiles: Record<string, SamplingProfile>, seconds: number): void {
  for (const [thread, profile] of Object.entries(profiles)) {
    const bySite = new Map<string, number>();
    let total = 0;
    const walk = (node: SamplingNode, caller: string) => {
      const name = frameLabel(node.callFrame);
      if (node.selfSize > 0) {
        const site = `${name}  ← ${caller}`;
        bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
        total += node.selfSize;
      }
      for (const child of node.children) walk(child, name);
    };
    walk(profile.head, '(root)');
    if (total < 1e6) continue; // a thread that did nothing in the window (a tooling worker)
    console.log(`\n${thread}: ${(total / 1e6).toFixed(0)} MB allocated in ${seconds} s (${(total / 1e6 / seconds).toFixed(1)} MB/s)`);
    for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, top)) {
      console.log(`  ${((100 * bytes) / total).toFixed(1).padStart(5)} %  ${site}`);
    }
  }
}
