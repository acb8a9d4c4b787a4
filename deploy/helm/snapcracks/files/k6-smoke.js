/* global __ENV */
// `helm test`: a smoke test of a release, run by k6 in a pod against the gateway's Service (BASE_URL).
// One pass over the public surface; any failed check fails the test pod and with it `helm test`.
import http from 'k6/http';
import { check } from 'k6';

const BASE_URL = (__ENV.BASE_URL || 'http://localhost:8080').replace(/\/$/, '');

export const options = {
  vus: 1,
  iterations: 1,
  thresholds: { checks: ['rate==1'], http_req_failed: ['rate==0'] },
};

const json = (r) => {
  try {
    return r.json();
  } catch {
    return undefined;
  }
};

export default function () {
  check(http.get(`${BASE_URL}/healthz`), { 'healthz 200': (r) => r.status === 200 });
  const ready = http.get(`${BASE_URL}/readyz`);
  check(ready, {
    'readyz 200': (r) => r.status === 200,
    'readyz says only ready': (r) => JSON.stringify(json(r)) === '{"status":"ready"}',
  });
  check(http.get(`${BASE_URL}/api/photos?limit=5`), {
    'photos preview 200': (r) => r.status === 200,
  });
  check(http.get(`${BASE_URL}/api/gallery/top-rated?page=1`), {
    'top-rated 200': (r) => r.status === 200,
    'a page of photos': (r) => Array.isArray((json(r) || {}).photos),
  });
  check(http.get(`${BASE_URL}/api/stats/gallery`), {
    'stats 200': (r) => r.status === 200,
    'stats counters': (r) => typeof (json(r) || {}).photoCount === 'number',
  });
  check(http.get(`${BASE_URL}/`), { 'web app 200': (r) => r.status === 200 });
}
