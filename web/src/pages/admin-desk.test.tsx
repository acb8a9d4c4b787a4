import { DESK, REJECTION_REASON } from '@snapcracks/http-contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetReviewDecisions } from '@/components/admin/review-decisions';
import type { AdminPhoto, DeskItem, DeskNext, ReasonTemplate } from '@/lib/types';
import { deferred, mockFetch, type MockHandler, type MockResponse, type RecordedRequest } from '@/test/fetch-mock';
import { makeAdminPhoto, makeDeskItem, makeReasonTemplate, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.useRealTimers();
  // Decisions are held in a module-level store: forget them (unsent) between tests.
  resetReviewDecisions();
});

const ADMIN = makeUser({ id: 'admin-1', isAdmin: true, displayName: 'Boss' });
const UNDO_MS = DESK.undoSeconds * 1000;
const RENEW_MS = DESK.renewEverySeconds * 1000;

const FIRST = makeAdminPhoto({ id: 1, description: 'First crack' });
const SECOND = makeAdminPhoto({ id: 2, description: 'Second crack' });
const THIRD = makeAdminPhoto({ id: 3, description: 'Third crack' });
const TEMPLATES: ReasonTemplate[] = [
  makeReasonTemplate({ id: '00000000-0000-4000-8000-000000000001', label: 'Not a crack', text: 'We could not find a crack in this photo.' }),
  makeReasonTemplate({ id: '00000000-0000-4000-8000-000000000002', label: 'Face visible', text: 'A face can be recognised. Please hide it with a privacy bar.' }),
];

interface DeskServer {
  routes: Record<string, MockHandler>;
  /** The bodies "Review next" was asked with, in order. */
  nextBodies: () => unknown[];
}

/**
 * The desk's server: "Review next" offers the photos in order, leaving out those skipped or being decided, and those
 * already decided; decisions and renewals answer as the gateway would.
 */
function deskServer(photos: AdminPhoto[], { items = {}, renew }: { items?: Record<number, Partial<DeskItem>>; renew?: (photoId: number) => MockResponse } = {}): DeskServer {
  const decided = new Set<number>();
  const bodies: unknown[] = [];
  const routes: Record<string, MockHandler> = {
    'POST /api/admin/desk/next': (request) => {
      bodies.push(request.json);
      const { skipped = [], deciding = [] } = request.json as { skipped?: number[]; deciding?: number[] };
      const open = photos.filter((photo) => !decided.has(photo.id) && !skipped.includes(photo.id) && !deciding.includes(photo.id));
      const photo = open[0];
      const answer: DeskNext = { item: photo ? makeDeskItem(photo, items[photo.id]) : null, waiting: open.length };
      return { body: answer };
    },
  };
  for (const photo of photos) {
    routes[`PATCH /api/admin/photos/${photo.id}/status`] = (request) => {
      decided.add(photo.id);
      return { body: { ...photo, ...(request.json as object) } };
    };
    routes[`POST /api/admin/desk/claims/${photo.id}/renewal`] = () =>
      renew?.(photo.id) ?? { body: { photoId: photo.id, expiresAt: '2025-07-30T10:04:00.000Z' } };
    routes[`DELETE /api/admin/desk/claims/${photo.id}`] = { status: 204 };
  }
  return { routes, nextBodies: () => bodies };
}

function renderDesk(server: DeskServer, routes: Record<string, MockHandler> = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: ADMIN },
    'GET /api/admin/reason-templates': { body: { templates: TEMPLATES } },
    ...server.routes,
    ...routes,
  });
  const result = renderApp('/admin/desk');
  return { requests, ...result };
}

const patches = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PATCH');
const calls = (requests: RecordedRequest[], method: string, url: string) => requests.filter((r) => r.method === method && r.url === url);
const itemHeading = (name: string) => screen.findByRole('heading', { level: 2, name });
const undoBar = () => screen.queryByTestId('desk-undo-bar');

function useFakeClock() {
  vi.useFakeTimers({ shouldAdvanceTime: true });
  return userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
}

describe('review desk: the item', () => {
  it('claims the photo that has waited longest and shows it whole, with what the admin needs to decide', async () => {
    const server = deskServer([FIRST, SECOND]);
    const { requests } = renderDesk(server);
    expect(await screen.findByRole('heading', { level: 1, name: 'Review Desk' })).toBeInTheDocument();
    const heading = await itemHeading('First crack');
    const item = heading.closest('article')!;
    expect(document.title).toBe('Review Desk · Snap Cracks');
    expect(server.nextBodies()).toEqual([{ skipped: [], deciding: [] }]);
    expect(within(item).getByText(DESK.kindLabels.new)).toBeInTheDocument();
    expect(within(item).getByTestId('desk-waiting')).toHaveTextContent('2 photos waiting');
    expect(within(item).getByText('Alice Example')).toBeInTheDocument();
    expect(within(item).getByText('0 privacy bars')).toBeInTheDocument();
    expect(within(item).getByTestId('desk-claim')).toHaveAttribute('dateTime', '2025-07-30T10:02:00.000Z');
    const image = within(item).getByRole('img', { name: 'First crack' });
    // Contained in its frame, never cropped.
    expect(image.className).toContain('object-contain');
    expect(image.parentElement!.style.aspectRatio).toBe('4 / 3');
    // Every action is a button showing its key.
    expect(within(item).getByRole('button', { name: 'Approve' })).toHaveAttribute('aria-keyshortcuts', 'A');
    expect(within(item).getByRole('button', { name: 'Reject' })).toHaveAttribute('aria-keyshortcuts', 'R');
    expect(within(item).getByRole('button', { name: 'Skip' })).toHaveAttribute('aria-keyshortcuts', 'S');
    expect(patches(requests)).toHaveLength(0);
  });

  it('shows a reported photo’s open reports with their notes, and a resubmission’s story', async () => {
    const reported = makeAdminPhoto({ id: 5, description: 'Reported crack', underReview: true });
    const resubmitted = makeAdminPhoto({
      id: 6,
      description: 'Crack, face hidden',
      resubmission: { resubmittedAt: '2025-07-30T10:00:00.000Z', note: 'Hid the face', previousRejectionReason: 'A face is visible', descriptionBefore: 'Crack', privacyBarsBefore: [] },
    });
    const server = deskServer([reported, resubmitted], {
      items: {
        5: { kind: 'reported', reporters: 3, reports: [{ category: 'personal_data', count: 2, notes: ['A face at the left'] }] },
        6: { kind: 'resubmission' },
      },
    });
    const user = userEvent.setup();
    renderDesk(server);
    const item = (await itemHeading('Reported crack')).closest('article')!;
    expect(within(item).getByText(DESK.kindLabels.reported)).toBeInTheDocument();
    expect(within(item).getByText('3 members')).toBeInTheDocument();
    expect(within(item).getByText('Faces or personal data visible')).toBeInTheDocument();
    expect(within(item).getByText('“A face at the left”')).toBeInTheDocument();

    await user.keyboard('s');
    const next = (await itemHeading('Crack, face hidden')).closest('article')!;
    expect(within(next).getByText(DESK.kindLabels.resubmission)).toBeInTheDocument();
    expect(within(next).getByRole('region', { name: 'Resubmission' })).toHaveTextContent('The uploader says: “Hid the face”');
  });

  it('says when nothing is waiting, and checks again on request', async () => {
    const user = userEvent.setup();
    const server = deskServer([]);
    renderDesk(server);
    expect(await itemHeading('Nothing waiting for review')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to the Admin Panel' })).toHaveAttribute('href', '/admin');
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    await waitFor(() => expect(server.nextBodies()).toHaveLength(2));
    expect(await itemHeading('Nothing waiting for review')).toHaveFocus();
  });

  it('shows a loading state, then a failure with a way to try again', async () => {
    const user = userEvent.setup();
    let fail = true;
    const failure = deferred<MockResponse>();
    const server = deskServer([FIRST]);
    const next = server.routes['POST /api/admin/desk/next'] as (request: RecordedRequest) => MockResponse;
    renderDesk(server, { 'POST /api/admin/desk/next': (request) => (fail ? failure.promise : next(request)) });
    expect(await screen.findByRole('status', { name: 'Loading the next photo' })).toBeInTheDocument();
    failure.resolve({ status: 500, body: { message: 'Internal server error' } });
    expect(await itemHeading('The next photo could not be loaded.')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading the next photo' })).not.toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await itemHeading('First crack')).toHaveFocus();
  });
});

describe('review desk: deciding', () => {
  it('approves with A: holds the decision for its Undo, shows the next photo at once, and sends it after 10 s', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND]);
    const { requests } = renderDesk(server);
    await itemHeading('First crack');

    await user.keyboard('a');
    expect(await itemHeading('Second crack')).toHaveFocus();
    // The held photo stays claimed by this desk: "Review next" leaves it out.
    expect(server.nextBodies()[1]).toEqual({ skipped: [], deciding: [1] });
    expect(undoBar()).toHaveTextContent(/^Approved “First crack” — Undo \(U\) · (10|9) s$/);
    expect(screen.getByTestId('desk-announcement')).toHaveTextContent('Approved “First crack”; U undoes it. Now reviewing “Second crack”, New upload. 1 photo waiting.');

    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS - 2000));
    expect(patches(requests)).toHaveLength(0);
    expect(undoBar()).toHaveTextContent(/· [1-3] s$/);

    await act(() => vi.advanceTimersByTimeAsync(2500));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toMatchObject({ url: '/api/admin/photos/1/status', json: { status: 'approved' } });
    expect(patches(requests)[0]!.init?.keepalive).toBe(true);
    await waitFor(() => expect(undoBar()).not.toBeInTheDocument());
  });

  it('undoes with U within the 10 s: nothing is ever sent, the photo comes back (renewed), the one shown is released', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND]);
    const { requests } = renderDesk(server);
    await itemHeading('First crack');
    await user.keyboard('a');
    await itemHeading('Second crack');
    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS - 3000));

    await user.keyboard('u');
    expect(await itemHeading('First crack')).toHaveFocus();
    expect(undoBar()).not.toBeInTheDocument();
    await waitFor(() => expect(calls(requests, 'POST', '/api/admin/desk/claims/1/renewal')).toHaveLength(1));
    await waitFor(() => expect(calls(requests, 'DELETE', '/api/admin/desk/claims/2')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS * 2));
    expect(patches(requests)).toHaveLength(0);
    // The photo is decided again as if for the first time.
    expect(screen.getByRole('button', { name: 'Approve' })).toBeEnabled();
  });

  it('undoes with Control+Z too, and only the last decision', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND, THIRD]);
    const { requests } = renderDesk(server);
    await itemHeading('First crack');
    await user.keyboard('a');
    await itemHeading('Second crack');
    await user.keyboard('a');
    await itemHeading('Third crack');
    expect(server.nextBodies()[2]).toEqual({ skipped: [], deciding: [1, 2] });

    await user.keyboard('{Control>}z{/Control}');
    expect(await itemHeading('Second crack')).toHaveFocus();
    // The first decision can no longer be taken back: U does nothing more.
    await user.keyboard('u');
    expect(screen.getByRole('heading', { level: 2, name: 'Second crack' })).toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS + 500));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]!.url).toBe('/api/admin/photos/1/status');
  });

  it('rejects with R, a saved reason picked with 1, and Enter', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND]);
    const { requests } = renderDesk(server);
    await itemHeading('First crack');
    await user.keyboard('r');
    const panel = await screen.findByRole('form', { name: 'Reject this photo' });
    await waitFor(() => expect(panel).toHaveFocus());
    expect(within(panel).getByRole('button', { name: 'Not a crack' })).toHaveAttribute('aria-keyshortcuts', '1');
    expect(within(panel).getByRole('button', { name: 'Face visible' })).toHaveAttribute('aria-keyshortcuts', '2');

    await user.keyboard('1');
    expect(within(panel).getByLabelText('Reason for rejection')).toHaveValue(TEMPLATES[0]!.text);
    await user.keyboard('{Enter}');
    expect(await itemHeading('Second crack')).toHaveFocus();
    expect(undoBar()).toHaveTextContent('Rejected “First crack”');

    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS + 500));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toMatchObject({ url: '/api/admin/photos/1/status', json: { status: 'rejected', rejectionReason: TEMPLATES[0]!.text } });
  });

  it('lets the admin write or change the reason: keys typed there are the text’s, Control+Enter rejects, an empty reason is refused, Escape cancels', async () => {
    const user = userEvent.setup();
    const server = deskServer([FIRST, SECOND]);
    renderDesk(server, { 'GET /api/admin/reason-templates': { body: { templates: [] } } });
    await itemHeading('First crack');

    await user.keyboard('r');
    let reason = await screen.findByLabelText('Reason for rejection');
    // Without saved reasons the text takes focus at once.
    await waitFor(() => expect(reason).toHaveFocus());
    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByLabelText('Reason for rejection')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Reject' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Reject' }));
    reason = await screen.findByLabelText('Reason for rejection');
    await user.click(screen.getByRole('button', { name: 'Reject' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(REJECTION_REASON.required);
    // The "a" and "s" typed into the reason decide nothing.
    await user.type(reason, 'Too dark, sadly');
    expect(screen.getByRole('heading', { level: 2, name: 'First crack' })).toBeInTheDocument();
    await user.keyboard('{Control>}{Enter}{/Control}');
    expect(await itemHeading('Second crack')).toBeInTheDocument();
    expect(undoBar()).toHaveTextContent('Rejected “First crack”');
  });

  it('skips with S: the photo is released to others and left out of every later request', async () => {
    const user = userEvent.setup();
    const server = deskServer([FIRST, SECOND, THIRD]);
    const { requests } = renderDesk(server);
    await itemHeading('First crack');
    await user.keyboard('s');
    expect(await itemHeading('Second crack')).toHaveFocus();
    expect(server.nextBodies()[1]).toEqual({ skipped: [1], deciding: [] });
    await user.click(screen.getByRole('button', { name: 'Skip' }));
    expect(await itemHeading('Third crack')).toBeInTheDocument();
    expect(server.nextBodies()[2]).toEqual({ skipped: [1, 2], deciding: [] });
    expect(patches(requests)).toHaveLength(0);
  });

  it('shows the server’s word when another admin has the photo claimed', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND]);
    renderDesk(server, { 'PATCH /api/admin/photos/1/status': { status: 409, body: { message: DESK.claimedByOther } } });
    await itemHeading('First crack');
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    await itemHeading('Second crack');
    await act(() => vi.advanceTimersByTimeAsync(UNDO_MS + 500));
    expect(await screen.findByText(DESK.claimedByOther)).toBeInTheDocument();
  });

  it('lists the keys on ?', async () => {
    const user = userEvent.setup();
    renderDesk(deskServer([FIRST]));
    await itemHeading('First crack');
    await user.keyboard('?');
    const help = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(help).toHaveTextContent('Approve the photo');
    expect(help).toHaveTextContent(`Undo the last decision, within ${DESK.undoSeconds} seconds`);
    // Keys pressed in the help decide nothing.
    await user.keyboard('a');
    expect(screen.queryByTestId('desk-undo-bar')).not.toBeInTheDocument();
  });
});

describe('review desk: the claim', () => {
  it('renews the claim every 30 s while the photo is shown', async () => {
    useFakeClock();
    const { requests } = renderDesk(deskServer([FIRST]));
    await itemHeading('First crack');
    expect(calls(requests, 'POST', '/api/admin/desk/claims/1/renewal')).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(RENEW_MS + 100));
    await waitFor(() => expect(calls(requests, 'POST', '/api/admin/desk/claims/1/renewal')).toHaveLength(1));
    await act(() => vi.advanceTimersByTimeAsync(RENEW_MS));
    await waitFor(() => expect(calls(requests, 'POST', '/api/admin/desk/claims/1/renewal')).toHaveLength(2));
    expect(screen.getByTestId('desk-claim')).toHaveAttribute('dateTime', '2025-07-30T10:04:00.000Z');
  });

  it('says so when the claim has ended, and takes the next one on request', async () => {
    const user = useFakeClock();
    const server = deskServer([FIRST, SECOND], { renew: () => ({ status: 409, body: { message: DESK.claimLost } }) });
    const { requests } = renderDesk(server);
    await itemHeading('First crack');
    await act(() => vi.advanceTimersByTimeAsync(RENEW_MS + 100));
    expect(await screen.findByText(DESK.claimLost)).toBeInTheDocument();
    // No decision on a photo that is no longer ours.
    expect(screen.queryByRole('button', { name: 'Approve' })).not.toBeInTheDocument();
    await user.keyboard('a');
    expect(undoBar()).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Take the next one' }));
    await waitFor(() => expect(server.nextBodies()).toHaveLength(2));
    expect(await itemHeading('First crack')).toHaveFocus();
    expect(patches(requests)).toHaveLength(0);
  });

  it('releases the claim when the admin leaves the desk', async () => {
    const user = userEvent.setup();
    const { requests } = renderDesk(deskServer([FIRST]));
    await itemHeading('First crack');
    await user.click(screen.getByRole('link', { name: 'Admin Panel' }));
    await waitFor(() => expect(calls(requests, 'DELETE', '/api/admin/desk/claims/1')).toHaveLength(1));
    expect(calls(requests, 'DELETE', '/api/admin/desk/claims/1')[0]!.init?.keepalive).toBe(true);
  });

  it('as the page goes away, sends the decision still held at once and releases the claim of the photo shown', async () => {
    const user = userEvent.setup();
    const { requests } = renderDesk(deskServer([FIRST, SECOND]));
    await itemHeading('First crack');
    await user.keyboard('a');
    await itemHeading('Second crack');
    expect(patches(requests)).toHaveLength(0);
    act(() => {
      window.dispatchEvent(new Event('pagehide'));
    });
    expect(patches(requests)).toHaveLength(1);
    expect(patches(requests)[0]).toMatchObject({ url: '/api/admin/photos/1/status', json: { status: 'approved' } });
    expect(patches(requests)[0]!.init?.keepalive).toBe(true);
    await waitFor(() => expect(calls(requests, 'DELETE', '/api/admin/desk/claims/2')).toHaveLength(1));
    // The decided photo's claim ends with its decision; it is not released before.
    expect(calls(requests, 'DELETE', '/api/admin/desk/claims/1')).toHaveLength(0);
  });
});
