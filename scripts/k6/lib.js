/* global __ENV */
// Shared by gallery.js and vote.js: settings from the environment, sessions, scenarios one after another, and a
// summary with each scenario's own requests/s (k6's `rate` of a counter is over the whole test, not one scenario).

export const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');
export const VUS = Number(__ENV.VUS || 50);
export const DURATION = __ENV.DURATION || '30s';
export const PAUSE = __ENV.PAUSE || '5s';

/** `SESSION_COOKIES` (several, separated by commas or spaces) or `SESSION_COOKIE`; `snapcracks.sid=…` or the bare value. */
export function sessionCookies() {
  const raw = __ENV.SESSION_COOKIES || __ENV.SESSION_COOKIE || '';
  return raw
    .split(/[\s,]+/)
    .filter((c) => c.length > 0)
    .map((c) => (c.includes('=') ? c : `snapcracks.sid=${c}`));
}

/** k6 durations ("30s", "2m", "1m30s", "500ms") in seconds. */
export function seconds(duration) {
  let total = 0;
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/g;
  let match;
  while ((match = re.exec(duration)) !== null) {
    const value = Number(match[1]);
    total += match[2] === 'ms' ? value / 1000 : match[2] === 's' ? value : match[2] === 'm' ? value * 60 : value * 3600;
  }
  return total;
}

/**
 * Closed-model scenarios (VUS virtual users, each sending its next request as soon as the last one answers, like the
 * benchmark's keep-alive connections), one after another with PAUSE between them. `SCENARIO` runs only the one named.
 */
export function sequentialScenarios(names) {
  const chosen = __ENV.SCENARIO ? names.filter((n) => n === __ENV.SCENARIO) : names;
  if (__ENV.SCENARIO && chosen.length === 0) throw new Error(`SCENARIO must be one of ${names.join(', ')}`);
  const step = seconds(DURATION) + seconds(PAUSE);
  const scenarios = {};
  chosen.forEach((name, i) => {
    scenarios[name] = { executor: 'constant-vus', exec: name, vus: VUS, duration: DURATION, startTime: `${i * step}s`, gracefulStop: '5s' };
  });
  return scenarios;
}

/**
 * Thresholds: the given ones, plus one that never fails on each scenario's requests and durations, so that the
 * summary has every scenario's own figures.
 */
export function withScenarioMetrics(scenarios, thresholds) {
  const all = { ...thresholds };
  for (const name of Object.keys(scenarios)) {
    all[`http_reqs{scenario:${name}}`] = all[`http_reqs{scenario:${name}}`] || ['count>=0'];
    all[`http_req_duration{scenario:${name}}`] = all[`http_req_duration{scenario:${name}}`] || ['max>=0'];
    all[`http_req_failed{scenario:${name}}`] = all[`http_req_failed{scenario:${name}}`] || ['rate>=0'];
  }
  return all;
}

/** A table of each scenario's requests/s (over its own duration), p50, p99 and failures, then each threshold's outcome. */
export function summary(data, scenarios, notes) {
  const lines = ['', `Snap Cracks at ${BASE_URL}: ${VUS} virtual users, ${DURATION} per scenario`, ''];
  const figures = {};
  lines.push(`${'scenario'.padEnd(22)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)} ${'failed'.padStart(8)}`);
  for (const name of Object.keys(scenarios)) {
    const reqs = data.metrics[`http_reqs{scenario:${name}}`];
    const durations = data.metrics[`http_req_duration{scenario:${name}}`];
    const failed = data.metrics[`http_req_failed{scenario:${name}}`];
    if (!reqs || !durations) continue;
    const rps = reqs.values.count / seconds(DURATION);
    figures[name] = { rps, p50: durations.values.med, p99: durations.values['p(99)'] };
    lines.push(
      `${name.padEnd(22)} ${rps.toFixed(0).padStart(8)} ${durations.values.med.toFixed(1).padStart(8)} ${durations.values['p(99)'].toFixed(1).padStart(8)} ${`${((failed ? failed.values.rate : 0) * 100).toFixed(2)}%`.padStart(8)}`,
    );
  }
  lines.push('');
  for (const note of notes(figures)) lines.push(note);
  lines.push('', 'Thresholds:');
  for (const [metric, result] of Object.entries(data.metrics)) {
    if (!result.thresholds) continue;
    for (const [expression, outcome] of Object.entries(result.thresholds)) {
      if (/^(count>=0|max>=0|rate>=0)$/.test(expression)) continue;
      lines.push(`  ${outcome.ok ? 'ok    ' : 'FAILED'}  ${metric}: ${expression}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The summary on stdout, and as JSON in SUMMARY_JSON when set. */
export function summaryOutputs(text, data) {
  const outputs = { stdout: text };
  if (__ENV.SUMMARY_JSON) outputs[__ENV.SUMMARY_JSON] = JSON.stringify(data, null, 2);
  return outputs;
}
