import { readFileSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import type { RunningSystem } from '../src/system.js';
import { startTestReplica, startTestSystem } from './test-system.js';
import { json, productApi, withSession, type Client } from './api-client.js';

// Need-your-vote from each gateway's memory (gateway/src/feed): on two whole replicas, after uploads, approvals,
// rejections, a hold, deletions, votes, changed votes, voided votes and a renamed uploader, every page equals what the
// photo service's tables say, read here with SQL.

const photoPng = readFileSync(new URL('../../storage/test/fixtures/photo.png', import.meta.url));
const NATS_URL = process.env.TEST_NATS_URL ?? 'nats://127.0.0.1:4222';
const env = { ADMIN_EMAILS: 'admin@example.com', SESSION_SECRET: 'a shared session secret of at least thirty-two characters', RATE_LIMIT_API: '100000/1m' };

let system: Awaited<ReturnType<typeof startTestSystem>>;
let replica: RunningSystem & { url: string };
let db: pg.Client;
let admin: TestBrowser;
const members: { name: string; browser: TestBrowser; id: string }[] = [];
const photos: { id: number; owner: number }[] = [];

const { send, member, idOf } = productApi(() => system.url);
const at = (url: string) => productApi(() => url).send;
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

interface Card {
  id: number;
  voteCount: number;
  averageRating: number;
  user: { displayName: string | null } | null;
}
interface Page {
  photos: Card[];
  total: number;
  totalPages: number;
}

/** What the photo service's tables hold for `userId`'s need-your-vote, in its order. */
async function expected(userId: string): Promise<{ id: number; voteCount: number; averageRating: number }[]> {
  const { rows } = await db.query<{ id: number; vote_count: number; rating_sum: number }>(
    `SELECT r.photo_id::int AS id, r.vote_count, r.rating_sum FROM photo.ratings r JOIN photo.photos p ON p.id = r.photo_id
     WHERE r.approved_at IS NOT NULL AND p.status = 'approved' AND p.user_id <> $1
       AND NOT EXISTS (SELECT 1 FROM photo.photo_raters x WHERE x.user_id = $1 AND x.photo_id = r.photo_id)
     ORDER BY r.vote_count, r.approved_at DESC, r.photo_id DESC`,
    [userId],
  );
  return rows.map((r) => ({ id: r.id, voteCount: r.vote_count, averageRating: r.vote_count > 0 ? r.rating_sum / r.vote_count : 0 }));
}

async function feedPage(url: string, browser: TestBrowser, page: number, limit: number): Promise<Page> {
  return json<Page>(await at(url)(withSession(browser, system.url), 'GET', `/api/gallery/need-your-vote?page=${page}&limit=${limit}`));
}

/** Every member's feed on both replicas, whole and in pages of 2, equals the tables. */
async function expectFeedsToMatch(): Promise<void> {
  await eventually(async () => {
    for (const { browser, id } of members) {
      const want = await expected(id);
      for (const url of [system.url, replica.url]) {
        const whole = await feedPage(url, browser, 1, 50);
        expect(whole.photos.map(({ id: photoId, voteCount, averageRating }) => ({ id: photoId, voteCount, averageRating }))).toEqual(want);
        expect(whole.total).toBe(want.length);
        const paged: number[] = [];
        for (let page = 1; page <= Math.max(1, Math.ceil(want.length / 2)); page++) {
          const part = await feedPage(url, browser, page, 2);
          expect(part.totalPages).toBe(Math.ceil(want.length / 2));
          paged.push(...part.photos.map((p) => p.id));
        }
        expect(paged).toEqual(want.map((p) => p.id));
      }
    }
  });
}

async function upload(client: Client): Promise<number> {
  const form = new FormData();
  form.append('description', 'A crack to rate');
  form.append('photo', new Blob([new Uint8Array(photoPng)]), 'crack.png');
  const response = await client.request(`${system.url}/api/photos`, { method: 'POST', body: form });
  return (await json<{ id: number }>(response, 201)).id;
}

const review = async (id: number, status: 'approved' | 'rejected') =>
  expect((await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, status === 'approved' ? { status } : { status, rejectionReason: 'Not a crack' })).status).toBe(200);

/** A vote the vote service may not take yet (it hears of approvals through events): tried until it does. */
const vote = (client: Client, photoId: number, rating: number) =>
  eventually(async () => expect((await send(client, 'POST', `/api/photos/${photoId}/vote`, { rating })).status).toBe(200));

beforeAll(async () => {
  const natsStream = `FEED_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  system = await startTestSystem(env, { natsUrl: NATS_URL, natsStream });
  replica = await startTestReplica(system, env, { natsUrl: NATS_URL, natsStream });
  db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  admin = await member('admin@example.com', 'Ada Admin');
  for (const name of ['ann', 'bob', 'cy']) {
    const browser = await member(`${name}@example.com`, `${name} Example`);
    members.push({ name, browser, id: await idOf(browser) });
  }
}, 180_000);
afterAll(async () => {
  await db?.end();
  await replica?.stop();
  await system?.stop();
});

describe("need-your-vote from the gateway's memory", () => {
  it('lists approved photos of others, fewest votes first, as the tables do', async () => {
    for (const [owner, { browser }] of members.entries()) for (let i = 0; i < 4; i++) photos.push({ id: await upload(browser), owner });
    // All but the last two approved: one of those rejected, one left pending.
    for (const { id } of photos.slice(0, -2)) await review(id, 'approved');
    await review(photos.at(-2)!.id, 'rejected');
    await expectFeedsToMatch();
  });

  it('follows votes, changed votes and both replicas, and leaves a rated photo out at once on the replica that took the vote', async () => {
    let seed = 7;
    const random = () => (seed = (seed * 48_271) % 2_147_483_647) / 2_147_483_647;
    const approved = photos.slice(0, -2);
    for (let i = 0; i < 12; i++) {
      const voter = Math.floor(random() * members.length);
      const candidates = approved.filter((p) => p.owner !== voter);
      const photo = candidates[Math.floor(random() * candidates.length)]!;
      await vote(members[voter]!.browser, photo.id, 1 + Math.floor(random() * 5));
    }
    // Read your vote: the same replica leaves the photo out on the very next request.
    const { browser, id } = members[0]!;
    const unrated = (await expected(id)).at(-1)!;
    await vote(browser, unrated.id, 3);
    expect((await feedPage(system.url, browser, 1, 50)).photos.map((p) => p.id)).not.toContain(unrated.id);
    await expectFeedsToMatch();
  });

  it('follows a deletion, a photo approved later, voided and restored votes and a renamed uploader', async () => {
    const [ann, bob] = members;
    // Bob deletes a photo that has votes; the pending one is approved; an admin voids all of ann's votes, then restores them.
    const bobsVoted = photos.find((p) => p.owner === 1)!;
    expect((await send(bob!.browser, 'DELETE', `/api/photos/${bobsVoted.id}`)).status).toBe(204);
    await review(photos.at(-1)!.id, 'approved');
    expect((await send(admin, 'POST', `/api/admin/raters/${ann!.id}/voids`, { reason: 'Checking' })).status).toBe(200);
    await expectFeedsToMatch();
    expect((await send(admin, 'POST', `/api/admin/raters/${ann!.id}/restorations`, { reason: 'Fine after all' })).status).toBe(200);
    await expectFeedsToMatch();
    // A renamed uploader's cards show the new name on both replicas.
    expect((await send(admin, 'PATCH', `/api/admin/users/${bob!.id}`, { displayName: 'Bob Renamed' })).status).toBe(200);
    await eventually(async () => {
      for (const url of [system.url, replica.url]) {
        // The admin rates nothing: every approved photo of bob's is in their feed.
        const cards = (await feedPage(url, admin, 1, 50)).photos.filter((p) => photos.find((q) => q.id === p.id)?.owner === 1);
        expect(cards.length).toBeGreaterThan(0);
        for (const card of cards) expect(card.user?.displayName).toBe('Bob Renamed');
      }
    });
  });

  it('refuses the signed out (401) as before', async () => {
    expect((await fetch(`${replica.url}/api/gallery/need-your-vote`)).status).toBe(401);
  });
});
