/**
 * `npx tsx scripts/bench/shutdown.ts`: how the product stops under load, as `pnpm start` runs it (one process) on the machine's
 * PostgreSQL and NATS. CONNECTIONS (default 50) keep-alive clients call the API (signed-in user, photo previews,
 * readiness) for a few seconds, then the process gets SIGTERM mid-load. Prints the time to exit and what became of
 * the requests that were in flight at the signal and of those sent after it. Prints figures; asserts nothing.
 */
import http from 'node:http';
import { signedInCookie, startBenchProduct } from './lib.js';

const connections = Number(process.env.CONNECTIONS ?? 50);
const loadBeforeMs = Number(process.env.LOAD_BEFORE_MS ?? 4_000);

interface Outcome {
  startedAt: number;
  endedAt: number;
  status: number | string;
}

// The stop's own log (each step that overran, and the total) is printed after the figures.
const product = await startBenchProduct({ LOG_LEVEL: 'info', ...(process.env.SHUTDOWN_TIMEOUT_MS ? { SHUTDOWN_TIMEOUT_MS: process.env.SHUTDOWN_TIMEOUT_MS } : {}) });
try {
  const cookie = await signedInCookie(product.url, 'shutdown@example.com', 'Shut Down');
  const paths: [string, Record<string, string>][] = [
    ['/api/auth/user', { cookie }],
    ['/api/photos?limit=12', {}],
    ['/api/auth/user', {}],
    ['/readyz', {}],
  ];
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const get = (path: string, headers: Record<string, string>) =>
    new Promise<number>((resolve, reject) => {
      const req = http.get(`${product.url}${path}`, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      req.on('error', reject);
      req.setTimeout(30_000, () => req.destroy(new Error('timeout')));
    });
  const outcomes: Outcome[] = [];
  let signalAt = Infinity;
  let stop = false;
  const client = async (index: number) => {
    for (let i = index; !stop; i++) {
      const [path, headers] = paths[i % paths.length]!;
      const startedAt = performance.now();
      let status: number | string;
      try {
        status = await get(path, headers);
      } catch (error) {
        status = (error as NodeJS.ErrnoException).code ?? (error as Error).name;
        // Nothing listens any more: this client is done.
        if (status === 'ECONNREFUSED') stop ||= performance.now() - signalAt > 100;
      }
      outcomes.push({ startedAt, endedAt: performance.now(), status });
    }
  };
  const clients = Array.from({ length: connections }, (_, i) => client(i));
  await new Promise((resolve) => setTimeout(resolve, loadBeforeMs));

  signalAt = performance.now();
  process.kill(product.pid, 'SIGTERM');
  while (product.exitCode() === null) await new Promise((resolve) => setTimeout(resolve, 5));
  const exitedAfterMs = performance.now() - signalAt;
  stop = true;
  await Promise.all(clients);
  agent.destroy();

  const tally = (list: Outcome[]) => {
    const counts = new Map<string, number>();
    for (const o of list) counts.set(String(o.status), (counts.get(String(o.status)) ?? 0) + 1);
    return [...counts].sort().map(([k, v]) => `${k}: ${v}`).join(', ') || 'none';
  };
  const before = outcomes.filter((o) => o.endedAt < signalAt);
  const inFlight = outcomes.filter((o) => o.startedAt < signalAt && o.endedAt >= signalAt);
  const after = outcomes.filter((o) => o.startedAt >= signalAt);
  const lastInFlight = Math.max(0, ...inFlight.map((o) => o.endedAt - signalAt));
  console.log(`Snap Cracks shutdown under load: ${connections} connections, SIGTERM after ${loadBeforeMs} ms of load`);
  console.log(`  requests before the signal: ${before.length} (${(before.length / (loadBeforeMs / 1000)).toFixed(0)} req/s; ${tally(before)})`);
  console.log(`  in flight at the signal:    ${inFlight.length} (${tally(inFlight)}), the last answered ${lastInFlight.toFixed(0)} ms after it`);
  console.log(`  sent after the signal:      ${after.length} (${tally(after)})`);
  console.log(`  exit code ${product.exitCode()}, ${exitedAfterMs.toFixed(0)} ms after SIGTERM`);
  const stopLog = product
    .output()
    .split('\n')
    .filter((line) => /shutting down|shutdown step|"stopped"|second signal/.test(line));
  if (stopLog.length) console.log(`\n${stopLog.join('\n')}`);
} finally {
  await product.stop();
}
