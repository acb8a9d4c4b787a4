/**
 * Each service killed (SIGKILL, every replica) in turn under the mixed load: its features answer 503 within their
 * deadline, the others keep working, and once only its processes are started again its features recover.
 */
import { SERVICE_NAMES } from '../../../services/kit/src/component.js';
import { FEATURE_DEADLINE_MS, FEATURE_NEEDS, FEATURES, isSuccess, startLoad } from '../load.js';
import { figures, firstAfter, rate, seconds, type Property, type ScenarioResult } from '../report.js';
import { sleep, waitFor } from '../timing.js';
import type { ChaosContext } from './context.js';

const DOWN_MS = 8_000;
const RECOVERY_LIMIT_MS = 45_000;

export async function killEach({ deployment, community }: ChaosContext): Promise<ScenarioResult> {
  const rows: string[][] = [];
  const properties: Property[] = [];
  const notes: string[] = [];
  for (const service of SERVICE_NAMES) {
    const victims = deployment.processesOf(service);
    const affected = FEATURES.filter((feature) => FEATURE_NEEDS[feature].includes(service));
    const others = FEATURES.filter((feature) => !affected.includes(feature));
    const load = startLoad(community, { maxMs: DOWN_MS + RECOVERY_LIMIT_MS + 10_000 });
    await sleep(2_000);
    const before = deployment.pids();
    const killedAt = Date.now();
    await deployment.kill(victims, 'SIGKILL');
    await sleep(DOWN_MS);
    const restartedAt = await deployment.restartExited();
    let listeningAt: number | undefined;
    void waitFor(`${service} listening again`, RECOVERY_LIMIT_MS, async () => {
      const all = (await Promise.all(victims.map((name) => deployment.listening(name)))).every(Boolean);
      if (all) listeningAt = Date.now();
      return all;
    }).catch(() => undefined);
    const recovered = await waitFor(`${affected.join(', ')} after ${service} came back`, RECOVERY_LIMIT_MS, () =>
      affected.every((feature) => firstAfter(load.outcomes, feature, restartedAt, isSuccess)),
    ).then(
      () => true,
      () => false,
    );
    if (!recovered) {
      for (const f of figures(load.outcomes, { from: restartedAt, to: Date.now() }, affected)) {
        const sample = load.outcomes.find((o) => o.feature === f.feature && o.startedAt >= restartedAt && !isSuccess(o));
        notes.push(`${service} back: ${f.feature} answered ${f.statuses || 'nothing'} after the restart${sample?.body ? `, e.g. ${sample.status} ${sample.body}` : ''}`);
      }
    }
    if (!recovered) for (const name of victims) notes.push(`${name} did not serve again; its last log lines:\n${deployment.log(name).trimEnd().split('\n').slice(-8).join('\n')}`);
    await sleep(1_000);
    await load.stop();
    const after = deployment.pids();

    const down = figures(load.outcomes, { from: killedAt, to: restartedAt });
    const firstUnavailable = affected.map((feature) => firstAfter(load.outcomes, feature, killedAt, (o) => o.status === 503));
    const firstSuccess = affected.map((feature) => firstAfter(load.outcomes, feature, restartedAt, isSuccess));
    for (const [index, feature] of affected.entries()) {
      const f = down.find((x) => x.feature === feature)!;
      const unavailable = firstUnavailable[index];
      const success = firstSuccess[index];
      rows.push([
        service,
        feature,
        `${f.errors}/${f.requests} (${rate(f)})`,
        f.statuses,
        seconds(unavailable && unavailable.endedAt - killedAt),
        seconds(unavailable && unavailable.endedAt - unavailable.startedAt),
        seconds(listeningAt && listeningAt - restartedAt),
        seconds(success && success.endedAt - restartedAt),
      ]);
      properties.push({
        name: `${service} down: ${feature} answers 503 within its deadline`,
        ok: f.otherErrors === 0 && f.longestMs <= FEATURE_DEADLINE_MS[feature],
        detail: `${f.statuses}; longest ${seconds(f.longestMs)}`,
      });
    }
    const othersDown = down.filter((f) => others.includes(f.feature));
    const broken = othersDown.filter((f) => f.errors > 0);
    rows.push([service, `others (${others.join(', ')})`, `${othersDown.reduce((n, f) => n + f.errors, 0)}/${othersDown.reduce((n, f) => n + f.requests, 0)}`, broken.map((f) => `${f.feature}: ${f.statuses}`).join('; '), '', '', '', '']);
    properties.push({ name: `${service} down: the other features keep working`, ok: broken.length === 0, ...(broken.length ? { detail: broken.map((f) => `${f.feature} ${f.statuses}`).join('; ') } : {}) });
    properties.push({ name: `${service} back: its features recover within ${RECOVERY_LIMIT_MS / 1000} s`, ok: recovered });
    const restartedOthers = Object.keys(before).filter((name) => !victims.includes(name) && after[name] !== before[name]);
    properties.push({ name: `${service} back: nothing else restarted`, ok: restartedOthers.length === 0, ...(restartedOthers.length ? { detail: restartedOthers.join(', ') } : {}) });
  }
  return {
    name: 'kill-each: every service killed in turn (SIGKILL, all replicas), down 8 s, then only it started again',
    table: { columns: ['killed', 'feature', 'errors while down', 'statuses while down', 'first 503 after kill', 'its latency', 'restart → listening', 'restart → first success'], rows },
    properties,
    notes,
  };
}
