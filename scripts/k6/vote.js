/* global __ENV */
// k6 load test of voting (see README.md beside this file):
//
//   k6 run -e BASE_URL=https://snapcracks.example -e SESSION_COOKIES='snapcracks.sid=… snapcracks.sid=…' scripts/k6/vote.js
//
// Scenarios, one after another (VUS virtual users for DURATION each; SCENARIO=name runs one):
//   vote_random  each request: a random member (one of the sessions) rates a random approved photo (not their own,
//                from the first PHOTO_PAGES pages of all-snaps) with a random rating; a member may change a vote
//   vote_hot     everyone rates the same photo (HOT_PHOTO_ID, else the first top-rated photo none of them owns)
// Thresholds: vote_random p99 < 60 ms, vote_hot p99 < 250 ms, fewer than 1 % failed votes; and, when one scenario
// runs alone (SCENARIO=…, so that k6's rate is that scenario's), vote_random ≥ 1,500 votes/s and vote_hot ≥ 800 votes/s.
// Every session must belong to a member who accepted the terms. Votes are real: run it against a test installation.
import http from 'k6/http';
import { check, fail } from 'k6';
import { BASE_URL, sequentialScenarios, sessionCookies, summary, summaryOutputs, withScenarioMetrics } from './lib.js';

const cookies = sessionCookies();
const PHOTO_PAGES = Number(__ENV.PHOTO_PAGES || 20);
const scenarios = sequentialScenarios(['vote_random', 'vote_hot']);
const alone = Object.keys(scenarios).length === 1;

const thresholds = { checks: ['rate>0.99'] };
if (scenarios.vote_random) {
  thresholds['http_req_failed{scenario:vote_random}'] = ['rate<0.01'];
  thresholds['http_req_duration{scenario:vote_random}'] = ['p(99)<60'];
  if (alone) thresholds['http_reqs{scenario:vote_random}'] = ['rate>=1500'];
}
if (scenarios.vote_hot) {
  thresholds['http_req_failed{scenario:vote_hot}'] = ['rate<0.01'];
  thresholds['http_req_duration{scenario:vote_hot}'] = ['p(99)<250'];
  if (alone) thresholds['http_reqs{scenario:vote_hot}'] = ['rate>=800'];
}

export const options = {
  scenarios,
  thresholds: withScenarioMetrics(scenarios, thresholds),
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'],
  setupTimeout: '120s',
};

/** Who the sessions are, and approved photos with their owners, so nobody votes on their own photo (a 404). */
export function setup() {
  if (cookies.length === 0) fail('Set SESSION_COOKIE or SESSION_COOKIES: voting needs signed-in members');
  const members = cookies.map((cookie) => {
    const response = http.get(`${BASE_URL}/api/auth/user`, { headers: { cookie } });
    if (response.status !== 200) fail(`GET /api/auth/user answered ${response.status} for one of the sessions: sign in again`);
    const user = response.json();
    if (!user.hasAcceptedTerms) fail(`${user.email || user.id} has not accepted the terms, so cannot vote`);
    return { cookie, id: user.id };
  });
  const photos = [];
  for (let pageNumber = 1; pageNumber <= PHOTO_PAGES; pageNumber += 1) {
    const response = http.get(`${BASE_URL}/api/gallery/all-snaps?page=${pageNumber}&limit=50`);
    if (response.status !== 200) fail(`GET /api/gallery/all-snaps answered ${response.status}`);
    const body = response.json();
    for (const photo of body.photos) photos.push({ id: photo.id, owner: photo.userId });
    if (pageNumber >= body.totalPages) break;
  }
  const ids = new Set(members.map((m) => m.id));
  let hot = Number(__ENV.HOT_PHOTO_ID || 0);
  if (!hot) {
    const top = http.get(`${BASE_URL}/api/gallery/top-rated?page=1&limit=50`).json();
    const candidate = top.photos.find((p) => !ids.has(p.userId));
    if (!candidate) fail('Every top-rated photo belongs to one of the sessions; set HOT_PHOTO_ID');
    hot = candidate.id;
  }
  if (photos.length === 0) fail('No approved photos to vote on');
  return { members, photos, hot };
}

function vote(member, photoId) {
  const rating = 1 + Math.floor(Math.random() * 5);
  const response = http.post(`${BASE_URL}/api/photos/${photoId}/vote`, JSON.stringify({ rating }), {
    headers: { cookie: member.cookie, 'content-type': 'application/json' },
    tags: { name: 'POST /api/photos/{id}/vote' },
  });
  check(response, {
    'vote counted': (r) => r.status === 200,
    'rating echoed': (r) => r.status !== 200 || r.json().rating === rating,
  });
}

export function vote_random(data) {
  const member = data.members[Math.floor(Math.random() * data.members.length)];
  for (;;) {
    const photo = data.photos[Math.floor(Math.random() * data.photos.length)];
    if (photo.owner !== member.id) return vote(member, photo.id);
    if (data.photos.every((p) => p.owner === member.id)) fail('Every photo found belongs to one member; raise PHOTO_PAGES');
  }
}

export function vote_hot(data) {
  vote(data.members[Math.floor(Math.random() * data.members.length)], data.hot);
}

export function handleSummary(data) {
  const text = summary(data, scenarios, (f) => {
    const notes = [];
    if (f.vote_random) notes.push(`random photos: ${f.vote_random.rps.toFixed(0)} votes/s (target ≥ 1,500), p99 ${f.vote_random.p99.toFixed(1)} ms (target ≤ 60 ms)`);
    if (f.vote_hot) notes.push(`one hot photo: ${f.vote_hot.rps.toFixed(0)} votes/s (target ≥ 800)`);
    return notes;
  });
  return summaryOutputs(text, data);
}
