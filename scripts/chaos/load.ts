/**
 * A small mixed load, as a few members and an admin make it: browse (the member's need-your-vote gallery page, the
 * photo service), vote (vote service), upload (storage then photo), review (the admin approving what was uploaded,
 * moderation), stats (the member's own figures, stats), contact (support) and account (who am I). Each feature is one
 * loop with its own pause, and every request has a client-side limit, so a hang shows up as status 0 instead of
 * stalling the harness.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { signedInCookie } from '../bench/lib.js';
import { sleep } from './timing.js';

export const FEATURES = ['browse', 'vote', 'upload', 'review', 'stats', 'contact', 'account'] as const;
export type Feature = (typeof FEATURES)[number];

/**
 * What each feature's request goes through (besides the gateway), for "the others keep working". The gateway reads a
 * member's current record (enabled, admin, terms) from auth, cached 5 s, and serves the last one it read for up to ten
 * minutes while auth cannot be reached (gateway/src/user-directory.ts): members already signed in keep using the
 * product through an auth outage. An admin's change reads the record afresh, so review needs auth; the account page
 * is auth's own.
 */
export const FEATURE_NEEDS: Record<Feature, readonly string[]> = {
  browse: ['photo'],
  vote: ['vote'],
  upload: ['storage', 'photo'],
  review: ['moderation', 'photo', 'auth'],
  stats: ['stats'],
  contact: ['support'],
  account: ['auth'],
};

/** The deadline the product gives each feature's backend call (kit's 5 s default; an upload's 120 s). */
export const FEATURE_DEADLINE_MS: Record<Feature, number> = {
  browse: 5_000,
  vote: 5_000,
  upload: 120_000,
  review: 5_000,
  stats: 5_000,
  contact: 5_000,
  account: 5_000,
};

const PAUSE_MS: Record<Feature, number> = { browse: 150, vote: 100, upload: 400, review: 300, stats: 250, contact: 800, account: 250 };
/** Past the deadline plus this, the client gives up and records a hang (status 0). */
const HANG_MARGIN_MS = 10_000;

export interface Outcome {
  feature: Feature;
  startedAt: number;
  endedAt: number;
  /** HTTP status; 0 when the request never got an answer (connection refused, or no answer in time). */
  status: number;
  hung: boolean;
  body?: string;
}

export interface Session {
  email: string;
  cookie: string;
}

export const PHOTO = readFileSync(fileURLToPath(new URL('../k6/photo.jpg', import.meta.url)));

export interface Community {
  url: string;
  members: Session[];
  admin: Session;
  /** Approved photos every member but the owner may vote on (votable before the load starts). */
  votable: { id: number; owner: string }[];
}

export async function signInMember(url: string, email: string, name: string): Promise<Session> {
  const cookie = await signedInCookie(url, email, name);
  const accepted = await fetch(`${url}/api/auth/accept-terms`, {
    method: 'POST',
    headers: { cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ hasAcceptedTerms: true }),
  });
  if (!accepted.ok) throw new Error(`accept-terms for ${email}: ${accepted.status} ${await accepted.text()}`);
  return { email, cookie };
}

export async function upload(url: string, member: Session, description: string, timeoutMs = 130_000): Promise<Response> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(PHOTO)], { type: 'image/jpeg' }), 'crack.jpg');
  return fetch(`${url}/api/photos`, { method: 'POST', headers: { cookie: member.cookie, origin: url }, body: form, signal: AbortSignal.timeout(timeoutMs) });
}

export function review(url: string, admin: Session, photoId: number, timeoutMs = 15_000): Promise<Response> {
  return fetch(`${url}/api/admin/photos/${photoId}/status`, {
    method: 'PATCH',
    headers: { cookie: admin.cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ status: 'approved' }),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

export function vote(url: string, member: Session, photoId: number, rating: number, timeoutMs = 15_000): Promise<Response> {
  return fetch(`${url}/api/photos/${photoId}/vote`, {
    method: 'POST',
    headers: { cookie: member.cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ rating }),
    signal: AbortSignal.timeout(timeoutMs),
  });
}

/** Three members and the admin signed in; each member uploads two photos, the admin approves them, they become votable. */
export async function buildCommunity(url: string, adminEmail: string): Promise<Community> {
  const admin = await signInMember(url, adminEmail, 'Ada Admin');
  // The load uploads faster than a faulty review keeps up: upload allowances out of the way, as an admin sets them.
  const lifted = await fetch(`${url}/api/admin/upload-allowance`, {
    method: 'PUT',
    headers: { cookie: admin.cookie, origin: url, 'content-type': 'application/json' },
    body: JSON.stringify({ pendingLimit: 1000, trustedAfter: 1000, trustedPendingLimit: 1000 }),
  });
  if (!lifted.ok) throw new Error(`upload allowance: ${lifted.status} ${await lifted.text()}`);
  const members = await Promise.all(['mia', 'noor', 'olu'].map((name) => signInMember(url, `${name}@chaos.example.com`, name.toUpperCase())));
  const votable: Community['votable'] = [];
  for (const member of members) {
    for (let i = 0; i < 2; i++) {
      const response = await upload(url, member, `Seed crack ${i} by ${member.email}`);
      if (response.status !== 201) throw new Error(`seed upload: ${response.status} ${await response.text()}`);
      const { id } = (await response.json()) as { id: number };
      const reviewed = await review(url, admin, id);
      if (!reviewed.ok) throw new Error(`seed review: ${reviewed.status} ${await reviewed.text()}`);
      votable.push({ id, owner: member.email });
    }
  }
  // Approval reaches the vote service as an event: wait until each photo takes a vote (from a member not its owner).
  for (const [index, photo] of votable.entries()) {
    const voter = members.find((m) => m.email !== photo.owner)!;
    const deadline = Date.now() + 30_000;
    for (;;) {
      const response = await vote(url, voter, photo.id, (index % 5) + 1);
      if (response.ok) break;
      if (Date.now() > deadline) throw new Error(`photo ${photo.id} never became votable: ${response.status} ${await response.text()}`);
      await sleep(200);
    }
  }
  return { url, members, admin, votable };
}

export interface Load {
  outcomes: Outcome[];
  /** Photos the load uploaded (201), for the checks. */
  uploaded: number[];
  /** Stops every loop and waits for the requests in flight (each is bounded). */
  stop(): Promise<void>;
}

/** Starts the mixed load on the community; `features` limits it (default all); stops by itself after `maxMs`. */
export function startLoad(community: Community, options: { features?: readonly Feature[]; maxMs: number }): Load {
  const { url, members, admin, votable } = community;
  const outcomes: Outcome[] = [];
  const uploaded: number[] = [];
  const pending: number[] = [];
  const stopAt = Date.now() + options.maxMs;
  let stopped = false;
  let turn = 0;
  const member = () => members[turn++ % members.length]!;

  const requests: Record<Feature, () => Promise<Response>> = {
    browse: () => get(url, '/api/gallery/need-your-vote?page=1&limit=9', member(), 'browse'),
    vote: () => {
      const voter = member();
      const targets = votable.filter((photo) => photo.owner !== voter.email);
      const photo = targets[Math.floor(Math.random() * targets.length)]!;
      return vote(url, voter, photo.id, 1 + Math.floor(Math.random() * 5), FEATURE_DEADLINE_MS.vote + HANG_MARGIN_MS);
    },
    upload: async () => {
      const response = await upload(url, member(), `Crack under load ${Date.now()}`, FEATURE_DEADLINE_MS.upload + HANG_MARGIN_MS);
      if (response.status === 201) {
        const { id } = (await response.clone().json()) as { id: number };
        uploaded.push(id);
        pending.push(id);
      }
      return response;
    },
    review: () => {
      const id = pending.shift();
      if (id === undefined) return get(url, '/api/admin/photos/pending?page=1&limit=10', admin, 'review');
      return review(url, admin, id, FEATURE_DEADLINE_MS.review + HANG_MARGIN_MS).then((response) => {
        if (response.status >= 500) pending.unshift(id); // unavailable: try it again later; a 4xx (reviewed meanwhile) is done
        return response;
      });
    },
    stats: () => get(url, '/api/user/stats', member(), 'stats'),
    contact: () =>
      fetch(`${url}/api/contact`, {
        method: 'POST',
        headers: { origin: url, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Chaos Reader', email: 'reader@chaos.example.com', subject: 'A crack', message: 'There is a crack by the harbour.' }),
        signal: AbortSignal.timeout(FEATURE_DEADLINE_MS.contact + HANG_MARGIN_MS),
      }),
    account: () => get(url, '/api/auth/user', member(), 'account'),
  };

  const loop = async (feature: Feature) => {
    while (!stopped && Date.now() < stopAt) {
      const startedAt = Date.now();
      let status = 0;
      let hung = false;
      let body: string | undefined;
      try {
        const response = await requests[feature]();
        status = response.status;
        body = await response.text();
      } catch (error) {
        hung = (error as Error).name === 'TimeoutError';
      }
      outcomes.push({ feature, startedAt, endedAt: Date.now(), status, hung, ...(status >= 400 && body ? { body: body.slice(0, 200) } : {}) });
      await sleep(PAUSE_MS[feature]);
    }
  };
  const loops = (options.features ?? FEATURES).map((feature) => loop(feature));
  return {
    outcomes,
    uploaded,
    async stop() {
      stopped = true;
      await Promise.all(loops);
    },
  };
}

function get(url: string, path: string, session: Session, feature: Feature): Promise<Response> {
  return fetch(`${url}${path}`, { headers: { cookie: session.cookie }, signal: AbortSignal.timeout(FEATURE_DEADLINE_MS[feature] + HANG_MARGIN_MS) });
}

export const isSuccess = (outcome: Outcome) => outcome.status >= 200 && outcome.status < 300;
/** A vote on a photo the member already rated the same is still a success; a 404 on review is a photo gone meanwhile. */
export const isError = (outcome: Outcome) => !isSuccess(outcome);

/** Waits (at most `timeoutMs`) until every feature has answered with a success once: a scenario starts on a whole product. */
export async function untilEveryFeatureWorks(community: Community, timeoutMs: number): Promise<boolean> {
  const load = startLoad(community, { maxMs: timeoutMs });
  const deadline = Date.now() + timeoutMs;
  let ok = false;
  while (Date.now() < deadline && !(ok = FEATURES.every((feature) => load.outcomes.some((o) => o.feature === feature && isSuccess(o))))) await sleep(200);
  await load.stop();
  return ok;
}
