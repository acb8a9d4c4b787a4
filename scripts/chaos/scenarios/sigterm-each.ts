/**
 * SIGTERM to each process in turn (every service replica and the gateway) while members upload and vote and the
 * admin reviews: afterwards no photo row lacks its blobs, no blob outlives the orphan cleanup, and no vote is
 * counted twice (vote rows against every aggregate).
 */
import { blobState, duplicateVotes, runOrphanCleanup, settledChecks } from '../checks.js';
import { startLoad } from '../load.js';
import { figures, rate, seconds, type Property, type ScenarioResult } from '../report.js';
import { sleep, waitFor } from '../timing.js';
import type { ChaosContext } from './context.js';

const FEATURES = ['upload', 'vote', 'review'] as const;

export async function sigtermEach({ deployment, community, blobStore }: ChaosContext): Promise<ScenarioResult> {
  const names = deployment.processNames();
  const load = startLoad(community, { features: FEATURES, maxMs: names.length * 20_000 + 10_000 });
  const rows: string[][] = [];
  for (const name of names) {
    await sleep(1_500);
    const termAt = Date.now();
    await deployment.kill([name], 'SIGTERM');
    const exitedAt = Date.now();
    await deployment.restartExited();
    // Until it listens again (a replica's twin must not be stopped while it is still starting), then a moment more.
    await waitFor(`${name} listening again`, 60_000, () => deployment.listening(name));
    await sleep(2_000);
    const window = figures(load.outcomes, { from: termAt, to: Date.now() }, FEATURES);
    rows.push([name, seconds(exitedAt - termAt), ...window.map((f) => `${f.errors}/${f.requests} (${rate(f)}) ${f.statuses}`)]);
  }
  await load.stop();
  const { failed } = await settledChecks(deployment.databaseUrl, 60_000);
  const beforeCleanup = await blobState(deployment.databaseUrl, blobStore.list);
  const cleanup = await runOrphanCleanup(community.url, community.admin, deployment.databaseUrl);
  const afterCleanup = await blobState(deployment.databaseUrl, blobStore.list);
  const duplicates = await duplicateVotes(deployment.databaseUrl);
  const properties: Property[] = [
    { name: 'no photo row without its blobs', ok: afterCleanup.photosWithoutBlobs === 0, detail: `${afterCleanup.photosWithoutBlobs} of ${afterCleanup.photos}` },
    { name: 'the orphan cleanup ran', ok: cleanup.status === 200, detail: `${cleanup.status} ${cleanup.message}` },
    { name: 'no blob left after the orphan cleanup', ok: afterCleanup.unreferencedRows === 0 && afterCleanup.bytesWithoutRow === 0, detail: `${afterCleanup.unreferencedRows} unused rows, ${afterCleanup.bytesWithoutRow} files without a row` },
    { name: 'no vote counted twice (one row per member and photo, every aggregate = the rows)', ok: duplicates === 0 && failed.length === 0, detail: [`${duplicates} duplicate pairs`, ...failed.map((c) => `${c.name}: ${c.mismatches} (${c.sample.join('; ')})`)].join(' | ') },
  ];
  return {
    name: `sigterm-each: SIGTERM to each process during uploads, votes and reviews (blobs in ${blobStore.name})`,
    table: { columns: ['process', 'exit took', ...FEATURES.map((f) => `${f} errors (SIGTERM → 2 s after it listens again)`)], rows },
    properties,
    notes: [
      `photos: ${afterCleanup.photos}; before the cleanup ${beforeCleanup.unreferencedRows} unused blob rows and ${beforeCleanup.bytesWithoutRow} files without a row; cleanup: ${cleanup.message}`,
    ],
  };
}
