import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { TestBrowser } from '@snapcracks/dev-idp/testing';
import { RATERS, type GalleryPage, type GalleryStats, type RaterPage, type RaterVotePage, type UserStats } from '@snapcracks/http-contract';
import { startTestSystem } from './test-system.js';
import { signIn } from './sign-in.js';
import { anonymous, json, message, productApi } from './api-client.js';

const fixture = (name: string) => readFileSync(new URL(`../../storage/test/fixtures/${name}`, import.meta.url));

let system: Awaited<ReturnType<typeof startTestSystem>>;
let timesMovedAt: Date;
let db: pg.Client;
let admin: TestBrowser;
let owner: TestBrowser;
let bot: TestBrowser;
let honest: TestBrowser;
let carol: TestBrowser;
let newcomer: TestBrowser;
const ids: Record<string, string> = {};
let photos: number[] = [];

const api = (path: string) => `${system.url}${path}`;
const { send, member, idOf } = productApi(() => system.url);
const eventually = (check: () => Promise<void>) => vi.waitFor(check, { timeout: 15_000, interval: 100 });

async function upload(description: string): Promise<number> {
  const form = new FormData();
  form.append('description', description);
  form.append('photo', new Blob([new Uint8Array(fixture('photo.png'))]), 'crack.png');
  return (await json<{ id: number }>(await owner.request(api('/api/photos'), { method: 'POST', body: form }), 201)).id;
}

const vote = (client: TestBrowser, photoId: number, rating: number) => send(client, 'POST', `/api/photos/${photoId}/vote`, { rating });
const voids = (userId: string, body: unknown) => send(admin, 'POST', `/api/admin/raters/${userId}/voids`, body);
const restorations = (userId: string, body: unknown) => send(admin, 'POST', `/api/admin/raters/${userId}/restorations`, body);

/** The counting votes on the owner's photos, straight from the vote service's table. */
async function directCount(): Promise<{ votes: number; sum: number; byRating: number[]; perPhoto: Map<number, number> }> {
  const { rows } = await db.query<{ photo_id: string; rating: number; n: number }>(
    `SELECT photo_id::text, rating::int, count(*)::int AS n FROM vote.photo_votes
     WHERE photo_id = ANY($1::bigint[]) AND voided_at IS NULL AND NOT suspended GROUP BY 1, 2`,
    [photos],
  );
  const byRating = [0, 0, 0, 0, 0];
  const perPhoto = new Map(photos.map((id) => [id, 0]));
  let votes = 0;
  let sum = 0;
  for (const row of rows) {
    byRating[row.rating - 1]! += row.n;
    perPhoto.set(Number(row.photo_id), perPhoto.get(Number(row.photo_id))! + row.n);
    votes += row.n;
    sum += row.rating * row.n;
  }
  return { votes, sum, byRating, perPhoto };
}

/** Every figure members and visitors see of these votes equals the direct count: the gallery's, the stats strip's and the owner's. */
async function expectFiguresToMatch(expectedVotes: number): Promise<void> {
  const direct = await directCount();
  expect(direct.votes).toBe(expectedVotes);
  await eventually(async () => {
    const stats = await json<GalleryStats>(await send(anonymous, 'GET', '/api/stats/gallery'));
    expect(stats.totalVotes).toBe(direct.votes);
    const mine = await json<UserStats>(await send(owner, 'GET', '/api/user/stats'));
    expect(mine.totalVotes).toBe(direct.votes);
    expect(mine.ratingDistribution).toEqual(direct.byRating);
    expect(mine.averageRating).toBeCloseTo(direct.votes ? direct.sum / direct.votes : 0, 5);
    const page = await json<GalleryPage>(await send(anonymous, 'GET', '/api/gallery/all-snaps?limit=50'));
    for (const [photoId, count] of direct.perPhoto) expect(page.photos.find((p) => p.id === photoId)?.voteCount, `photo ${photoId}`).toBe(count);
    // The photo service's own totals, which need-your-vote and top-rated order by.
    const { rows } = await db.query<{ n: string }>(`SELECT COALESCE(sum(vote_count), 0)::text AS n FROM photo.ratings WHERE photo_id = ANY($1::bigint[])`, [photos]);
    expect(Number(rows[0]!.n)).toBe(direct.votes);
  });
}

beforeAll(async () => {
  // The whole table of figures is computed again every second here, as it is every ten minutes by default.
  system = await startTestSystem({ ADMIN_EMAILS: 'admin@example.com', RATER_FIGURES_REFRESH: '1s' });
  db = new pg.Client({ connectionString: system.database.url });
  await db.connect();
  [admin, owner, bot, honest, carol] = await Promise.all([
    member('admin@example.com', 'Ada Admin'),
    member('owner@example.com', 'Owner Example'),
    member('bot@example.com', 'Bot Voter'),
    member('honest@example.com', 'Honest Voter'),
    member('carol@example.com', 'Carol Voter'),
  ]);
  ({ browser: newcomer } = await signIn(system.url, 'new@example.com', 'New Comer'));
  for (const [name, client] of Object.entries({ bot, honest, carol, admin })) ids[name] = await idOf(client);
  await json(await send(admin, 'PUT', '/api/admin/upload-allowance', { pendingLimit: 100, trustedAfter: 100, trustedPendingLimit: 100 }));
  photos = [];
  for (let i = 0; i < 6; i++) photos.push(await upload(`Crack ${i + 1}`));
  for (const id of photos) await json(await send(admin, 'PATCH', `/api/admin/photos/${id}/status`, { status: 'approved' }));
  // The bot rates everything 5 at once; the others rate as they see it.
  for (const id of photos) await json(await vote(bot, id, 5));
  const ratings = { honest: [2, 3, 4, 3, 1, 2], carol: [3, 2, 2, 4, 1, 3] };
  for (const [i, id] of photos.entries()) {
    await json(await vote(honest, id, ratings.honest[i]!));
    await json(await vote(carol, id, ratings.carol[i]!));
  }
  // Cast minutes apart, as people vote: only the bot's votes came in a burst.
  await db.query(`UPDATE vote.photo_votes SET created_at = created_at - (photo_id - $1) * interval '5 minutes' WHERE user_id = ANY($2)`, [
    photos[0],
    [ids.honest, ids.carol],
  ]);
  // Figures computed before this instant may still hold the votes' real times.
  timesMovedAt = (await db.query<{ at: Date }>('SELECT now() AS at')).rows[0]!.at;
}, 120_000);
afterAll(async () => {
  await db?.end();
  await system?.stop();
});

describe('who may see and change votes', () => {
  it('answers 401 signed out and 403 to members and without the terms, on every route; nothing changes', async () => {
    const calls: [string, string, unknown?][] = [
      ['GET', '/api/admin/raters'],
      ['GET', `/api/admin/raters/${ids.bot}/votes`],
      ['POST', `/api/admin/raters/${ids.bot}/voids`, { reason: 'Gaming' }],
      ['POST', `/api/admin/raters/${ids.bot}/restorations`, { reason: 'Fine' }],
    ];
    for (const [who, client, status] of [
      ['signed out', anonymous, 401],
      ['terms pending', newcomer, 403],
      ['a member', carol, 403],
      ['the voter', bot, 403],
    ] as const) {
      for (const [method, path, body] of calls) {
        const response = await send(client, method, path, body);
        expect(response.status, `${who}: ${method} ${path}`).toBe(status);
        expect(((await response.json()) as { message?: string }).message).toEqual(expect.any(String));
      }
    }
    await expectFiguresToMatch(18);
    expect((await db.query('SELECT 1 FROM vote.vote_actions')).rowCount).toBe(0);
  });

  it('refuses bad input with the contract messages and an unknown member with 404, changing nothing', async () => {
    expect(await message(await voids(ids.bot!, { reason: '   ' }), 400)).toBe(RATERS.reasonRequired);
    expect(await message(await voids(ids.bot!, {}), 400)).toBe(RATERS.reasonRequired);
    expect(await message(await voids(ids.bot!, { reason: 'x'.repeat(501) }), 400)).toBe(RATERS.reasonTooLong);
    for (const photoIds of [[], [-1], [1.5], 'all', Array.from({ length: 501 }, (_, i) => i + 1)]) {
      expect(await message(await voids(ids.bot!, { reason: 'Gaming', photoIds }), 400)).toBe(RATERS.photosInvalid);
    }
    expect(await message(await send(admin, 'GET', '/api/admin/raters?sort=cheekiness'), 400)).toBe(RATERS.sortInvalid);
    expect(await message(await voids('nobody-at-all', { reason: 'Gaming' }), 404)).toBe(RATERS.unknownMember);
    expect(await message(await restorations('nobody-at-all', { reason: 'Fine' }), 404)).toBe(RATERS.unknownMember);
    expect(await message(await send(admin, 'GET', '/api/admin/raters/nobody-at-all/votes'), 404)).toBe(RATERS.unknownMember);
    await expectFiguresToMatch(18);
  });
});

describe('the Raters page', () => {
  it('lists every rater with their figures, the bot first by score', async () => {
    await eventually(async () => {
      const page = await json<RaterPage>(await send(admin, 'GET', '/api/admin/raters'));
      expect(page.raters.map((r) => r.userId)).toEqual(expect.arrayContaining([ids.bot, ids.honest, ids.carol]));
      expect(page.raters[0]).toMatchObject({ userId: ids.bot, name: 'Bot Voter', email: 'bot@example.com', isEnabled: true, votes: 6, mean: 5, spread: 0, longestRun: 6 });
      expect(page.computedAt).toEqual(expect.any(String));
      // A whole computation that saw the votes' times as moved above.
      expect(new Date(page.computedAt!).getTime()).toBeGreaterThan(timesMovedAt.getTime());
    });
    const page = await json<RaterPage>(await send(admin, 'GET', '/api/admin/raters'));
    const byId = new Map(page.raters.map((r) => [r.userId, r]));
    const theBot = byId.get(ids.bot!)!;
    const person = byId.get(ids.honest!)!;
    // Five of the bot's six votes came less than 3 s after the one before; the others' came minutes apart.
    expect(theBot.bursts).toBe(5);
    expect(person.bursts).toBe(0);
    expect(person).toMatchObject({ votes: 6, mean: 2.5, longestRun: 1 });
    // The others rated photo 1 with 2 and 3: the bot's 5 is 2.5 away; the honest voter's 2 is 1.5 from (5 + 3) / 2.
    expect(theBot.deviation!).toBeGreaterThan(person.deviation!);
    expect(theBot.score).toBeGreaterThan(person.score);
    expect(theBot.score).toBeLessThanOrEqual(100);
    const byVotes = await json<RaterPage>(await send(admin, 'GET', '/api/admin/raters?sort=mean&limit=1'));
    expect(byVotes).toMatchObject({ raters: [{ userId: ids.bot }], totalPages: byVotes.total });
  });

  it("shows a rater's votes newest first, each with the others' mean", async () => {
    const page = await json<RaterVotePage>(await send(admin, 'GET', `/api/admin/raters/${ids.honest}/votes?limit=2`));
    expect(page).toMatchObject({ total: 6, totalPages: 3, actions: [] });
    // Backdated by photo, 5 minutes a photo: the first photo's vote is the newest. The others rated it 5 and 3.
    expect(page.votes[0]).toMatchObject({ photoId: photos[0], rating: 2, consensus: 4, voidedAt: null, suspended: false });
  });
});

describe('voiding and restoring votes', () => {
  it("voids all of a rater's votes: every figure follows, and the vote cannot be changed", async () => {
    const answer = await json<{ changed: number }>(await voids(ids.bot!, { reason: '  Rated everything five in seconds ' }));
    expect(answer).toEqual({ changed: 6 });
    await expectFiguresToMatch(12);
    expect(await json<{ changed: number }>(await voids(ids.bot!, { reason: 'Again' }))).toEqual({ changed: 0 });
    expect(await message(await vote(bot, photos[0]!, 1), 409)).toBe(RATERS.voided);
    // Still their vote, as they see it.
    expect(await json<{ rating: number | null }>(await send(bot, 'GET', `/api/photos/${photos[0]}/vote`))).toMatchObject({ rating: 5 });
    const page = await json<RaterVotePage>(await send(admin, 'GET', `/api/admin/raters/${ids.bot}/votes`));
    expect(page.votes.every((v) => v.voidedAt !== null && v.voidReason === 'Rated everything five in seconds' && v.voidedBy === ids.admin)).toBe(true);
    expect(page.actions).toEqual([expect.objectContaining({ action: 'void', adminId: ids.admin, adminName: 'Ada Admin', reason: 'Rated everything five in seconds', votes: 6, allVotes: true })]);
    // The bot's own figures are computed again at once.
    const raters = await json<RaterPage>(await send(admin, 'GET', '/api/admin/raters?limit=100'));
    expect(raters.raters.find((r) => r.userId === ids.bot)).toMatchObject({ voided: 6 });
  });

  it('restores chosen photos, then the rest: the figures are what they were', async () => {
    expect(await json<{ changed: number }>(await restorations(ids.bot!, { photoIds: [photos[0], photos[1], 999_999], reason: 'Two were fine' }))).toEqual({ changed: 2 });
    await expectFiguresToMatch(14);
    expect(await json<{ changed: number }>(await restorations(ids.bot!, { reason: 'Cleared after review' }))).toEqual({ changed: 4 });
    await expectFiguresToMatch(18);
    expect(await json(await vote(bot, photos[0]!, 4))).toMatchObject({ rating: 4 });
    await expectFiguresToMatch(18);
    const page = await json<RaterVotePage>(await send(admin, 'GET', `/api/admin/raters/${ids.bot}/votes`));
    expect(page.actions.map((a) => [a.action, a.votes, a.allVotes])).toEqual([
      ['restore', 4, true],
      ['restore', 2, false],
      ['void', 6, true],
    ]);
    // Voiding chosen photos touches only those.
    expect(await json<{ changed: number }>(await voids(ids.carol!, { photoIds: [photos[2]], reason: 'Odd' }))).toEqual({ changed: 1 });
    await expectFiguresToMatch(17);
    expect(await json<{ changed: number }>(await restorations(ids.carol!, { reason: 'Fine after all' }))).toEqual({ changed: 1 });
    await expectFiguresToMatch(18);
  });

  it("stops counting a disabled account's votes, refuses its new ones, and counts them again once enabled", async () => {
    await json(await send(admin, 'PATCH', `/api/admin/users/${ids.carol}`, { isEnabled: false }));
    await eventually(async () => expect((await directCount()).votes).toBe(12));
    await expectFiguresToMatch(12);
    // A vote the consumer refuses even if a stale gateway let it through (the gateway itself refuses with 403).
    expect((await vote(carol, photos[0]!, 2)).status).toBe(403);
    // Voided while suspended: restoring it later must not count it before the account is enabled.
    expect(await json<{ changed: number }>(await voids(ids.carol!, { photoIds: [photos[0]], reason: 'Checked' }))).toEqual({ changed: 1 });
    await expectFiguresToMatch(12);
    await json(await send(admin, 'PATCH', `/api/admin/users/${ids.carol}`, { isEnabled: true }));
    await eventually(async () => expect((await directCount()).votes).toBe(17));
    await expectFiguresToMatch(17);
    expect(await json<{ changed: number }>(await restorations(ids.carol!, { reason: 'Fine' }))).toEqual({ changed: 1 });
    await expectFiguresToMatch(18);
  });

  it('keeps every total exact while votes are cast during voids and restorations', async () => {
    const changes = [];
    for (let round = 0; round < 4; round++) {
      changes.push(voids(ids.bot!, { reason: `Round ${round}` }).then((r) => json(r)));
      for (const [i, id] of photos.entries()) {
        changes.push(vote(honest, id, ((i + round) % 5) + 1).then((r) => json(r)));
        changes.push(vote(carol, id, ((i + round + 2) % 5) + 1).then((r) => json(r)));
      }
      changes.push(restorations(ids.bot!, { reason: `Round ${round}` }).then((r) => json(r)));
    }
    await Promise.all(changes);
    // The requests raced, so the bot's votes may have ended voided or not; every figure matches either way.
    const settled = (await directCount()).votes;
    expect([12, 18]).toContain(settled);
    await expectFiguresToMatch(settled);
    await json(await restorations(ids.bot!, { reason: 'Settled' }));
    await expectFiguresToMatch(18);
    // The vote service's own totals are its rows' sums too.
    const { rows } = await db.query(
      `SELECT r.photo_id FROM vote.photo_ratings r
       LEFT JOIN (SELECT photo_id, count(*) AS n, sum(rating) AS s FROM vote.photo_votes WHERE voided_at IS NULL AND NOT suspended GROUP BY 1) v USING (photo_id)
       WHERE r.vote_count <> COALESCE(v.n, 0) OR r.rating_sum <> COALESCE(v.s, 0)`,
    );
    expect(rows).toEqual([]);
  });
});
