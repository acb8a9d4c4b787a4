import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Rater, RaterAction, RaterPage, RaterVote, RaterVotePage } from '@/lib/types';
import { deferred, mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

const ME = makeUser({ id: 'admin-1', isAdmin: true, displayName: 'Boss' });
const NOW = Date.now();
const minutesAgo = (minutes: number) => new Date(NOW - minutes * 60_000).toISOString();

function rater(overrides: Partial<Rater> & Pick<Rater, 'userId'>): Rater {
  return {
    name: 'Someone',
    email: `${overrides.userId}@example.com`,
    isEnabled: true,
    votes: 10,
    voided: 0,
    suspended: 0,
    mean: 3,
    spread: 1,
    deviation: 0.5,
    longestRun: 2,
    bursts: 0,
    score: 10,
    lastVoteAt: minutesAgo(5),
    ...overrides,
  };
}

const ADA = rater({ userId: 'ada', name: 'Ada', votes: 120, voided: 3, suspended: 2, mean: 1.234, spread: 0.456, deviation: 1.789, longestRun: 40, bursts: 17, score: 72.46 });
const BOB = rater({ userId: 'bob', name: 'Bob', isEnabled: false, deviation: null, score: 49.95 });
const GONE = rater({ userId: 'gone', name: null, email: null, isEnabled: null, score: 5 });

const COMPUTED_AT = '2025-07-28T10:00:00.000Z';
const listPage = (raters: Rater[], extra: Partial<RaterPage> = {}): RaterPage => ({ raters, total: raters.length, totalPages: 1, computedAt: COMPUTED_AT, ...extra });
const listUrl = (sort = 'score', page = 1) => `/api/admin/raters?sort=${sort}&page=${page}&limit=25`;
const LIST = `GET ${listUrl()}`;

function vote(overrides: Partial<RaterVote> & Pick<RaterVote, 'photoId'>): RaterVote {
  return { rating: 1, castAt: minutesAgo(60), consensus: 4.25, voidedAt: null, voidedBy: null, voidReason: null, suspended: false, ...overrides };
}

const VOTES = [
  vote({ photoId: 12, rating: 1, consensus: 4.25 }),
  vote({ photoId: 13, rating: 5, consensus: null, voidedAt: minutesAgo(30), voidedBy: 'admin-1', voidReason: 'Rated in bursts' }),
  vote({ photoId: 14, rating: 2, suspended: true }),
];
const ACTIONS: RaterAction[] = [
  { id: 'a2', action: 'void', adminId: 'admin-1', adminName: 'Ada Admin', reason: 'Rated in bursts', votes: 6, allVotes: true, at: minutesAgo(30) },
  { id: 'a1', action: 'restore', adminId: 'admin-2', adminName: null, reason: 'A mistake', votes: 1, allVotes: false, at: minutesAgo(90) },
];
const votesPage = (extra: Partial<RaterVotePage> = {}): RaterVotePage => ({ votes: VOTES, total: VOTES.length, totalPages: 1, actions: ACTIONS, ...extra });
const VOTES_URL = '/api/admin/raters/ada/votes?page=1&limit=50';

function renderRaters(routes: Record<string, MockHandler> = {}, me = ME) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: me },
    [LIST]: { body: listPage([ADA, BOB, GONE]) },
    [`GET ${VOTES_URL}`]: { body: votesPage() },
    ...routes,
  });
  return { requests, ...renderApp('/admin/raters') };
}

/** Lays the page out as on a tablet or wider (a table) instead of a phone (cards). */
function wideScreen() {
  vi.stubGlobal('matchMedia', (query: string) => ({
    matches: query === '(min-width: 768px)',
    media: query,
    onchange: null,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
    dispatchEvent: () => false,
  }));
}

const count = (requests: RecordedRequest[], method: string, url: string) => requests.filter((r) => r.method === method && r.url === url).length;

async function findRow(name: RegExp): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: /Raters/ });
  return (await within(table).findByRole('rowheader', { name })).closest('tr')!;
}

/** Opens Ada's votes (from her card on a phone) and waits for them. */
async function openAda() {
  const card = await screen.findByRole('listitem', { name: 'Ada' });
  await userEvent.click(within(card).getByRole('button', { name: 'View votes of Ada' }));
  const dialog = await screen.findByRole('dialog', { name: 'Votes of Ada' });
  await within(dialog).findByRole('list', { name: 'Votes' });
  return dialog;
}

/** The reason dialog opened by `button`. */
async function askWith(dialog: HTMLElement, button: string | RegExp, title: string) {
  await userEvent.click(within(dialog).getByRole('button', { name: button }));
  return screen.findByRole('dialog', { name: title });
}

describe('raters: who sees it', () => {
  it('tells a member they have no access and never asks for the raters', async () => {
    const { requests } = renderRaters({}, makeUser());
    expect(await screen.findByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/admin/raters'))).toBe(false);
  });

  it('is linked from the admin panel', async () => {
    mockFetch({ 'GET /api/auth/user': { body: ME } });
    renderApp('/admin');
    expect(await screen.findByRole('link', { name: 'Raters' })).toHaveAttribute('href', '/admin/raters');
  });
});

describe('raters: the list', () => {
  it('shows a skeleton while loading, then the raters with their figures', async () => {
    wideScreen();
    const pending = deferred<{ body: RaterPage }>();
    renderRaters({ [LIST]: () => pending.promise });
    expect(await screen.findByRole('heading', { level: 1, name: 'Raters' })).toBeInTheDocument();
    expect(document.title).toBe('Raters · Snap Cracks');
    expect(screen.getByRole('status', { name: 'Loading raters' })).toBeInTheDocument();
    pending.resolve({ body: listPage([ADA, BOB, GONE]) });

    const ada = within(await findRow(/Ada/));
    expect(ada.getByText('ada@example.com')).toBeInTheDocument();
    const cells = ada.getAllByRole('cell').map((cell) => cell.textContent);
    // Score (high), votes (with those that do not count), mean, spread, deviation, longest run, bursts, last vote.
    expect(cells).toEqual(['72.5 (high)', '1203 voided2 suspended', '1.2', '0.46', '1.79', '40', '17', '5 minutes ago']);
    expect(screen.getByText('3 voided')).toBeInTheDocument();

    const bob = within(await findRow(/Bob/));
    expect(bob.getByText('Disabled')).toBeInTheDocument();
    expect(bob.getAllByRole('cell').map((cell) => cell.textContent)).toEqual(['50.0 (high)', '10', '3.0', '1.00', '—', '2', '0', '5 minutes ago']);
    expect(ada.queryByText('Disabled')).not.toBeInTheDocument();

    const gone = within(await findRow(/Deleted account/));
    expect(gone.getByRole('cell', { name: '5.0' })).toBeInTheDocument();
    expect(gone.queryByText('Disabled')).not.toBeInTheDocument();

    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Rater', 'Score', 'Votes', 'Mean', 'Spread', 'Deviation', 'Longest run', 'Bursts', 'Last vote']);
    expect(screen.getByText('3 raters')).toBeInTheDocument();
    expect(screen.getByText(/^Figures as of Jul 28, 2025/)).toBeInTheDocument();
    expect(
      screen.getByText(
        'The score (0–100) weighs disagreement with other voters, votes in quick bursts, long runs of one rating and ratings with no spread, scaled down for members with few votes.',
      ),
    ).toBeInTheDocument();
  });

  it('sorts by a column’s header, highest first, and marks the column', async () => {
    wideScreen();
    const { requests } = renderRaters({ [`GET ${listUrl('bursts')}`]: { body: listPage([BOB, ADA]) } });
    await findRow(/Ada/);
    const score = screen.getByRole('columnheader', { name: /Score/ });
    expect(score).toHaveAttribute('aria-sort', 'descending');
    expect(screen.getByRole('columnheader', { name: /Bursts/ })).not.toHaveAttribute('aria-sort');

    await userEvent.click(screen.getByRole('button', { name: 'Bursts' }));
    await waitFor(() => expect(count(requests, 'GET', listUrl('bursts'))).toBe(1));
    await waitFor(() => expect(screen.getByRole('columnheader', { name: /Bursts/ })).toHaveAttribute('aria-sort', 'descending'));
    expect(screen.getByRole('columnheader', { name: /Score/ })).not.toHaveAttribute('aria-sort');
    await waitFor(() => expect(within(screen.getByRole('table')).getAllByRole('rowheader').map((cell) => cell.textContent)).toEqual([expect.stringMatching(/^Bob/), expect.stringMatching(/^Ada/)]));
  });

  it('shows cards on a phone, sorted with a menu', async () => {
    const { requests } = renderRaters({ [`GET ${listUrl('deviation')}`]: { body: listPage([ADA]) } });
    const list = await screen.findByRole('list', { name: 'Raters' });
    expect(within(list).getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual(['Ada', 'Bob', 'Deleted account']);
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    const ada = within(screen.getByRole('listitem', { name: 'Ada' }));
    expect(ada.getByText('72.5')).toBeInTheDocument();
    expect(ada.getByText('2 suspended')).toBeInTheDocument();

    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Sort by' }), 'deviation');
    await waitFor(() => expect(count(requests, 'GET', listUrl('deviation'))).toBe(1));
  });

  it('pages with Previous and Next', async () => {
    const { requests } = renderRaters({
      [LIST]: { body: listPage([ADA], { total: 60, totalPages: 3 }) },
      [`GET ${listUrl('score', 2)}`]: { body: listPage([BOB], { total: 60, totalPages: 3 }) },
    });
    const pages = await screen.findByRole('navigation', { name: 'Rater list pages' });
    expect(within(pages).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(within(pages).getByRole('button', { name: 'Previous page' })).toBeDisabled();
    await userEvent.click(within(pages).getByRole('button', { name: 'Next page' }));
    expect(await screen.findByRole('listitem', { name: 'Bob' })).toBeInTheDocument();
    expect(within(pages).getByText('Page 2 of 3')).toBeInTheDocument();
    expect(count(requests, 'GET', listUrl('score', 2))).toBe(1);
    expect(screen.getByRole('heading', { name: 'Members who rated' })).toHaveFocus();
  });

  it('says when the figures are still being computed', async () => {
    renderRaters({ [LIST]: { body: listPage([ADA], { computedAt: null }) } });
    expect(await screen.findByText('Figures are being computed.')).toBeInTheDocument();
  });

  it('says when no one has rated yet', async () => {
    renderRaters({ [LIST]: { body: listPage([]) } });
    expect(await screen.findByText('No one has rated a photo yet.')).toBeInTheDocument();
  });

  it('shows a failure with Try Again', async () => {
    let calls = 0;
    renderRaters({ [LIST]: () => (++calls === 1 ? { status: 500, text: 'boom' } : { body: listPage([ADA]) }) });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Could not load the raters')).toBeInTheDocument();
    await userEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('listitem', { name: 'Ada' })).toBeInTheDocument();
  });
});

describe('raters: a rater’s votes', () => {
  it('lists the votes with the others’ mean and whether they count, and the history', async () => {
    renderRaters();
    const dialog = await openAda();
    expect(within(dialog).getByText('ada@example.com · 120 votes · 3 voided · 2 suspended')).toBeInTheDocument();
    const items = within(within(dialog).getByRole('list', { name: 'Votes' })).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual(['Photo #12', 'Photo #13', 'Photo #14']);
    expect(within(items[0]!).getByText('Counts')).toBeInTheDocument();
    expect(within(items[0]!).getByText('4.3')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/^1/)).toHaveTextContent('1 of 5');
    expect(within(items[1]!).getByText('Voided — Rated in bursts')).toBeInTheDocument();
    expect(within(items[1]!).getByText('—')).toBeInTheDocument();
    expect(within(items[2]!).getByText('Suspended (account disabled)')).toBeInTheDocument();
    expect(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #12' })).not.toBeChecked();

    const history = within(within(dialog).getByRole('region', { name: 'History' })).getAllByRole('listitem');
    expect(history.map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Voided 6 votes \(all\) — Ada Admin — Rated in bursts — \w{3} \d+, \d{4}/),
      expect.stringMatching(/^Restored 1 vote — Deleted account — A mistake — /),
    ]);
  });

  it('pages through the votes, choosing afresh on each page', async () => {
    const { requests } = renderRaters({
      [`GET ${VOTES_URL}`]: { body: votesPage({ total: 53, totalPages: 2 }) },
      'GET /api/admin/raters/ada/votes?page=2&limit=50': { body: votesPage({ votes: [vote({ photoId: 7 })], total: 53, totalPages: 2 }) },
    });
    const dialog = await openAda();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #12' }));
    const pages = within(dialog).getByRole('navigation', { name: 'Vote pages' });
    expect(within(pages).getByText('Page 1 of 2')).toBeInTheDocument();
    await userEvent.click(within(pages).getByRole('button', { name: 'Next page' }));
    expect(await within(dialog).findByRole('checkbox', { name: 'Select vote on photo #7' })).not.toBeChecked();
    expect(within(dialog).getByRole('button', { name: 'Void selected (0)' })).toBeDisabled();
    expect(count(requests, 'GET', '/api/admin/raters/ada/votes?page=2&limit=50')).toBe(1);
  });

  it('closes with Escape and gives focus back to the button that opened it', async () => {
    renderRaters();
    await openAda();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByRole('button', { name: 'View votes of Ada' })).toHaveFocus();
  });

  it('says so when the member has no votes', async () => {
    renderRaters({ [`GET ${VOTES_URL}`]: { status: 404, body: { message: 'This member has no votes.' } } });
    const dialog = await screen.findByRole('listitem', { name: 'Ada' }).then(async (card) => {
      await userEvent.click(within(card).getByRole('button', { name: 'View votes of Ada' }));
      return screen.findByRole('dialog', { name: 'Votes of Ada' });
    });
    expect(await within(dialog).findByText('This member has no votes.')).toBeInTheDocument();
  });

  it('voids the selected votes with a reason, toasts and refreshes the votes and the list', async () => {
    const { requests } = renderRaters({ 'POST /api/admin/raters/ada/voids': { body: { changed: 2 } } });
    const dialog = await openAda();
    const voidSelected = within(dialog).getByRole('button', { name: 'Void selected (0)' });
    expect(voidSelected).toBeDisabled();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #12' }));
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #14' }));
    const ask = await askWith(dialog, 'Void selected (2)', 'Void 2 votes');

    // A blank reason is not sent.
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), '   ');
    await userEvent.click(within(ask).getByRole('button', { name: 'Void votes' }));
    expect(within(ask).getByRole('alert')).toHaveTextContent('Please give a reason.');
    expect(count(requests, 'POST', '/api/admin/raters/ada/voids')).toBe(0);

    const lists = count(requests, 'GET', listUrl());
    const votes = count(requests, 'GET', VOTES_URL);
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), ' Rated in bursts ');
    expect(within(ask).getByText('15/500')).toBeInTheDocument();
    await userEvent.click(within(ask).getByRole('button', { name: 'Void votes' }));

    expect(await screen.findByText('2 votes voided.')).toBeInTheDocument();
    const sent = requests.filter((r) => r.method === 'POST');
    expect(sent.map((r) => r.json)).toEqual([{ photoIds: [12, 14], reason: 'Rated in bursts' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Void 2 votes' })).not.toBeInTheDocument());
    await waitFor(() => expect(count(requests, 'GET', listUrl())).toBe(lists + 1));
    await waitFor(() => expect(count(requests, 'GET', VOTES_URL)).toBe(votes + 1));
    expect(within(dialog).getByRole('button', { name: 'Void selected (0)' })).toBeDisabled();
    expect(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #12' })).not.toBeChecked();
  });

  it('voids all votes without listing photos', async () => {
    const { requests } = renderRaters({ 'POST /api/admin/raters/ada/voids': { body: { changed: 117 } } });
    const dialog = await openAda();
    const ask = await askWith(dialog, 'Void all votes', 'Void all votes');
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), 'A bot');
    await userEvent.click(within(ask).getByRole('button', { name: 'Void votes' }));
    expect(await screen.findByText('117 votes voided.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([{ reason: 'A bot' }]);
  });

  it('selects every vote on the page and restores them', async () => {
    const { requests } = renderRaters({ 'POST /api/admin/raters/ada/restorations': { body: { changed: 1 } } });
    const dialog = await openAda();
    await userEvent.click(within(dialog).getByRole('checkbox', { name: 'Select all on this page' }));
    expect(within(dialog).getByRole('checkbox', { name: 'Select vote on photo #13' })).toBeChecked();
    const ask = await askWith(dialog, 'Restore selected (3)', 'Restore 3 votes');
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), 'Checked by hand');
    await userEvent.click(within(ask).getByRole('button', { name: 'Restore votes' }));
    expect(await screen.findByText('1 vote restored.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => [r.url, r.json])).toEqual([
      ['/api/admin/raters/ada/restorations', { photoIds: [12, 13, 14], reason: 'Checked by hand' }],
    ]);
  });

  it('restores all, and says when nothing changed', async () => {
    const { requests } = renderRaters({ 'POST /api/admin/raters/ada/restorations': { body: { changed: 0 } } });
    const dialog = await openAda();
    const ask = await askWith(dialog, 'Restore all', 'Restore all votes');
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), 'Cleared');
    await userEvent.click(within(ask).getByRole('button', { name: 'Restore votes' }));
    expect(await screen.findByText('No votes changed.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([{ reason: 'Cleared' }]);
  });

  it('closes only the reason dialog with Escape, and gives focus back to its button', async () => {
    const { requests } = renderRaters();
    const dialog = await openAda();
    await askWith(dialog, 'Void all votes', 'Void all votes');
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Void all votes' })).not.toBeInTheDocument());
    expect(screen.getByRole('dialog', { name: 'Votes of Ada' })).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Void all votes' })).toHaveFocus();
    expect(requests.some((r) => r.method === 'POST')).toBe(false);
  });

  it('shows the server’s message and stays open when the change is refused', async () => {
    renderRaters({ 'POST /api/admin/raters/ada/voids': { status: 400, body: { message: 'Reason must be 500 characters or less' } } });
    const dialog = await openAda();
    const ask = await askWith(dialog, 'Void all votes', 'Void all votes');
    await userEvent.type(within(ask).getByRole('textbox', { name: 'Reason' }), 'Too long, says the server');
    await userEvent.click(within(ask).getByRole('button', { name: 'Void votes' }));
    expect(await within(ask).findByRole('alert')).toHaveTextContent('Reason must be 500 characters or less');
    expect(screen.getByRole('dialog', { name: 'Void all votes' })).toBeInTheDocument();
    expect(screen.queryByText(/votes voided/)).not.toBeInTheDocument();
  });
});
