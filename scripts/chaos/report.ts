/** Figures over the load's outcomes, and the tables the harness prints. */
import { FEATURES, isSuccess, type Feature, type Outcome } from './load.js';
import { seconds } from './timing.js';

export interface Window {
  from: number;
  to: number;
}

export interface FeatureFigures {
  feature: Feature;
  requests: number;
  errors: number;
  /** Errors that were not a 503 (a 500, a 4xx, a hang, a refused connection…). */
  otherErrors: number;
  /** Server failures other than a 503: a 500, a 504, a hang or no answer at all. */
  serverErrors: number;
  hung: number;
  longestMs: number;
  statuses: string;
}

/** Requests that started inside the window, per feature. */
export function figures(outcomes: Outcome[], window: Window, features: readonly Feature[] = FEATURES): FeatureFigures[] {
  return features.map((feature) => {
    const inside = outcomes.filter((o) => o.feature === feature && o.startedAt >= window.from && o.startedAt < window.to);
    const errors = inside.filter((o) => !isSuccess(o));
    const byStatus = new Map<number, number>();
    for (const o of inside) byStatus.set(o.status, (byStatus.get(o.status) ?? 0) + 1);
    return {
      feature,
      requests: inside.length,
      errors: errors.length,
      otherErrors: errors.filter((o) => o.status !== 503).length,
      serverErrors: errors.filter((o) => o.status !== 503 && (o.status === 0 || o.status >= 500)).length,
      hung: inside.filter((o) => o.hung).length,
      longestMs: Math.max(0, ...inside.map((o) => o.endedAt - o.startedAt)),
      statuses: [...byStatus].sort(([a], [b]) => a - b).map(([status, n]) => `${status}×${n}`).join(' '),
    };
  });
}

export const rate = (f: FeatureFigures) => (f.requests === 0 ? '—' : `${((100 * f.errors) / f.requests).toFixed(0)}%`);

/** The first outcome of `feature` answered after `at` that matches. */
export function firstAfter(outcomes: Outcome[], feature: Feature, at: number, match: (o: Outcome) => boolean): Outcome | undefined {
  return outcomes.filter((o) => o.feature === feature && o.endedAt >= at && match(o)).sort((a, b) => a.endedAt - b.endedAt)[0];
}

export interface Property {
  name: string;
  ok: boolean;
  detail?: string;
}

export interface ScenarioResult {
  name: string;
  /** Column names, then one row per line of the table. */
  table: { columns: string[]; rows: string[][] };
  properties: Property[];
  notes: string[];
}

export function printResult(result: ScenarioResult): void {
  const { columns, rows } = result.table;
  const widths = columns.map((c, i) => Math.max(c.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ');
  console.log(`\n== ${result.name} ==`);
  console.log(line(columns));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
  for (const note of result.notes) console.log(`  ${note}`);
  for (const property of result.properties) console.log(`  ${property.ok ? 'ok  ' : 'FAIL'}  ${property.name}${property.detail ? ` (${property.detail})` : ''}`);
}

export { seconds };
