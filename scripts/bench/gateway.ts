/**
 * `pnpm bench`: throughput and memory of the product as `pnpm start` runs it (one process), on the
 * machine's PostgreSQL and NATS. Prints figures; asserts nothing. Each endpoint gets a warm-up and then
 * DURATION seconds (default 10) of load from CONNECTIONS (default 50) keep-alive connections.
 */
import autocannon from 'autocannon';
import { rssMb, signedInCookie, startBenchProduct } from './lib.js';

const duration = Number(process.env.DURATION ?? 10);
const connections = Number(process.env.CONNECTIONS ?? 50);

async function load(title: string, url: string, headers: Record<string, string> = {}) {
  await autocannon({ url, connections, duration: 2, headers });
  const result = await autocannon({ url, connections, duration, headers });
  const errors = result.non2xx + result.errors + result.timeouts;
  console.log(
    `${title.padEnd(34)} ${result.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(result.latency.p50).padStart(4)} ms   p99 ${String(result.latency.p99).padStart(4)} ms   errors ${errors}`,
  );
}

const product = await startBenchProduct();
try {
  console.log(`Snap Cracks gateway benchmark: ${connections} connections, ${duration} s per endpoint, RSS at start ${rssMb(product.pid).toFixed(0)} MB\n`);
  const cookie = await signedInCookie(product.url, 'bench@example.com', 'Ben Chmark');
  await load('GET /healthz', `${product.url}/healthz`);
  await load('GET / (the web app)', `${product.url}/`);
  await load('GET /api/auth/user (signed out)', `${product.url}/api/auth/user`);
  await load('GET /api/auth/user (signed in)', `${product.url}/api/auth/user`, { cookie });
  console.log(`\nRSS after load: ${rssMb(product.pid).toFixed(0)} MB`);
} finally {
  await product.stop();
}
