/* global __ENV, __VU, __ITER, open */
// k6 load test of photo uploads (see README.md beside this file):
//
//   k6 run -e BASE_URL=https://staging.snapcracks.example -e SESSION_COOKIES='snapcracks.sid=… snapcracks.sid=…' scripts/k6/upload.js
//
// Scenario upload_photo: each request, a random member (one of the sessions) uploads photo.jpg (a 480×320 JPEG
// beside this script, or PHOTO_FILE) as a multipart form with a description, as the browser does. Thresholds: fewer
// than 1 % failed uploads, p99 < 2 s (the upload streams through the gateway and photo to storage, which makes the
// medium image in the background). Every session must belong to a member who accepted the terms. Uploads are real and
// wait for review: run it against a test installation, and mind RATE_LIMIT_UPLOADS (per member).
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL, sequentialScenarios, sessionCookies, summary, summaryOutputs, withScenarioMetrics } from './lib.js';

const cookies = sessionCookies();
const photo = open(__ENV.PHOTO_FILE || './photo.jpg', 'b');
const scenarios = sequentialScenarios(['upload_photo']);

export const options = {
  scenarios,
  thresholds: withScenarioMetrics(scenarios, {
    checks: ['rate>0.99'],
    'http_req_failed{scenario:upload_photo}': ['rate<0.01'],
    'http_req_duration{scenario:upload_photo}': ['p(99)<2000'],
  }),
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
};

export function setup() {
  if (cookies.length === 0) fail('upload.js needs SESSION_COOKIE or SESSION_COOKIES of members who accepted the terms');
}

export function upload_photo() {
  const cookie = cookies[Math.floor(Math.random() * cookies.length)];
  const body = {
    description: `k6 upload ${__VU}-${__ITER}`,
    photo: http.file(photo, `k6-${__VU}-${__ITER}.jpg`, 'image/jpeg'),
  };
  const response = http.post(`${BASE_URL}/api/photos`, body, { headers: { cookie } });
  check(response, {
    'status 201': (r) => r.status === 201,
    'the new photo': (r) => r.status === 201 && typeof r.json().id === 'number',
  });
}

export function handleSummary(data) {
  const text = summary(data, scenarios, (f) =>
    f.upload_photo ? [`uploads: ${f.upload_photo.rps.toFixed(1)}/s, p99 ${f.upload_photo.p99.toFixed(0)} ms (target ≤ 2000 ms)`] : [],
  );
  return summaryOutputs(text, data);
}
