/**
 * `pnpm bench:flood`: one member cannot starve another. Through the product as `pnpm start` runs it (one process and
 * the media process it forks, on the machine's PostgreSQL and NATS), with the product's own per-member limits and
 * image settings (only the per-address API limit is lifted: both members here come from 127.0.0.1):
 *
 * 1. Member B uploads a normal 12 MP JPEG (4000×3000, ~4 MB) RUNS times (default 3) one after another, after one
 *    warm-up: B's idle time (median).
 * 2. Member A floods: FLOOD_BATCH (default 8) uploads of a 100 MP WebP (10000×10000, about a MB; FLOOD_MEGAPIXELS) at once, again
 *    as soon as the batch is answered, for FLOOD_SECONDS (default 30). Meanwhile B uploads the JPEG RUNS times again:
 *    B's time under the flood (median and max), and the ratio to idle (target ≤ 2×).
 * 3. How A's requests were answered (201, 400, 429, 503 …), and the media process's peak resident memory during the
 *    flood (VmHWM, reset through /proc/<pid>/clear_refs first when the kernel lets us; else the sampled peak).
 *
 * Bounded: the flood stops after FLOOD_SECONDS, B's uploads each time out after 120 s, and the product is stopped
 * whatever happens. Exits non-zero only when something breaks (B's upload refused, the product down).
 */
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { positiveInteger, procStatusMb, processTree, seconds, signedInCookie, sleep, startBenchProduct, type RunningProduct } from './lib.js';

/** sharp belongs to the storage service; the benchmark only uses it to make its test images. */
const sharp = createRequire(new URL('../../services/storage/package.json', import.meta.url))('sharp') as typeof import('sharp');

const runs = positiveInteger('RUNS', 3);
const floodSeconds = positiveInteger('FLOOD_SECONDS', 30);
const floodBatch = positiveInteger('FLOOD_BATCH', 8);
/** The flood's image size: 100 MP (over the default pixel limit), or e.g. 50 for the largest the default allows. */
const floodMegapixels = positiveInteger('FLOOD_MEGAPIXELS', 100);
const TARGET_RATIO = 2;
const UPLOAD_TIMEOUT_MS = 120_000;
const SAMPLE_EVERY_MS = 50;

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)]!;

// ---------------------------------------------------------------------------------------------------
// The images, made once and kept between runs (change the cache's name whenever the generator changes)

const IMAGE_CACHE = join(tmpdir(), 'snapcracks-bench-flood-images-1');

async function cached(name: string, make: () => Promise<Buffer>): Promise<Buffer> {
  try {
    return readFileSync(join(IMAGE_CACHE, name));
  } catch {
    const bytes = await make();
    mkdirSync(IMAGE_CACHE, { recursive: true });
    const partial = join(IMAGE_CACHE, `${name}.${process.pid}.partial`);
    writeFileSync(partial, bytes);
    renameSync(partial, join(IMAGE_CACHE, name));
    return bytes;
  }
}

/** Soft light and shade with a little grain, as a phone's photo of a wall: `width`×`height` raw RGB. */
async function picture(width: number, height: number, grain: number): Promise<{ data: Buffer; info: { width: number; height: number; channels: 3 } }> {
  // A small random image blown up is smooth; the grain on top makes the encoders work as on a real photo.
  const small = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#807060', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
    .raw()
    .toBuffer();
  const smooth = await sharp(small, { raw: { width: 64, height: 48, channels: 3 } })
    .resize(width, height, { kernel: 'cubic' })
    .raw()
    .toBuffer();
  if (grain > 0) for (let i = 0; i < smooth.length; i += 7) smooth[i] = Math.max(0, Math.min(255, smooth[i]! + ((i * 2654435761) % 17) - 8));
  return { data: smooth, info: { width, height, channels: 3 } };
}

/** A 12 MP JPEG (4000×3000, q90), what a phone uploads. */
const normalPhoto = () =>
  cached('12mp.jpg', async () => {
    const { data, info } = await picture(4000, 3000, 1);
    return sharp(data, { raw: info }).jpeg({ quality: 90 }).toBuffer();
  });

/** A square WebP of FLOOD_MEGAPIXELS (100: 10000×10000), about a MB that decodes to 300 MB of pixels. */
const floodImage = () =>
  cached(`${floodMegapixels}mp.webp`, async () => {
    const edge = Math.round(Math.sqrt(floodMegapixels * 1_000_000));
    const { data, info } = await picture(edge, edge, 0);
    return sharp(data, { raw: info, limitInputPixels: false }).webp({ quality: 50, effort: 0 }).toBuffer();
  });

// ---------------------------------------------------------------------------------------------------
// Through the product

async function upload(product: RunningProduct, cookie: string, bytes: Buffer, name: string, type: string): Promise<{ status: number; ms: number; body: string }> {
  const form = new FormData();
  form.append('photo', new Blob([new Uint8Array(bytes)], { type }), name);
  const started = performance.now();
  try {
    const response = await fetch(`${product.url}/api/photos`, { method: 'POST', headers: { cookie }, body: form, signal: AbortSignal.timeout(UPLOAD_TIMEOUT_MS) });
    const body = await response.text();
    return { status: response.status, ms: performance.now() - started, body };
  } catch (error) {
    return { status: 0, ms: performance.now() - started, body: String(error) };
  }
}

/** B's uploads, one after another; any answer but 201 is a failure of the product (B is within every limit). */
async function memberBTimes(product: RunningProduct, cookie: string, photo: Buffer, count: number): Promise<number[]> {
  const times: number[] = [];
  for (let run = 0; run < count; run += 1) {
    const { status, ms, body } = await upload(product, cookie, photo, 'normal.jpg', 'image/jpeg');
    if (status !== 201) throw new Error(`Member B's upload answered ${status}: ${body.slice(0, 300)}`);
    times.push(ms);
  }
  return times;
}

/** The media process: the product's child running media-process-entry.mjs. */
function mediaProcessOf(pid: number): number | undefined {
  return processTree(pid).find((member) => {
    try {
      return readFileSync(`/proc/${member}/cmdline`, 'utf8').includes('media-process-entry');
    } catch {
      return false;
    }
  });
}

/** The media process's peak RSS from now on: VmHWM after resetting it, and samples as a floor (it may be replaced). */
function mediaPeakMeter(productPid: number) {
  let hwmReset = true;
  const start = mediaProcessOf(productPid);
  try {
    if (start) writeFileSync(`/proc/${start}/clear_refs`, '5');
  } catch {
    hwmReset = false;
  }
  let sampled = 0;
  let hwm = 0;
  const timer = setInterval(() => {
    const pid = mediaProcessOf(productPid);
    if (!pid) return;
    try {
      sampled = Math.max(sampled, procStatusMb(pid, 'VmRSS'));
      if (hwmReset || pid !== start) hwm = Math.max(hwm, procStatusMb(pid, 'VmHWM'));
    } catch {
      // It exited between the listing and the read.
    }
  }, SAMPLE_EVERY_MS);
  return {
    stop: () => {
      clearInterval(timer);
      return { peak: Math.max(sampled, hwm), sampled, hwm, hwmReset };
    },
  };
}

/** A member who has accepted the terms (uploads need it): their session's cookie header. */
async function member(product: RunningProduct, email: string, name: string): Promise<string> {
  const cookie = await signedInCookie(product.url, email, name);
  const accepted = await fetch(`${product.url}/api/auth/accept-terms`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json', origin: product.url },
    body: JSON.stringify({ hasAcceptedTerms: true }),
  });
  if (!accepted.ok) throw new Error(`POST /api/auth/accept-terms answered ${accepted.status}: ${await accepted.text()}`);
  return cookie;
}

async function flood(product: RunningProduct, cookie: string, image: Buffer, until: number) {
  const answers = new Map<number, number>();
  const messages = new Map<number, string>();
  let requests = 0;
  while (Date.now() < until) {
    const batch = await Promise.all(Array.from({ length: floodBatch }, () => upload(product, cookie, image, 'huge.webp', 'image/webp')));
    for (const { status, body } of batch) {
      requests += 1;
      answers.set(status, (answers.get(status) ?? 0) + 1);
      if (!messages.has(status)) messages.set(status, body.slice(0, 160));
    }
    // A refused client does not spin: it sends the next batch at once, as a script would, but never faster than 10 a second.
    await sleep(100);
  }
  return { requests, answers, messages };
}

/**
 * The built web app when there is one; else a stand-in with just what the gateway loads at start (an index page and
 * the brand images): the benchmark calls the API only, and building the web app is not its business.
 */
function webDist(): { dir: string; remove(): void } {
  const built = fileURLToPath(new URL('../../web/dist', import.meta.url));
  if (existsSync(join(built, 'index.html'))) return { dir: built, remove: () => undefined };
  const dir = mkdtempSync(join(tmpdir(), 'snapcracks-flood-web-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><title>Snap Cracks</title>');
  cpSync(fileURLToPath(new URL('../../web/public/brand', import.meta.url)), join(dir, 'brand'), { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

async function main(): Promise<void> {
  console.log(`flood: making the images (cached in ${IMAGE_CACHE})…`);
  const [photo, huge] = await Promise.all([normalPhoto(), floodImage()]);
  console.log(`  12 MP JPEG ${(photo.length / 1e6).toFixed(1)} MB, ${floodMegapixels} MP WebP ${(huge.length / 1e3).toFixed(0)} kB`);

  const web = webDist();
  const product = await startBenchProduct({
    LOG_LEVEL: 'error',
    WEB_DIST: web.dir,
    // The product's own per-member limits and image settings (an empty value is the default): only the per-address
    // limit is lifted, since both members share 127.0.0.1 here.
    RATE_LIMIT_UPLOADS: '',
    RATE_LIMIT_UPLOADS_IN_FLIGHT: '',
    IMAGE_MAX_PIXELS: process.env.IMAGE_MAX_PIXELS ?? '',
    IMAGE_WORKERS: process.env.IMAGE_WORKERS ?? '',
  });
  try {
    const memberA = await member(product, 'flooder@example.com', 'Flooder');
    const memberB = await member(product, 'member@example.com', 'Member');
    await memberBTimes(product, memberB, photo, 1); // warm-up: threads started, code loaded
    const idle = await memberBTimes(product, memberB, photo, runs);
    console.log(`  load average ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);

    const meter = mediaPeakMeter(product.pid);
    const until = Date.now() + floodSeconds * 1000;
    const flooding = flood(product, memberA, huge, until);
    await sleep(1000); // the flood under way
    const underFlood = await memberBTimes(product, memberB, photo, runs);
    const a = await flooding;
    const memory = meter.stop();

    const idleMedian = median(idle);
    const floodMedian = median(underFlood);
    const ratio = floodMedian / idleMedian;
    console.log('\nMember B, a 12 MP JPEG (request start to answer):');
    console.log(`  idle            median ${seconds(idleMedian)}  (${idle.map(seconds).join(', ')})`);
    console.log(`  under the flood median ${seconds(floodMedian)}  max ${seconds(Math.max(...underFlood))}  (${underFlood.map(seconds).join(', ')})`);
    console.log(`  ratio           ${ratio.toFixed(2)}×  (target ≤ ${TARGET_RATIO}×: ${ratio <= TARGET_RATIO ? 'met' : 'MISSED'})`);
    console.log(`\nMember A, ${a.requests} uploads of a ${floodMegapixels} MP WebP in batches of ${floodBatch} for ${floodSeconds} s:`);
    for (const [status, count] of [...a.answers].sort(([x], [y]) => x - y)) console.log(`  ${status || 'no answer'}: ${count}  e.g. ${a.messages.get(status)}`);
    console.log(`\nMedia process peak RSS during the flood: ${memory.peak.toFixed(0)} MiB (${memory.hwmReset ? 'VmHWM after reset' : 'sampled every 50 ms'})`);
    console.log(`  load average ${loadavg().map((l) => l.toFixed(1)).join(', ')}`);
  } finally {
    await product.stop();
    web.remove();
  }
}

await main();
