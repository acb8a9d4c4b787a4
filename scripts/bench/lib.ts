/**
 * What the benchmarks share: the product started as `pnpm start` runs it (one process, on the machine's
 * PostgreSQL and NATS, rate limit out of the way), a signed-in session, and the product's memory.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { startProduct, type RunningProduct } from '../../services/all-in-one/e2e/product.js';
import { signIn } from '../../services/all-in-one/test/sign-in.js';

export type { RunningProduct };

/** Every rate limit out of the way: a benchmark from one address measures the product, not the limiter. */
export const UNLIMITED_RATES = {
  RATE_LIMIT_API: '100000000/1m',
  RATE_LIMIT_SIGN_IN: '100000000/1m',
  RATE_LIMIT_CONTACT: '100000000/1m',
  RATE_LIMIT_UPLOADS: '100000000/1m',
  RATE_LIMIT_VOTES: '100000000/1m',
  RATE_LIMIT_AVATARS: '100000000/1m',
  RATE_LIMIT_FACE_SUGGESTIONS: '100000000/1m',
  RATE_LIMIT_REPORTS: '100000000/1m',
  RATE_LIMIT_UPLOADS_IN_FLIGHT: '1000',
};

/** The administrator a benchmark signs in as to lift the upload allowances (benchmarks upload far more than 5 at once). */
const BENCH_ADMIN = { email: 'bench-admin@example.com', name: 'Bench Admin' };

/** Starts the product for a benchmark; `env` adds to (or overrides) the benchmark's settings. */
export async function startBenchProduct(env: Record<string, string> = {}): Promise<RunningProduct> {
  // As scripts/start.mjs and the image run it: glibc limited to two malloc arenas, unless set otherwise.
  const mallocArenaMax = process.env.MALLOC_ARENA_MAX ?? '2';
  const adminEmails = [BENCH_ADMIN.email, ...(env.ADMIN_EMAILS ? [env.ADMIN_EMAILS] : [])].join(',');
  const product = await startProduct({ LOG_LEVEL: 'error', ...UNLIMITED_RATES, MALLOC_ARENA_MAX: mallocArenaMax, ...env, ADMIN_EMAILS: adminEmails });
  await liftUploadAllowances(product.url);
  return product;
}

/** Sets every member's upload allowance to the largest an admin may, as an admin would in the admin panel. */
async function liftUploadAllowances(url: string): Promise<void> {
  const cookie = await signedInCookie(url, BENCH_ADMIN.email, BENCH_ADMIN.name);
  const headers = { cookie, 'content-type': 'application/json', origin: url };
  await fetch(`${url}/api/auth/accept-terms`, { method: 'POST', headers, body: JSON.stringify({ hasAcceptedTerms: true }) });
  const response = await fetch(`${url}/api/admin/upload-allowance`, {
    method: 'PUT',
    headers,
    body: JSON.stringify({ pendingLimit: 1000, trustedAfter: 1000, trustedPendingLimit: 1000 }),
  });
  if (!response.ok) throw new Error(`PUT /api/admin/upload-allowance answered ${response.status}: ${await response.text()}`);
}

/** Signs in through the development identity provider; returns the `cookie` header of that session. */
export async function signedInCookie(url: string, email: string, name: string): Promise<string> {
  const { browser } = await signIn(url, email, name);
  const sid = browser.cookie(url, 'snapcracks.sid');
  if (!sid) throw new Error(`Signing in as ${email} gave no session cookie`);
  return `snapcracks.sid=${sid}`;
}

/** A `Vm*` field of /proc/<pid>/status (VmRSS, VmHWM, …) in MB. */
export function procStatusMb(pid: number, field: string): number {
  const kb = new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  if (kb === undefined) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(kb) / 1024;
}

/** `pid` and every process under it (the product forks its media process), from /proc/<n>/stat. */
export function processTree(pid: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // The command name, in parentheses, may hold spaces: the fields after its closing parenthesis are fixed.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      parents.set(ppid, [...(parents.get(ppid) ?? []), Number(entry)]);
    } catch {
      // It ended while we looked.
    }
  }
  const tree = [pid];
  for (let i = 0; i < tree.length; i++) tree.push(...(parents.get(tree[i]!) ?? []));
  return tree;
}

/** A `Vm*` field summed over the product's processes; for VmHWM, the sum of each one's peak (an upper bound). */
export function treeStatusMb(pid: number, field: string): number {
  return processTree(pid).reduce((sum, member) => {
    try {
      return sum + procStatusMb(member, field);
    } catch {
      return sum;
    }
  }, 0);
}

/** The product's resident memory: its process and the processes it started. */
export const rssMb = (pid: number) => treeStatusMb(pid, 'VmRSS');

/** A whole-number setting from the environment, `fallback` when unset; anything else stops the benchmark. */
export function positiveInteger(name: string, fallback: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer, not ${raw}`);
  return value;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
export const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
