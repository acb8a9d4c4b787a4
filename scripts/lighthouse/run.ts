/**
 * `pnpm lighthouse [options] [path-or-url …]`: Lighthouse's desktop and mobile runs against a running
 * product (`pnpm start`), printing each category's score and the main performance metrics per URL, next to
 * the targets (every category ≥ 95 on desktop, performance ≥ 90 on mobile; not the SEO of a member or admin screen
 * whose only SEO finding is that robots.txt keeps crawlers out, as it should, marked `r`). A missed target is a
 * figure, not a failure, unless --check is given.
 *
 *   --base URL        the running product (default http://localhost:8080, or LIGHTHOUSE_BASE_URL)
 *   --runs N          runs per URL and preset; the median of each score is printed (default 1)
 *   --sign-in EMAIL   measure signed in: sign in through the development identity provider as EMAIL, accept
 *                     the terms, and send that session's cookie with every request
 *   --seed N          first upload N generated photos as that user and approve them, so the gallery has
 *                     something to show (start the product with ADMIN_EMAILS=EMAIL)
 *   --check           exit 1 when a target is missed
 *   --json FILE       also write every run's scores and metrics to FILE
 *   --reports DIR     also keep each run's full Lighthouse report (JSON) in DIR
 *
 * Paths default to / and /legal. Chromium comes from CHROME_PATH (default /usr/bin/chromium); Lighthouse
 * itself is a root devDependency and downloads nothing.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { signIn } from '../../services/all-in-one/test/sign-in.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const;
const METRICS = {
  FCP: 'first-contentful-paint',
  LCP: 'largest-contentful-paint',
  TBT: 'total-blocking-time',
  CLS: 'cumulative-layout-shift',
  SI: 'speed-index',
} as const;
type Category = (typeof CATEGORIES)[number];
type Preset = 'desktop' | 'mobile';
const TARGETS: Record<Preset, Partial<Record<Category, number>>> = {
  desktop: { performance: 95, accessibility: 95, 'best-practices': 95, seo: 95 },
  mobile: { performance: 90 },
};

interface Run {
  url: string;
  preset: Preset;
  scores: Record<Category, number>;
  metrics: Record<keyof typeof METRICS, string>;
  /** Lighthouse's CPU benchmark of the host during the run: lower means a slower or busier machine. */
  benchmarkIndex: number;
  /**
   * The only SEO finding is that robots.txt keeps crawlers out: true of the member and admin screens, which ask
   * visitors to sign in and which the product's robots.txt disallows on purpose. Their SEO score is not a target.
   */
  keptOutByRobots: boolean;
  /** Bytes of JavaScript transferred and decoded (uncompressed), from the network requests. */
  script: { transferred: number; decoded: number; files: string[] };
}

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    base: { type: 'string', default: process.env.LIGHTHOUSE_BASE_URL ?? 'http://localhost:8080' },
    runs: { type: 'string', default: '1' },
    'sign-in': { type: 'string' },
    seed: { type: 'string', default: '0' },
    check: { type: 'boolean', default: false },
    json: { type: 'string' },
    reports: { type: 'string' },
  },
});

const base = options.base.replace(/\/$/, '');
const runs = positiveInteger('--runs', options.runs, 1);
const seed = positiveInteger('--seed', options.seed, 0);
const chromePath = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const urls = (positionals.length ? positionals : ['/', '/legal']).map((target) => new URL(target, `${base}/`).href);

function positiveInteger(name: string, raw: string, min: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min) throw new Error(`${name} must be a whole number ≥ ${min}, not ${raw}`);
  return value;
}

const results: Run[] = [];
let headerPrinted = false;
await main();

async function main(): Promise<void> {
  if (!existsSync(chromePath)) throw new Error(`No Chromium at ${chromePath}: apt-get install chromium, or set CHROME_PATH`);
  if (!(await fetch(`${base}/readyz`).then((r) => r.ok, () => false))) throw new Error(`Nothing ready at ${base}: start the product with pnpm start`);
  if (seed && !options['sign-in']) throw new Error("--seed needs --sign-in (an email listed in the product's ADMIN_EMAILS)");

  const cookie = options['sign-in'] ? await signedInSession(options['sign-in']) : undefined;
  if (cookie && seed) await seedPhotos(cookie, seed);

  for (const url of urls) {
    for (const preset of ['desktop', 'mobile'] as const) {
      const attempts: Run[] = [];
      for (let attempt = 0; attempt < runs; attempt += 1) attempts.push(await lighthouseWithRetry(url, preset, cookie));
      results.push(...attempts);
      print(median(attempts));
    }
  }
  if (options.json) writeFileSync(options.json, `${JSON.stringify(results, null, 2)}\n`);

  if (results.some((run) => run.keptOutByRobots && run.scores.seo < 100)) {
    console.log("\nr: robots.txt keeps this member or admin page out of search engines on purpose; that is its only SEO finding.");
  }
  const missed = summaryMisses();
  if (missed.length) {
    console.log(`\nMissed targets:\n${missed.map((line) => `  ${line}`).join('\n')}`);
    if (options.check) process.exitCode = 1;
  } else {
    console.log('\nEvery target met.');
  }
}

// ---------------------------------------------------------------------------------------------------

/** Lighthouse sometimes loses the trace of a load on a busy machine (NO_NAVSTART, NO_FCP): try twice more. */
async function lighthouseWithRetry(url: string, preset: Preset, sessionCookie: string | undefined): Promise<Run> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await lighthouse(url, preset, sessionCookie);
    } catch (error) {
      if (attempt === 3) throw error;
      console.error(`  (retrying ${new URL(url).pathname} ${preset}: ${(error as Error).message.split('\n').slice(-1)[0]})`);
    }
  }
}

async function lighthouse(url: string, preset: Preset, sessionCookie: string | undefined): Promise<Run> {
  const args = [
    url,
    '--output=json',
    '--output-path=stdout',
    '--quiet',
    '--no-enable-error-reporting',
    `--only-categories=${CATEGORIES.join(',')}`,
    // Root in a container needs --no-sandbox; /dev/shm is small there.
    '--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage',
    ...(preset === 'desktop' ? ['--preset=desktop'] : []),
    ...(sessionCookie ? [`--extra-headers=${JSON.stringify({ Cookie: sessionCookie })}`] : []),
  ];
  const output = await new Promise<string>((resolve, reject) => {
    const child = spawn(process.execPath, [lighthouseCli(), ...args], { env: { ...process.env, CHROME_PATH: chromePath }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(stdout) : reject(new Error(`Lighthouse exited with ${code} for ${url} (${preset}):\n${stderr}`))));
  });
  const report = JSON.parse(output) as LighthouseReport;
  if (options.reports) {
    mkdirSync(options.reports, { recursive: true });
    const name = `${new URL(url).pathname.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'root'}.${preset}.${Date.now()}.json`;
    writeFileSync(join(options.reports, name), output);
  }
  if (report.runtimeError) throw new Error(`Lighthouse could not load ${url}: ${report.runtimeError.message}`);
  const scripts = (report.audits['network-requests']?.details?.items ?? []).filter((item) => item.resourceType === 'Script');
  return {
    url,
    preset,
    scores: Object.fromEntries(CATEGORIES.map((category) => [category, Math.round((report.categories[category]?.score ?? 0) * 100)])) as Run['scores'],
    benchmarkIndex: Math.round(report.environment.benchmarkIndex),
    keptOutByRobots: failedAudits(report, 'seo').join() === 'is-crawlable',
    metrics: Object.fromEntries(Object.entries(METRICS).map(([name, id]) => [name, report.audits[id]?.displayValue ?? '?'])) as Run['metrics'],
    script: {
      transferred: scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0),
      decoded: scripts.reduce((sum, item) => sum + (item.resourceSize ?? 0), 0),
      files: scripts.map((item) => new URL(item.url).pathname),
    },
  };
}

interface LighthouseReport {
  runtimeError?: { message: string };
  environment: { benchmarkIndex: number };
  categories: Partial<Record<Category, { score: number | null; auditRefs?: { id: string; weight: number }[] }>>;
  audits: Record<
    string,
    { score?: number | null; displayValue?: string; details?: { items?: { url: string; resourceType?: string; transferSize?: number; resourceSize?: number }[] } }
  >;
}

/** The weighted audits of `category` that did not pass. */
function failedAudits(report: LighthouseReport, category: Category): string[] {
  return (report.categories[category]?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && typeof report.audits[ref.id]?.score === 'number' && report.audits[ref.id]!.score! < 1)
    .map((ref) => ref.id);
}

/** Whether `category`'s score counts against its target in `run` (not the SEO of a page robots.txt keeps out). */
function isTarget(run: Run, category: Category): boolean {
  return !(category === 'seo' && run.keptOutByRobots);
}

function lighthouseCli(): string {
  // The package's exports do not include its CLI; resolve it from the package's directory.
  const require = createRequire(`${root}/package.json`);
  const packageJson = require.resolve('lighthouse/package.json', { paths: [root] });
  return packageJson.replace(/package\.json$/, 'cli/index.js');
}

/** The run with the median performance score, so its metrics belong together. */
function median(attempts: Run[]): Run {
  const sorted = [...attempts].sort((a, b) => a.scores.performance - b.scores.performance);
  const middle = sorted[Math.floor(sorted.length / 2)]!;
  const medianOf = (category: Category) => {
    const values = attempts.map((run) => run.scores[category]).sort((a, b) => a - b);
    return values[Math.floor(values.length / 2)]!;
  };
  return { ...middle, scores: Object.fromEntries(CATEGORIES.map((category) => [category, medianOf(category)])) as Run['scores'] };
}

function print(run: Run): void {
  if (!headerPrinted) {
    console.log(
      `${'URL'.padEnd(36)} ${'preset'.padEnd(7)} perf a11y best  seo | ${Object.keys(METRICS).map((name) => name.padStart(8)).join(' ')} | JS transferred / decoded | host CPU index`,
    );
    headerPrinted = true;
  }
  const scores = CATEGORIES.map((category) => {
    const target = TARGETS[run.preset][category];
    const mark = target === undefined || run.scores[category] >= target ? ' ' : isTarget(run, category) ? '!' : 'r';
    return `${String(run.scores[category]).padStart(3)}${mark}`;
  }).join(' ');
  const metrics = Object.keys(METRICS).map((name) => run.metrics[name as keyof typeof METRICS].replace(/\s/g, '').padStart(8)).join(' ');
  const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
  console.log(`${new URL(run.url).pathname.padEnd(36)} ${run.preset.padEnd(7)} ${scores} | ${metrics} | ${kb(run.script.transferred)} / ${kb(run.script.decoded)} | ${run.benchmarkIndex}`);
}

function summaryMisses(): string[] {
  const misses: string[] = [];
  for (const url of urls) {
    for (const preset of ['desktop', 'mobile'] as const) {
      const run = median(results.filter((r) => r.url === url && r.preset === preset));
      for (const [category, target] of Object.entries(TARGETS[preset]) as [Category, number][]) {
        if (run.scores[category] < target && isTarget(run, category)) misses.push(`${new URL(url).pathname} ${preset} ${category}: ${run.scores[category]} < ${target}`);
      }
    }
  }
  return misses;
}

// ---------------------------------------------------------------------------------------------------
// Signed in: a session from the development identity provider, with the terms accepted.

async function signedInSession(email: string): Promise<string> {
  const { browser } = await signIn(base, email, email.split('@')[0] ?? email);
  const sid = browser.cookie(base, 'snapcracks.sid');
  if (!sid) throw new Error(`Signing in as ${email} gave no session cookie (is the development identity provider running?)`);
  const sessionCookie = `snapcracks.sid=${sid}`;
  await api(sessionCookie, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true });
  return sessionCookie;
}

async function api(sessionCookie: string, method: string, path: string, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { cookie: sessionCookie, origin: base };
  let payload: BodyInit | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const response = await fetch(`${base}${path}`, { method, headers, body: payload });
  if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${await response.text()}`);
  return response.status === 204 ? undefined : response.json();
}

/** The part of sharp this script uses (sharp is the storage service's dependency, not the root's). */
type Sharp = (input: {
  create: { width: number; height: number; channels: 3; background: { r: number; g: number; b: number }; noise: { type: 'gaussian'; mean: number; sigma: number } };
}) => { composite(layers: { input: Buffer }[]): { jpeg(options: { quality: number }): { toBuffer(): Promise<Buffer> } } };

/** Uploads `count` generated photos of cracked concrete and approves them. */
async function seedPhotos(sessionCookie: string, count: number): Promise<void> {
  // sharp belongs to the storage service; this script only uses it to make its photos.
  const sharp = createRequire(new URL('../../services/storage/package.json', import.meta.url))('sharp') as Sharp;
  for (let index = 0; index < count; index += 1) {
    const photo = await crackedConcrete(sharp, index);
    const form = new FormData();
    form.append('description', `Lighthouse sample crack ${index + 1}`);
    form.append('photo', new Blob([new Uint8Array(photo)], { type: 'image/jpeg' }), `crack-${index + 1}.jpg`);
    const uploaded = (await api(sessionCookie, 'POST', '/api/photos', form)) as { id: string };
    await api(sessionCookie, 'PATCH', `/api/admin/photos/${uploaded.id}/status`, { status: 'approved' });
  }
  // Approvals reach the gallery's read models through events.
  await new Promise((resolve) => setTimeout(resolve, 2000));
  console.log(`Uploaded and approved ${count} photos.\n`);
}

async function crackedConcrete(sharp: Sharp, index: number): Promise<Buffer> {
  const width = 2400;
  const height = 1800;
  let seedValue = 1000 + index;
  const random = () => {
    seedValue = (seedValue * 16807) % 2147483647;
    return seedValue / 2147483647;
  };
  const cracks: string[] = [];
  for (let crack = 0; crack < 4; crack += 1) {
    let x = random() * width;
    let y = random() * height;
    let angle = random() * Math.PI * 2;
    const points = [`${x.toFixed(0)},${y.toFixed(0)}`];
    for (let step = 0; step < 80; step += 1) {
      angle += (random() - 0.5) * 0.9;
      x += Math.cos(angle) * (20 + random() * 40);
      y += Math.sin(angle) * (20 + random() * 40);
      points.push(`${x.toFixed(0)},${y.toFixed(0)}`);
    }
    cracks.push(`<polyline points="${points.join(' ')}" fill="none" stroke="#1c1915" stroke-width="${(3 + random() * 8).toFixed(1)}" stroke-linejoin="round"/>`);
  }
  const hue = 120 + Math.round(random() * 40);
  return sharp({ create: { width, height, channels: 3, background: { r: hue + 10, g: hue + 4, b: hue - 6 }, noise: { type: 'gaussian', mean: hue, sigma: 30 } } })
    .composite([{ input: Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${cracks.join('')}</svg>`) }])
    .jpeg({ quality: 85 })
    .toBuffer();
}
