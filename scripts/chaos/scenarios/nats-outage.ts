/**
 * NATS stopped for 30 s under the mixed load: every write still succeeds (the events wait in the writers' outboxes),
 * and once NATS is back every read model equals a direct count over its owners' tables. Events lost: 0.
 */
import { withClient } from '../../seed/db.js';
import { eventsSince, settledChecks, unpublishedEvents } from '../checks.js';
import { FEATURES, startLoad, type Community } from '../load.js';
import { figures, rate, seconds, type Property, type ScenarioResult } from '../report.js';
import { sleep } from '../timing.js';
import type { ChaosContext } from './context.js';

const OUTAGE_MS = 30_000;
const SETTLE_LIMIT_MS = 90_000;

export async function natsOutage({ deployment, community, nats }: ChaosContext): Promise<ScenarioResult> {
  const load = startLoad(community, { maxMs: OUTAGE_MS + 20_000 });
  await sleep(2_000);
  const stoppedAt = Date.now();
  await nats.stop();
  await sleep(OUTAGE_MS);
  const heldInOutboxes = await unpublishedEvents(deployment.databaseUrl);
  const written = await eventsSince(deployment.databaseUrl, new Date(stoppedAt));
  const backAt = Date.now();
  await nats.start();
  await sleep(5_000);
  await load.stop();
  const during = figures(load.outcomes, { from: stoppedAt, to: backAt });
  const after = figures(load.outcomes, { from: backAt, to: Date.now() });
  const { failed, settledMs } = await settledChecks(deployment.databaseUrl, SETTLE_LIMIT_MS);
  const unpublished = await unpublishedEvents(deployment.databaseUrl);
  const admin = await adminFiguresMismatches(community, deployment.databaseUrl);
  const lost = unpublished + failed.reduce((n, check) => n + check.mismatches, 0) + admin.length;

  const properties: Property[] = [
    { name: 'NATS down: every request succeeds', ok: during.every((f) => f.errors === 0), detail: during.filter((f) => f.errors).map((f) => `${f.feature} ${f.statuses}`).join('; ') || undefined },
    { name: 'NATS down: the outboxes hold the events written meanwhile', ok: written > 0 && heldInOutboxes > 0, detail: `${written} written, ${heldInOutboxes} unpublished when NATS came back` },
    { name: 'NATS back: every read model equals a count over its owners’ tables', ok: failed.length === 0, detail: failed.map((c) => `${c.name}: ${c.mismatches} (${c.sample.join('; ')})`).join(' | ') || undefined },
    { name: 'NATS back: the admin figures equal direct counts', ok: admin.length === 0, detail: admin.join('; ') || undefined },
    { name: 'events lost: 0', ok: lost === 0, detail: `${lost}` },
  ].map((p) => (p.detail === undefined ? { name: p.name, ok: p.ok } : (p as Property)));
  return {
    name: 'nats-outage: the harness’s NATS stopped for 30 s under load',
    table: {
      columns: ['feature', 'requests while down', 'errors while down', 'statuses', 'errors after'],
      rows: FEATURES.map((feature, i) => [feature, String(during[i]!.requests), `${during[i]!.errors} (${rate(during[i]!)})`, during[i]!.statuses, String(after[i]!.errors)]),
    },
    properties,
    notes: [
      `events written while NATS was down: ${written}; held unpublished when it came back: ${heldInOutboxes}`,
      `read models agreed ${seconds(settledMs)} after the load stopped; unpublished events left: ${unpublished}; events lost: ${lost}`,
    ],
  };
}

/** The admin dashboard's figures (stats service) against counts over the photo service's rows. */
async function adminFiguresMismatches(community: Community, databaseUrl: string): Promise<string[]> {
  const response = await fetch(`${community.url}/api/admin/stats`, { headers: { cookie: community.admin.cookie }, signal: AbortSignal.timeout(10_000) });
  if (!response.ok) return [`GET /api/admin/stats answered ${response.status}`];
  const shown = (await response.json()) as Record<string, number>;
  const direct = await withClient(databaseUrl, async (client) => {
    const { rows } = await client.query<{ pending: string; total: string }>(
      `SELECT COUNT(*) FILTER (WHERE "status" = 'pending') AS pending, COUNT(*) AS total FROM "photo"."photos"`,
    );
    return { pendingReviews: Number(rows[0]!.pending), totalPhotos: Number(rows[0]!.total) };
  });
  return Object.entries(direct)
    .filter(([name, value]) => shown[name] !== value)
    .map(([name, value]) => `${name}: shown ${shown[name]}, counted ${value}`);
}
