// k6 load test of the gallery's read path (see README.md beside this file):
//
//   k6 run -e BASE_URL=https://snapcracks.example -e SESSION_COOKIE='snapcracks.sid=…' scripts/k6/gallery.js
//
// Scenarios, one after another (VUS virtual users for DURATION each; SCENARIO=name runs one):
//   top_rated_page_1, top_rated_page_500, new_this_week, need_your_vote (needs SESSION_COOKIE or SESSION_COOKIES;
//   skipped without), stats_strip.
// Thresholds (the targets of `pnpm bench:gallery` that hold in absolute terms): top-rated page 1 p99 < 60 ms, fewer
// than 1 % failed requests in every scenario. The relative targets (page 500 within 1.5× of page 1; top-rated ≥ the
// monolith and need-your-vote ≥ 0.8× it, which only the benchmark measures) are printed in the summary.
import http from 'k6/http';
import { check } from 'k6';
import { BASE_URL, sequentialScenarios, sessionCookies, summary, summaryOutputs, withScenarioMetrics } from './lib.js';

const cookies = sessionCookies();
const names = ['top_rated_page_1', 'top_rated_page_500', 'new_this_week', ...(cookies.length ? ['need_your_vote'] : []), 'stats_strip'];
const scenarios = sequentialScenarios(names);

const thresholds = { checks: ['rate>0.99'] };
for (const name of Object.keys(scenarios)) thresholds[`http_req_failed{scenario:${name}}`] = ['rate<0.01'];
if (scenarios.top_rated_page_1) thresholds['http_req_duration{scenario:top_rated_page_1}'] = ['p(99)<60'];

export const options = {
  scenarios,
  thresholds: withScenarioMetrics(scenarios, thresholds),
  // The gateway answers public pages with an ETag; a browser would revalidate, k6 fetches them whole (the heavier case).
  discardResponseBodies: false,
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

function page(url, params) {
  const response = http.get(url, params);
  check(response, {
    'status 200': (r) => r.status === 200,
    'a page of photos': (r) => {
      try {
        const body = r.json();
        return Array.isArray(body.photos) && typeof body.total === 'number';
      } catch {
        return false;
      }
    },
  });
}

export function top_rated_page_1() {
  page(`${BASE_URL}/api/gallery/top-rated?page=1`);
}

export function top_rated_page_500() {
  page(`${BASE_URL}/api/gallery/top-rated?page=500`);
}

export function new_this_week() {
  page(`${BASE_URL}/api/gallery/new-this-week`);
}

export function need_your_vote() {
  const cookie = cookies[Math.floor(Math.random() * cookies.length)];
  page(`${BASE_URL}/api/gallery/need-your-vote`, { headers: { cookie } });
}

export function stats_strip() {
  const response = http.get(`${BASE_URL}/api/stats/gallery`);
  check(response, {
    'status 200': (r) => r.status === 200,
    'the four counters': (r) => r.status === 200 && typeof r.json().photoCount === 'number',
  });
}

export function handleSummary(data) {
  const text = summary(data, scenarios, (f) => {
    const notes = [];
    if (f.top_rated_page_1) notes.push(`top-rated page 1: p99 ${f.top_rated_page_1.p99.toFixed(1)} ms (target ≤ 60 ms)`);
    if (f.top_rated_page_1 && f.top_rated_page_500) {
      const ratio = f.top_rated_page_1.rps / f.top_rated_page_500.rps;
      notes.push(`page 500 against page 1: ${ratio.toFixed(2)}× slower (target ≤ 1.5×): ${ratio <= 1.5 ? 'met' : 'MISSED'}`);
    }
    notes.push('Compare top-rated (≥ 1×) and need-your-vote (≥ 0.8×) with the monolith anchor of `pnpm bench:gallery`.');
    return notes;
  });
  return summaryOutputs(text, data);
}
