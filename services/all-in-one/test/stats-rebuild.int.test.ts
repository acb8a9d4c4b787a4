import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { status } from '@grpc/grpc-js';
import { IdentitySigner, createLogger, createServiceClient } from '@snapcracks/kit';
import { AuthServiceClient } from '@snapcracks/proto/auth/v1';
import { PhotoServiceClient } from '@snapcracks/proto/photo/v1';
import { StatsServiceClient } from '@snapcracks/proto/stats/v1';
import { VoteServiceClient } from '@snapcracks/proto/vote/v1';
import { grpcBackfillSources, rebuildStatsDatabase, type BackfillClients } from '@snapcracks/stats';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { openTestPool } from '@snapcracks/kit/testing';
import { startTestSystem, TEST_IDENTITY } from './test-system.js';
import { signIn } from './sign-in.js';

/**
 * The stats read models against the source services' own tables, after a random (seeded) history played through the
 * real product: every figure of every member's GET /api/user/stats and of the gallery's stats strip must equal a direct
 * count over photo.photos, vote.photo_votes and auth.users, once the events have been handled, and again after the
 * read models are wiped and rebuilt from the backfill RPCs (pnpm stats:rebuild).
 */

const SEED = Number(process.env.STATS_REBUILD_SEED ?? 20261122);
const STEPS = 90;
const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));

/** A small seeded generator (mulberry32), so a failing history can be played again with STATS_REBUILD_SEED. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

interface Member {
  id: string;
  browser: TestBrowser;
}

interface PhotoRow {
  id: number;
  userId: string;
  status: 'pending' | 'approved' | 'rejected';
  filename: string;
  description: string | null;
  createdAt: Date;
  approvedAt: Date | null;
}

let system: Awaited<ReturnType<typeof startTestSystem>>;
/** The test counts over the source tables directly. */
let db: ReturnType<typeof openTestPool>;
let admin: Member;
const members: Member[] = [];
const logger = createLogger('test', 'silent');

type Client = Pick<TestBrowser, 'request'>;
const api = (path: string) => `${system.url}${path}`;
const send = (client: Client, method: string, path: string, body?: unknown) =>
  client.request(api(path), body === undefined ? { method } : { method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function member(email: string, name: string): Promise<Member> {
  const { browser } = await signIn(system.url, email, name);
  expect((await send(browser, 'POST', '/api/auth/accept-terms', { hasAcceptedTerms: true })).status).toBe(200);
  const user = (await (await send(browser, 'GET', '/api/auth/user')).json()) as { id: string };
  return { id: user.id, browser };
}

beforeAll(async () => {
  system = await startTestSystem({ ADMIN_EMAILS: 'boss@example.com' });
  db = openTestPool(system.database.url, 2);
  admin = await member('boss@example.com', 'Boss Example');
  for (const name of ['ada', 'bob', 'cy', 'dee', 'eve', 'fay']) members.push(await member(`${name}@example.com`, `${name} Example`));
}, 120_000);
afterAll(async () => {
  await db?.end();
  await system?.stop();
});

/** What a history did, so the test can tell it exercised every kind of step. */
interface Played {
  uploads: number;
  approvals: number;
  rejections: number;
  votes: number;
  changedVotes: number;
  deletedPhotos: number;
  deletedUsers: number;
}

/** Plays a random history through the gateway, as members and the admin would; refused steps are simply skipped. */
async function playHistory(random: () => number): Promise<Played> {
  const played: Played = { uploads: 0, approvals: 0, rejections: 0, votes: 0, changedVotes: 0, deletedPhotos: 0, deletedUsers: 0 };
  const pick = <T>(items: T[]): T | undefined => items[Math.floor(random() * items.length)];
  const live = members.slice();
  const photos: { id: number; owner: Member; status: PhotoRow['status'] | 'deleted' }[] = [];
  const votes: { voter: Member; photoId: number; rating: number }[] = [];
  const rating = () => 1 + Math.floor(random() * 5);
  for (let step = 0; step < STEPS; step++) {
    const roll = random();
    if (roll < 0.22 || photos.length < 3) {
      const owner = pick(live)!;
      const form = new FormData();
      form.append('description', `step ${step}`);
      form.append('photo', new Blob([new Uint8Array(photoPng)]), 'crack.png');
      const response = await owner.browser.request(api('/api/photos'), { method: 'POST', body: form });
      expect(response.status).toBe(201);
      photos.push({ id: ((await response.json()) as { id: number }).id, owner, status: 'pending' });
      played.uploads++;
    } else if (roll < 0.4) {
      const photo = pick(photos.filter((p) => p.status === 'pending'));
      if (!photo) continue;
      const approve = random() < 0.75;
      const body = approve ? { status: 'approved' } : { status: 'rejected', rejectionReason: 'Blurry' };
      if ((await send(admin.browser, 'PATCH', `/api/admin/photos/${photo.id}/status`, body)).status !== 200) continue;
      photo.status = approve ? 'approved' : 'rejected';
      played[approve ? 'approvals' : 'rejections']++;
    } else if (roll < 0.72) {
      const photo = pick(photos.filter((p) => p.status === 'approved'));
      const voter = pick([admin, ...live].filter((m) => m !== photo?.owner));
      if (!photo || !voter) continue;
      const vote = { voter, photoId: photo.id, rating: rating() };
      // The vote service learns of an approval from its event, a moment later: a refusal then is part of the history.
      if ((await send(voter.browser, 'POST', `/api/photos/${photo.id}/vote`, { rating: vote.rating })).status !== 200) continue;
      votes.push(vote);
      played.votes++;
    } else if (roll < 0.86) {
      const vote = pick(votes.filter((v) => v.voter === admin || live.includes(v.voter)));
      if (!vote) continue;
      // A changed mind: the vote moves from one star to another.
      const changed = 1 + ((vote.rating - 1 + 1 + Math.floor(random() * 4)) % 5);
      if ((await send(vote.voter.browser, 'POST', `/api/photos/${vote.photoId}/vote`, { rating: changed })).status !== 200) continue;
      vote.rating = changed;
      played.changedVotes++;
    } else if (roll < 0.96) {
      const photo = pick(photos.filter((p) => p.status !== 'deleted' && live.includes(p.owner)));
      if (!photo) continue;
      const byAdmin = random() < 0.3;
      const response = byAdmin ? await send(admin.browser, 'DELETE', `/api/admin/photos/${photo.id}`) : await send(photo.owner.browser, 'DELETE', `/api/photos/${photo.id}`);
      if (response.status >= 300) continue;
      photo.status = 'deleted';
      played.deletedPhotos++;
    } else if (played.deletedUsers < 2 && live.length > 3) {
      // An account deleted: its photos go (photo service), and its votes leave every photo's totals (vote service).
      const gone = pick(live)!;
      expect((await send(admin.browser, 'DELETE', `/api/admin/users/${gone.id}`)).status).toBeLessThan(300);
      live.splice(live.indexOf(gone), 1);
      played.deletedUsers++;
    }
  }
  return played;
}

const number = (value: unknown) => Number(value);

/** What every member's stats and the stats strip must say, counted straight from the source services' tables. */
async function truthFromSources(now: Date) {
  const users = (await db.query<{ id: string }>('SELECT "id" FROM "auth"."users" ORDER BY "id"')).rows.map((r) => r.id);
  const photos = (
    await db.query<{ id: string; user_id: string; status: PhotoRow['status']; filename: string; description: string | null; created_at: Date; approved_at: Date | null }>(
      'SELECT "id", "user_id", "status"::text AS "status", "filename", "description", "created_at", "approved_at" FROM "photo"."photos"',
    )
  ).rows.map((r): PhotoRow => ({ id: number(r.id), userId: r.user_id, status: r.status, filename: r.filename, description: r.description, createdAt: r.created_at, approvedAt: r.approved_at }));
  const votes = (await db.query<{ photo_id: string; rating: number }>('SELECT "photo_id", "rating" FROM "vote"."photo_votes"')).rows;
  const votesOf = new Map<number, number[]>();
  for (const v of votes) votesOf.set(number(v.photo_id), [...(votesOf.get(number(v.photo_id)) ?? []), v.rating]);
  const count = (p: PhotoRow) => votesOf.get(p.id)?.length ?? 0;
  const sum = (p: PhotoRow) => (votesOf.get(p.id) ?? []).reduce((a, b) => a + b, 0);
  const approved = photos.filter((p) => p.status === 'approved');
  const totals = (list: PhotoRow[]) => ({ votes: list.reduce((n, p) => n + count(p), 0), ratingSum: list.reduce((n, p) => n + sum(p), 0) });
  const average = (list: PhotoRow[]) => {
    const t = totals(list);
    return t.votes > 0 ? t.ratingSum / t.votes : 0;
  };

  // Active members: an existing account with an approved photo.
  const active = new Map<string, { approved: number; votes: number; ratingSum: number }>();
  for (const id of users) {
    const mine = approved.filter((p) => p.userId === id);
    if (mine.length > 0) active.set(id, { approved: mine.length, ...totals(mine) });
  }
  const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate()) - ((now.getUTCDay() + 6) % 7) * 86_400_000);
  const newerApproval = (a: PhotoRow, b: PhotoRow) => (b.approvedAt?.getTime() ?? 0) - (a.approvedAt?.getTime() ?? 0) || b.id - a.id;
  const rated = (p: PhotoRow | undefined) => (p ? { id: p.id, filename: p.filename, description: p.description, averageRating: sum(p) / count(p), voteCount: count(p) } : null);

  const userStats = new Map<string, unknown>();
  for (const id of users) {
    const mine = photos.filter((p) => p.userId === id);
    const mineApproved = mine.filter((p) => p.status === 'approved');
    const recent = [...mineApproved].sort(newerApproval).slice(0, 5);
    const withVotes = mineApproved.filter((p) => count(p) > 0);
    const avg = (p: PhotoRow) => sum(p) / count(p);
    const me = active.get(id);
    const ranked = [...active.values()].filter((m) => m.votes >= 3);
    const distribution = [1, 2, 3, 4, 5].map((star) => mineApproved.reduce((n, p) => n + (votesOf.get(p.id) ?? []).filter((r) => r === star).length, 0));
    userStats.set(id, {
      totalUploads: mine.length,
      approvedUploads: mineApproved.length,
      pendingUploads: mine.filter((p) => p.status === 'pending').length,
      rejectedUploads: mine.filter((p) => p.status === 'rejected').length,
      uploadsThisWeek: mine.filter((p) => p.createdAt >= monday).length,
      averageRating: average(mineApproved),
      recentAverageRating: average(recent),
      recentVoteCount: totals(recent).votes,
      totalVotes: totals(mineApproved).votes,
      rankByUploads: me ? 1 + [...active.values()].filter((m) => m.approved > me.approved).length : null,
      rankByAverageRating: me && me.votes >= 3 ? 1 + ranked.filter((m) => m.ratingSum / m.votes > me.ratingSum / me.votes).length : null,
      totalActiveUsers: active.size,
      highestRatedPhoto: rated([...withVotes].sort((a, b) => avg(b) - avg(a) || count(b) - count(a) || newerApproval(a, b))[0]),
      lowestRatedPhoto: rated([...withVotes].sort((a, b) => avg(a) - avg(b) || count(b) - count(a) || newerApproval(a, b))[0]),
      ratingDistribution: distribution,
    });
  }
  const gallery = {
    photoCount: approved.length,
    totalVotes: totals(approved).votes,
    ratedFourOrHigher: approved.filter((p) => count(p) > 0 && sum(p) >= 4 * count(p)).length,
    distinctUploaders: new Set(approved.map((p) => p.userId)).size,
  };
  return { users, userStats, gallery, votes: votes.length };
}

/** What the product says: every existing member's GET /api/user/stats, and the strip straight from the stats service. */
async function figuresFromStats(userIds: string[]) {
  const statsAsGateway = createServiceClient(StatsServiceClient, system.platform.addresses.stats!, { signer: new IdentitySigner(TEST_IDENTITY, 'gateway'), peer: 'stats' });
  try {
    const userStats = new Map<string, unknown>();
    for (const account of [admin, ...members].filter((m) => userIds.includes(m.id))) {
      const response = await send(account.browser, 'GET', '/api/user/stats');
      expect(response.status).toBe(200);
      userStats.set(account.id, await response.json());
    }
    // The gateway keeps the strip for a while (Cached public pages); the service's answer is the read model's own.
    return { userStats, gallery: await statsAsGateway.call.getGalleryStats({}, { caller: null }) };
  } finally {
    statsAsGateway.close();
  }
}

async function expectStatsToMatchSources() {
  const truth = await truthFromSources(new Date());
  const stats = await figuresFromStats(truth.users);
  expect(stats.gallery).toEqual(truth.gallery);
  expect(Object.fromEntries(stats.userStats)).toEqual(Object.fromEntries(truth.userStats));
  return { truth, stats };
}

function backfillClients(as: string): BackfillClients {
  const signer = new IdentitySigner(TEST_IDENTITY, as);
  const { addresses } = system.platform;
  return {
    photo: createServiceClient(PhotoServiceClient, addresses.photo!, { signer, peer: 'photo' }),
    vote: createServiceClient(VoteServiceClient, addresses.vote!, { signer, peer: 'vote' }),
    auth: createServiceClient(AuthServiceClient, addresses.auth!, { signer, peer: 'auth' }),
  };
}

async function rebuild() {
  const clients = backfillClients('stats');
  const refused: string[] = [];
  try {
    const sources = grpcBackfillSources(clients, { deadlineMs: 60_000, refused: (error) => refused.push(error.message) });
    const report = await rebuildStatsDatabase(system.database.url, sources, logger);
    expect(refused).toEqual([]);
    return report;
  } finally {
    for (const client of Object.values(clients)) client.close();
  }
}

describe('stats read models after a random history', () => {
  it('equal a count over the source tables, and again after being wiped and rebuilt from the backfill', { timeout: 240_000 }, async () => {
    const played = await playHistory(seeded(SEED));
    // The history must exercise every kind of step (another seed may need more STEPS).
    for (const [step, times] of Object.entries(played)) expect(times, step).toBeGreaterThan(0);

    // Convergence: every event handled (the account deletions' photo deletions and vote removals included).
    const converged = await vi.waitFor(expectStatsToMatchSources, { timeout: 60_000, interval: 250 });
    expect(converged.truth.votes).toBeGreaterThan(5);
    expect(converged.truth.gallery.photoCount).toBeGreaterThan(2);

    await db.query('TRUNCATE "stats"."photos", "stats"."owners", "stats"."community_counters"');
    const wiped = await figuresFromStats(converged.truth.users);
    expect(wiped.gallery).toEqual({ photoCount: 0, totalVotes: 0, ratedFourOrHigher: 0, distinctUploaders: 0 });

    const report = await rebuild();
    expect(report.users).toBe(converged.truth.users.length);
    const rebuilt = await expectStatsToMatchSources();
    expect(rebuilt.stats).toEqual(converged.stats);

    // A rebuild over live tables (no wipe) changes nothing, and the consumers carry on from it.
    await rebuild();
    expect(await figuresFromStats(converged.truth.users)).toEqual(converged.stats);
  });

  it('answers the backfill streams to the stats component only', async () => {
    const clients = backfillClients('gateway');
    try {
      const first = async (stream: AsyncIterable<unknown>) => {
        for await (const page of stream) return page;
        return undefined;
      };
      const call = { caller: null };
      for (const stream of [
        clients.photo.serverStream('streamPhotoStates', {}, call),
        clients.vote.serverStream('streamPhotoVotes', {}, call),
        clients.auth.serverStream('streamUserIds', {}, call),
      ]) {
        await expect(first(stream)).rejects.toMatchObject({ code: status.PERMISSION_DENIED });
      }
    } finally {
      for (const client of Object.values(clients)) client.close();
    }
  });
});
