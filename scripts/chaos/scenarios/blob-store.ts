/**
 * The blob store failing (every connection reset), then slow (every chunk held back), then well, under uploads and
 * browsing: failed uploads answer 503 with a message the web app shows after "Upload Failed", none hangs past its
 * deadline, and nothing half-written remains (no photo row without blobs, no blob without a row after the cleanup).
 */
import { blobState, runOrphanCleanup } from '../checks.js';
import { FEATURE_DEADLINE_MS, isSuccess, startLoad, type Outcome } from '../load.js';
import { figures, rate, seconds, type Property, type ScenarioResult } from '../report.js';
import { sleep } from '../timing.js';
import type { Fault } from '../fault-proxy.js';
import type { ChaosContext } from './context.js';

const PHASES: { fault: Fault; label: string; ms: number }[] = [
  { fault: { kind: 'fail' }, label: 'failing (connections reset)', ms: 12_000 },
  { fault: { kind: 'slow', delayMs: 1_500 }, label: 'slow (1.5 s per chunk)', ms: 20_000 },
  { fault: { kind: 'none' }, label: 'well again', ms: 8_000 },
];

export async function blobStoreFaults({ deployment, community, blobStore }: ChaosContext): Promise<ScenarioResult> {
  const features = ['upload', 'browse'] as const;
  const load = startLoad(community, { features, maxMs: PHASES.reduce((n, p) => n + p.ms, 0) + 30_000 });
  const windows: { label: string; from: number; to: number }[] = [];
  for (const phase of PHASES) {
    const from = Date.now();
    blobStore.proxy.set(phase.fault);
    await sleep(phase.ms);
    windows.push({ label: phase.label, from, to: Date.now() });
  }
  await load.stop();
  const rows = windows.flatMap((window) =>
    figures(load.outcomes, window, features).map((f) => [window.label, f.feature, String(f.requests), `${f.errors} (${rate(f)})`, f.statuses, seconds(f.longestMs)]),
  );
  const failedUploads = load.outcomes.filter((o) => o.feature === 'upload' && !isSuccess(o));
  const badFailures = failedUploads.filter((o) => !(o.status === 503 && hasMessage(o)));
  const uploadFigures = figures(load.outcomes, { from: windows[0]!.from, to: Date.now() }, ['upload'])[0]!;
  // An upload whose bytes were already stored when the fault began may still succeed: judge those started 1 s later.
  const failingWindow = figures(load.outcomes, { from: windows[0]!.from + 1_000, to: windows[0]!.to }, ['upload'])[0]!;
  const lastWindow = figures(load.outcomes, windows[2]!, ['upload'])[0]!;
  const browsing = figures(load.outcomes, { from: windows[0]!.from, to: Date.now() }, ['browse'])[0]!;

  const before = await blobState(deployment.databaseUrl, blobStore.list);
  const cleanup = await runOrphanCleanup(community.url, community.admin, deployment.databaseUrl);
  const after = await blobState(deployment.databaseUrl, blobStore.list);
  const properties: Property[] = [
    { name: `${blobStore.name} failing: uploads started 1 s into it fail`, ok: failingWindow.requests > 0 && failingWindow.errors === failingWindow.requests, detail: failingWindow.statuses },
    { name: 'every failed upload is a 503 with a message for "Upload Failed"', ok: badFailures.length === 0, detail: `${failedUploads.length} failed${badFailures.length ? `; not so: ${badFailures.slice(0, 3).map((o) => `${o.status} ${o.body ?? ''}`).join(' | ')}` : ''}${failedUploads[0]?.body ? `; e.g. ${failedUploads[0].body}` : ''}` },
    { name: `no upload past its deadline (${seconds(FEATURE_DEADLINE_MS.upload)})`, ok: uploadFigures.hung === 0 && uploadFigures.longestMs <= FEATURE_DEADLINE_MS.upload, detail: `longest ${seconds(uploadFigures.longestMs)}` },
    { name: `${blobStore.name} well again: uploads succeed`, ok: lastWindow.requests > 0 && lastWindow.errors === 0, detail: lastWindow.statuses },
    { name: 'browsing is untouched', ok: browsing.errors === 0, detail: browsing.statuses },
    { name: 'no photo row without its blobs', ok: after.photosWithoutBlobs === 0, detail: `${after.photosWithoutBlobs} of ${after.photos}` },
    { name: 'no blob left after the orphan cleanup', ok: cleanup.status === 200 && after.unreferencedRows === 0 && after.bytesWithoutRow === 0, detail: `${after.unreferencedRows} unused rows, ${after.bytesWithoutRow} files without a row; cleanup ${cleanup.status} ${cleanup.message}` },
  ];
  return {
    name: `blob-store (${blobStore.name}): failing, then slow, then well, under uploads and browsing`,
    table: { columns: ['store', 'feature', 'requests', 'errors', 'statuses', 'longest'], rows },
    properties,
    notes: [`before the cleanup: ${before.unreferencedRows} unused blob rows, ${before.bytesWithoutRow} files without a row, ${before.photosWithoutBlobs} photos without blobs`],
  };
}

function hasMessage(outcome: Outcome): boolean {
  try {
    const { message } = JSON.parse(outcome.body ?? '') as { message?: unknown };
    return typeof message === 'string' && message.length > 0;
  } catch {
    return false;
  }
}
