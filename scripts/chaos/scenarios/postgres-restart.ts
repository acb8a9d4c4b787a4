/**
 * The harness's PostgreSQL restarted (pg_ctl restart -m fast) under the mixed load: the services reconnect by
 * themselves, no request hangs past its deadline, and every feature works again afterwards.
 */
import { FEATURE_DEADLINE_MS, FEATURES, isSuccess, startLoad } from '../load.js';
import { figures, firstAfter, rate, seconds, type Property, type ScenarioResult } from '../report.js';
import { sleep, waitFor } from '../timing.js';
import type { ChaosContext } from './context.js';

const AFTER_MS = 10_000;
const RECOVERY_LIMIT_MS = 30_000;

export async function postgresRestart({ community, postgres }: ChaosContext): Promise<ScenarioResult> {
  const load = startLoad(community, { maxMs: 60_000 });
  await sleep(2_000);
  const restartingAt = Date.now();
  await postgres.restart();
  const upAt = Date.now();
  const recovered = await waitFor('every feature after the restart', RECOVERY_LIMIT_MS, () => FEATURES.every((f) => firstAfter(load.outcomes, f, upAt, isSuccess))).then(
    () => true,
    () => false,
  );
  await sleep(AFTER_MS);
  await load.stop();
  const window = figures(load.outcomes, { from: restartingAt - 1_000, to: Date.now() });
  const properties: Property[] = [
    ...window.map((f) => ({
      name: `${f.feature}: no request past its deadline (${seconds(FEATURE_DEADLINE_MS[f.feature])})`,
      ok: f.hung === 0 && f.longestMs <= FEATURE_DEADLINE_MS[f.feature] + 1_000,
      detail: `longest ${seconds(f.longestMs)}`,
    })),
    {
      // A review the database cut off may have been applied (its event records the action): trying it again is a 409.
      name: 'every server failure is a 503 (try again), never a 500',
      ok: window.every((f) => f.serverErrors === 0),
      detail: window.filter((f) => f.errors).map((f) => `${f.feature} ${f.statuses}`).join('; ') || 'no failure',
    },
    { name: `every feature answers again within ${RECOVERY_LIMIT_MS / 1000} s of the restart`, ok: recovered },
  ];
  return {
    name: 'postgres-restart: the harness’s PostgreSQL restarted (fast) under load',
    table: {
      columns: ['feature', 'requests', 'errors', 'statuses', 'longest', 'restart done → first success'],
      rows: window.map((f) => {
        const success = firstAfter(load.outcomes, f.feature, upAt, isSuccess);
        return [f.feature, String(f.requests), `${f.errors} (${rate(f)})`, f.statuses, seconds(f.longestMs), seconds(success && success.endedAt - upAt)];
      }),
    },
    properties,
    notes: [`pg_ctl restart took ${seconds(upAt - restartingAt)}; figures cover 1 s before it until ${AFTER_MS / 1000} s after recovery`],
  };
}
