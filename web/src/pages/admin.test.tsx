import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { QueryKey } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetReviewDecisions, UNDO_WINDOW_MS } from '@/components/admin/review-decisions';
import { SupportBadge, formatBadgeCount } from '@/components/admin/support-badge';
import type { AdminPhoto, AdminPhotoPage, AdminStats } from '@/lib/types';
import { ADMIN_POLL_MS, adminPhotosQueryKey, adminStatsQueryKey } from '@/queries/admin';
import { deferred, mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeAdminPhoto as makePhoto, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.useRealTimers();
  // Decisions are held in a module-level store: forget them (unsent) between tests.
  resetReviewDecisions();
});

// The editor's drawing is tested with the editor; here the edit dialog only needs to open and save.
vi.mock('@/components/privacy-bars/privacy-bar-editor', () => ({
  PrivacyBarEditor: ({ bars }: { bars: unknown[] }) => <div data-testid="privacy-bar-editor">{bars.length} bars</div>,
}));

const ADMIN = makeUser({ id: 'admin-1', isAdmin: true, displayName: 'Boss' });
const STATS: AdminStats = { pendingReviews: 2, approvedToday: 1, rejectedToday: 1, totalPhotos: 9 };
const CONTACT_NEW = 'GET /api/admin/contact-forms?status=new&page=1&limit=1';
const contactCounts = (newCount: number) => ({
  body: { items: [], counts: { new: newCount, in_progress: 0, resolved: 0, total: newCount }, total: newCount, page: 1, totalPages: 1 },
});

const page = (photos: AdminPhoto[], totalPages = 1): { body: AdminPhotoPage } => ({ body: { photos, total: photos.length, totalPages } });

const PENDING = makePhoto({ id: 1, description: 'Pending crack' });
const REPEAT = makePhoto({
  id: 2,
  description: 'Suspicious crack',
  reviewMarks: {
    similarRejected: { photoId: 40, rejectionReason: 'Not a crack, a shadow', distance: 3, sameUploader: true, rejectedAt: '2025-07-29T10:00:00.000Z' },
    duplicateOf: { photoId: 12, status: 'rejected' },
  },
});
const APPROVED = makePhoto({
  id: 3,
  description: 'Approved crack',
  status: 'approved',
  averageRating: 4.5,
  voteCount: 2,
  auditLog: [{ id: 'a1', action: 'approve', actorId: 'admin-1', reason: null, createdAt: '2025-07-30T11:00:00.000Z' }],
});
const REJECTED = makePhoto({
  id: 4,
  description: 'Rejected crack',
  status: 'rejected',
  rejectionReason: 'Blurry',
  auditLog: [{ id: 'r1', action: 'reject', actorId: 'admin-2', reason: 'Blurry', createdAt: '2025-07-30T12:00:00.000Z' }],
});

function renderAdmin(routes: Record<string, MockHandler> = {}, user = ADMIN) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: user },
    'GET /api/admin/stats': { body: STATS },
    'GET /api/admin/photos/pending?page=1&limit=12': page([PENDING, REPEAT]),
    'GET /api/admin/photos/approved-today?page=1&limit=12': page([APPROVED]),
    'GET /api/admin/photos/rejected-today?page=1&limit=12': page([REJECTED]),
    'GET /api/admin/photos/all?page=1&limit=12': page([PENDING, REPEAT, APPROVED, REJECTED]),
    [CONTACT_NEW]: contactCounts(3),
    ...routes,
  });
  const result = renderApp('/admin');
  return { requests, ...result };
}

const count = (requests: RecordedRequest[], method: string, url: string) => requests.filter((r) => r.method === method && r.url === url).length;
const card = (name: string) => screen.findByRole('listitem', { name });
/** The toast showing `text`. */
const toastOf = (text: string) => screen.getByText(text).closest('li')!;
const filterButton = (name: RegExp) => within(screen.getByRole('group', { name: 'Photo filters' })).getByRole('button', { name });

describe('admin panel: access', () => {
  it('shows Access Denied to a member, and asks for nothing admin-only', async () => {
    const { requests } = renderAdmin({}, makeUser());
    expect(await screen.findByText("You don't have permission to access the admin panel.")).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeInTheDocument();
    expect(requests.some((r) => r.url.startsWith('/api/admin/'))).toBe(false);
  });
});

describe('admin panel: stat cards and filters', () => {
  it('shows the title, the counters with skeletons until they load, and the pending list by default', async () => {
    const stats = deferred<{ body: AdminStats }>();
    renderAdmin({ 'GET /api/admin/stats': () => stats.promise });
    expect(await screen.findByRole('heading', { level: 1, name: 'Admin Panel' })).toBeInTheDocument();
    expect(screen.queryByTestId('stat-pending')).not.toBeInTheDocument();
    stats.resolve({ body: STATS });
    expect(await screen.findByTestId('stat-pending')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-approved-today')).toHaveTextContent('1');
    expect(screen.getByTestId('stat-rejected-today')).toHaveTextContent('1');
    expect(screen.getByTestId('stat-all')).toHaveTextContent('9');
    expect(filterButton(/Pending Reviews/)).toHaveAttribute('aria-pressed', 'true');
    expect(await card('Pending crack')).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 2, name: /Pending Reviews/ })).toBeInTheDocument();
  });

  it('shows skeletons while the list loads', async () => {
    const list = deferred<{ body: AdminPhotoPage }>();
    renderAdmin({ 'GET /api/admin/photos/pending?page=1&limit=12': () => list.promise });
    expect(await screen.findByRole('status', { name: 'Loading photos' })).toBeInTheDocument();
    list.resolve(page([PENDING]));
    expect(await card('Pending crack')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading photos' })).not.toBeInTheDocument();
  });

  it('switches the list with each card, fetching a list only when it is chosen', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin();
    await card('Pending crack');
    expect(count(requests, 'GET', '/api/admin/photos/approved-today?page=1&limit=12')).toBe(0);
    expect(count(requests, 'GET', '/api/admin/photos/all?page=1&limit=12')).toBe(0);

    await user.click(filterButton(/Approved Today/));
    expect(await card('Approved crack')).toBeInTheDocument();
    expect(filterButton(/Approved Today/)).toHaveAttribute('aria-pressed', 'true');
    expect(filterButton(/Pending Reviews/)).toHaveAttribute('aria-pressed', 'false');
    expect(screen.queryByRole('listitem', { name: 'Pending crack' })).not.toBeInTheDocument();

    await user.click(filterButton(/Rejected Today/));
    const rejected = within(await card('Rejected crack'));
    expect(rejected.getByText('Blurry', { selector: 'p' })).toBeInTheDocument();

    await user.click(filterButton(/Total Photos/));
    expect(await card('Approved crack')).toBeInTheDocument();
    expect(screen.getAllByRole('listitem', { name: /crack/ })).toHaveLength(4);
    expect(count(requests, 'GET', '/api/admin/photos/all?page=1&limit=12')).toBe(1);
  });

  it('polls the counters and the pending list every 5 s, and no other list', async () => {
    const user = userEvent.setup();
    const { queryClient } = renderAdmin();
    await card('Pending crack');
    const interval = (key: QueryKey) => queryClient.getQueryCache().find({ queryKey: key, exact: false })?.observers[0]?.options.refetchInterval;
    expect(ADMIN_POLL_MS).toBe(5000);
    expect(interval(adminStatsQueryKey)).toBe(5000);
    expect(interval(adminPhotosQueryKey('pending', 1))).toBe(5000);
    await user.click(filterButton(/Approved Today/));
    await card('Approved crack');
    expect(interval(adminPhotosQueryKey('approved-today', 1))).toBe(false);
  });

  it('says when a list is empty', async () => {
    const user = userEvent.setup();
    renderAdmin({ 'GET /api/admin/photos/rejected-today?page=1&limit=12': page([]) });
    await card('Pending crack');
    await user.click(filterButton(/Rejected Today/));
    expect(await screen.findByText('No photos have been rejected today.')).toBeInTheDocument();
  });
});

describe('admin panel: reviewing', () => {
  it('offers approve and reject only on pending photos, edit and delete on every photo', async () => {
    const user = userEvent.setup();
    renderAdmin();
    const pending = within(await card('Pending crack'));
    expect(pending.getByRole('button', { name: 'Approve Pending crack' })).toBeInTheDocument();
    expect(pending.getByRole('button', { name: 'Reject Pending crack' })).toBeInTheDocument();
    expect(pending.getByRole('button', { name: 'Delete Pending crack' })).toBeInTheDocument();
    await user.click(filterButton(/Total Photos/));
    for (const name of ['Approved crack', 'Rejected crack']) {
      const other = within(await card(name));
      expect(other.queryByRole('button', { name: `Approve ${name}` })).not.toBeInTheDocument();
      expect(other.queryByRole('button', { name: `Reject ${name}` })).not.toBeInTheDocument();
      expect(other.getByRole('button', { name: `Delete ${name}` })).toBeInTheDocument();
      expect(other.getByRole('button', { name: `Edit ${name}` })).toBeInTheDocument();
    }
  });

  it('names the photo button by the photo alone, with the status badge beside it', async () => {
    renderAdmin();
    const pending = within(await card('Pending crack'));
    const view = pending.getByRole('button', { name: 'View Pending crack large' });
    // A badge inside the button puts visible text ("Pending") outside its name: WCAG 2.5.3 label in name.
    expect(view).not.toHaveTextContent('Pending');
    expect(pending.getByText('Pending', { exact: true })).toBeInTheDocument();
  });

  it('shows each photo’s uploader, rating, bars and moderation history', async () => {
    const user = userEvent.setup();
    renderAdmin();
    expect(within(await card('Pending crack')).getByText('Alice Example')).toBeInTheDocument();
    await user.click(filterButton(/Approved Today/));
    const approved = within(await card('Approved crack'));
    expect(approved.getByText('4.5')).toBeInTheDocument();
    expect(approved.getByText('(2 votes)')).toBeInTheDocument();
    expect(approved.getByText('0 privacy bars')).toBeInTheDocument();
    expect(approved.getByText('Moderation history (1)')).toBeInTheDocument();
    expect(approved.getByText(/by you/)).toBeInTheDocument();
  });

  it('approves once the Undo window has passed, then refreshes the lists and counters; a refusal puts the photo back with the spec’s words', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    let fail = false;
    const { requests } = renderAdmin({
      'PATCH /api/admin/photos/1/status': () =>
        fail ? { status: 409, body: { message: 'Only pending photos can be approved or rejected' } } : { body: { ...PENDING, status: 'approved' } },
    });
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Approve Pending crack' }));
    expect(await screen.findByText('The photo has been approved.')).toBeInTheDocument();
    expect(screen.getByText('Success')).toBeInTheDocument();
    expect(screen.queryByRole('listitem', { name: 'Pending crack' })).not.toBeInTheDocument();
    const statsBefore = count(requests, 'GET', '/api/admin/stats');
    await act(() => vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 500));
    await waitFor(() => expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(1));
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ status: 'approved' });
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/stats')).toBeGreaterThan(statsBefore));

    // The server refuses the next one (someone else decided it): it comes back, with the spec's toast.
    fail = true;
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Approve Pending crack' }));
    await act(() => vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 500));
    expect(await screen.findByText('Failed to update photo status. Please try again.')).toBeInTheDocument();
    expect(await card('Pending crack')).toBeInTheDocument();
  });

  it('requires a reason to reject, and sends it trimmed', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ 'PATCH /api/admin/photos/1/status': { body: { ...PENDING, status: 'rejected', rejectionReason: 'Not a crack' } } });
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Reject Pending crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));

    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    expect(await dialog.findByText('Please provide a reason for rejection.')).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Reason for rejection'), '    ');
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    expect(await dialog.findByText('Please provide a reason for rejection.')).toBeInTheDocument();
    expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(0);

    await user.type(dialog.getByLabelText('Reason for rejection'), '  Not a crack  ');
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    expect(await screen.findByText('The photo has been rejected.')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject Photo' })).not.toBeInTheDocument());
    // Sent when the toast's Undo is gone: here, closed by hand.
    expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(0);
    await user.click(within(toastOf('The photo has been rejected.')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(1));
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ status: 'rejected', rejectionReason: 'Not a crack' });
  });

  it('puts a rejected photo back and toasts when the server refuses it after the window', async () => {
    const user = userEvent.setup();
    renderAdmin({ 'PATCH /api/admin/photos/1/status': { status: 500, body: { message: 'Internal server error' } } });
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Reject Pending crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    await user.type(dialog.getByLabelText('Reason for rejection'), 'Blurry');
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Pending crack' })).not.toBeInTheDocument());
    await user.click(within(toastOf('The photo has been rejected.')).getByRole('button', { name: 'Close' }));
    expect(await screen.findByText('Failed to update photo status. Please try again.')).toBeInTheDocument();
    expect(await card('Pending crack')).toBeInTheDocument();
  });

  it('deletes after confirmation, at any status, and toasts a failure', async () => {
    const user = userEvent.setup();
    let status = 204;
    const { requests } = renderAdmin({ 'DELETE /api/admin/photos/3': () => ({ status }) });
    await card('Pending crack');
    await user.click(filterButton(/Approved Today/));
    await user.click(within(await card('Approved crack')).getByRole('button', { name: 'Delete Approved crack' }));
    const confirm = within(await screen.findByRole('alertdialog', { name: 'Delete this photo?' }));
    await user.click(confirm.getByRole('button', { name: 'Cancel' }));
    expect(count(requests, 'DELETE', '/api/admin/photos/3')).toBe(0);

    await user.click(within(await card('Approved crack')).getByRole('button', { name: 'Delete Approved crack' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Photo' }));
    await waitFor(() => expect(count(requests, 'DELETE', '/api/admin/photos/3')).toBe(1));
    expect(await screen.findByText('The photo has been deleted.')).toBeInTheDocument();

    status = 500;
    await user.click(within(await card('Approved crack')).getByRole('button', { name: 'Delete Approved crack' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete Photo' }));
    expect(await screen.findByText('Failed to delete photo. Please try again.')).toBeInTheDocument();
  });

  it('approves with A and asks for a reason with R on the focused card, never while typing', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ 'PATCH /api/admin/photos/1/status': { body: { ...PENDING, status: 'approved' } } });
    const pending = await card('Pending crack');
    act(() => pending.focus());
    await user.keyboard('r');
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    // Typing an "a" in the reason approves nothing.
    await user.type(dialog.getByLabelText('Reason for rejection'), 'a');
    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    // Cancel hands focus back to the card that asked.
    await waitFor(() => expect(pending).toHaveFocus());
    expect(screen.queryByText('The photo has been approved.')).not.toBeInTheDocument();

    fireEvent.keyDown(pending, { key: 'a' });
    expect(await screen.findByText('The photo has been approved.')).toBeInTheDocument();
    await user.click(within(toastOf('The photo has been approved.')).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(1));
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ status: 'approved' });
  });

  it('lets the admin edit any photo, and refreshes the review lists and counters after the edit (SPEC §4)', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ 'PATCH /api/photos/1': { body: { ...PENDING, description: 'Better words' } } });
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Edit Pending crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Photo' }));
    // The form's code loads when the dialog first opens.
    const description = await dialog.findByLabelText(/Description/);
    await user.clear(description);
    await user.type(description, 'Better words');
    const listedBefore = count(requests, 'GET', '/api/admin/photos/pending?page=1&limit=12');
    const statsBefore = count(requests, 'GET', '/api/admin/stats');
    await user.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(count(requests, 'PATCH', '/api/photos/1')).toBe(1));
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ description: 'Better words' });
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/photos/pending?page=1&limit=12')).toBeGreaterThan(listedBefore));
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/stats')).toBeGreaterThan(statsBefore));
  });

  it('marks repeat uploads with the earlier rejection reason and the duplicate', async () => {
    renderAdmin();
    const repeat = within(await card('Suspicious crack'));
    expect(repeat.getByText('Looks like a rejected photo')).toBeInTheDocument();
    expect(repeat.getByText(/Photo #40 by the same uploader was rejected: “Not a crack, a shadow”/)).toBeInTheDocument();
    expect(repeat.getByText('Nearly the same picture (3 of 64 hash bits differ)')).toBeInTheDocument();
    expect(repeat.getByText('Exact duplicate')).toBeInTheDocument();
    expect(repeat.getByText(/already sent this file as photo #12 \(rejected\)/)).toBeInTheDocument();
    expect(within(await card('Pending crack')).queryByText('Looks like a rejected photo')).not.toBeInTheDocument();
  });
});

describe('admin panel: users, support and cleanups', () => {
  it('links to Manage Users and User Support, with the count of new messages', async () => {
    renderAdmin();
    expect(await screen.findByRole('link', { name: /Manage Users/ })).toHaveAttribute('href', '/admin/users');
    const support = await screen.findByRole('link', { name: /User Support/ });
    expect(support).toHaveAttribute('href', '/admin/support');
    expect(await within(support).findByText('3')).toBeInTheDocument();
  });

  it('shows 99+ above 99 new messages', async () => {
    renderAdmin({ [CONTACT_NEW]: contactCounts(150) });
    const support = await screen.findByRole('link', { name: /User Support/ });
    expect(await within(support).findByText('99+')).toBeInTheDocument();
    expect(support).toHaveAccessibleName('User Support 150 new messages');
  });

  it('formats the badge: nothing for none, the number up to 99, 99+ above', () => {
    expect(formatBadgeCount(1)).toBe('1');
    expect(formatBadgeCount(99)).toBe('99');
    expect(formatBadgeCount(100)).toBe('99+');
    const { container, rerender } = render(<SupportBadge count={0} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<SupportBadge count={undefined} />);
    expect(container).toBeEmptyDOMElement();
    rerender(<SupportBadge count={100} />);
    expect(container).toHaveTextContent('99+');
  });

  it.each([
    ['Orphaned Files', 'orphaned', 'Remove Files', 'Removed 3 orphaned files (local: 3); checked 40 files older than an hour.'],
    ['Rejected Photos', 'rejected', 'Delete Rejected Photos', 'Deleted 2 rejected photos and their files.'],
  ])('runs the %s cleanup after confirmation and shows the server’s message', async (item, kind, confirm, message) => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ [`POST /api/admin/cleanup/${kind}`]: { body: { message, removed: 3, failed: 0 } } });
    await user.click(await screen.findByRole('button', { name: /Cleanup Files/ }));
    await user.click(await screen.findByRole('menuitem', { name: item }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: confirm }));
    await waitFor(() => expect(count(requests, 'POST', `/api/admin/cleanup/${kind}`)).toBe(1));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(screen.getByText(message)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('toasts a failed cleanup', async () => {
    const user = userEvent.setup();
    renderAdmin({ 'POST /api/admin/cleanup/orphaned': { status: 503, body: { message: 'Service temporarily unavailable. Please try again.' } } });
    await user.click(await screen.findByRole('button', { name: /Cleanup Files/ }));
    await user.click(await screen.findByRole('menuitem', { name: 'Orphaned Files' }));
    await user.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Remove Files' }));
    expect(await screen.findByText('Failed to cleanup files. Please try again.')).toBeInTheDocument();
  });

  it('signs in again when the session has ended', async () => {
    renderAdmin({ 'GET /api/admin/stats': { status: 401, body: { message: 'Unauthorized' } } });
    expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
  });
});

/** The photos as the server keeps them: a PATCH decides a pending photo (409 otherwise), the lists and counters follow. */
function reviewServer(initial: AdminPhoto[]): Record<string, MockHandler> {
  let photos = [...initial];
  const pending = () => photos.filter((p) => p.status === 'pending');
  const routes: Record<string, MockHandler> = {
    'GET /api/admin/photos/pending?page=1&limit=12': () => page(pending()),
    'GET /api/admin/photos/all?page=1&limit=12': () => page(photos),
    'GET /api/admin/stats': () => ({
      body: {
        pendingReviews: pending().length,
        approvedToday: photos.filter((p) => p.status === 'approved').length,
        rejectedToday: photos.filter((p) => p.status === 'rejected').length,
        totalPhotos: photos.length,
      },
    }),
  };
  for (const photo of initial) {
    routes[`PATCH /api/admin/photos/${photo.id}/status`] = (request) => {
      const current = photos.find((p) => p.id === photo.id)!;
      if (current.status !== 'pending') return { status: 409, body: { message: 'Only pending photos can be approved or rejected' } };
      const decision = request.json as { status: 'approved' | 'rejected'; rejectionReason?: string };
      const decided = { ...current, status: decision.status, rejectionReason: decision.rejectionReason ?? null };
      photos = photos.map((p) => (p.id === photo.id ? decided : p));
      return { body: decided };
    };
  }
  return routes;
}

const FIRST = makePhoto({ id: 11, description: 'First crack' });
const SECOND = makePhoto({ id: 12, description: 'Second crack' });
const THIRD = makePhoto({ id: 13, description: 'Third crack' });
const THREE = () => reviewServer([FIRST, SECOND, THIRD]);
const patches = (requests: RecordedRequest[]) => requests.filter((r) => r.method === 'PATCH');

describe('admin panel: focus after a decision', () => {
  it('moves to the next card after A, to the previous one after the last, and to the empty list when none is left', async () => {
    const user = userEvent.setup();
    renderAdmin(THREE());
    const first = await card('First crack');
    act(() => first.focus());
    await user.keyboard('a');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'First crack' })).not.toBeInTheDocument());
    expect(await card('Second crack')).toHaveFocus();

    act(() => screen.getByRole('listitem', { name: 'Third crack' }).focus());
    await user.keyboard('a');
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Second crack' })).toHaveFocus());

    // R, a reason, Enter: the last photo goes, and focus lands on the list's empty state.
    await user.keyboard('r');
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    await user.type(dialog.getByLabelText('Reason for rejection'), 'Blurry');
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    await waitFor(() => expect(screen.getByText('No photos are waiting for review.')).toHaveFocus());
    expect(screen.getByRole('heading', { level: 2, name: /Pending Reviews \(0\)/ })).toBeInTheDocument();
  });

  it('moves to the next card after a rejection from the card’s Reject button', async () => {
    const user = userEvent.setup();
    renderAdmin(THREE());
    await user.click(within(await card('First crack')).getByRole('button', { name: 'Reject First crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    await user.type(dialog.getByLabelText('Reason for rejection'), 'Not a crack');
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Second crack' })).toHaveFocus());
  });
});

describe('admin panel: Undo', () => {
  it('sends nothing during the window; Undo brings the card back, focuses it, and nothing is ever sent', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { requests } = renderAdmin(THREE());
    await card('First crack').then((element) => act(() => element.focus()));
    await user.keyboard('a');
    const undo = within(toastOf('The photo has been approved.')).getByRole('button', { name: 'Undo' });
    await act(() => vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS - 1000));
    expect(patches(requests)).toHaveLength(0);

    await user.click(undo);
    expect(await card('First crack')).toHaveFocus();
    await act(() => vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS * 3));
    expect(patches(requests)).toHaveLength(0);
    expect(screen.getByRole('listitem', { name: 'First crack' })).toBeInTheDocument();
  });

  it('sends the decision when the window closes; the 5 s poll never brings the photo back meanwhile', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { requests, queryClient } = renderAdmin(THREE());
    await user.click(within(await card('First crack')).getByRole('button', { name: 'Approve First crack' }));
    const polled = count(requests, 'GET', '/api/admin/photos/pending?page=1&limit=12');
    await act(() => queryClient.refetchQueries({ queryKey: adminPhotosQueryKey('pending', 1) }));
    expect(count(requests, 'GET', '/api/admin/photos/pending?page=1&limit=12')).toBeGreaterThan(polled);
    expect(screen.queryByRole('listitem', { name: 'First crack' })).not.toBeInTheDocument();
    expect(patches(requests)).toHaveLength(0);

    await act(() => vi.advanceTimersByTimeAsync(UNDO_WINDOW_MS + 500));
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]).toMatchObject({ url: '/api/admin/photos/11/status', json: { status: 'approved' } });
    expect(patches(requests)[0]!.init?.keepalive).toBe(true);
    // Sent: the toast and its Undo are gone, and the photo stays gone through the next polls.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument());
    await act(() => vi.advanceTimersByTimeAsync(ADMIN_POLL_MS * 2));
    expect(screen.queryByRole('listitem', { name: 'First crack' })).not.toBeInTheDocument();
    expect(patches(requests)).toHaveLength(1);
  });

  it.each([
    ['pagehide', () => window.dispatchEvent(new Event('pagehide'))],
    [
      'visibilitychange to hidden',
      () => {
        vi.spyOn(document, 'visibilityState', 'get').mockReturnValue('hidden');
        document.dispatchEvent(new Event('visibilitychange'));
      },
    ],
  ])('sends a waiting decision at once, with keepalive, on %s', async (_name, leave) => {
    const user = userEvent.setup();
    const { requests } = renderAdmin(THREE());
    await user.click(within(await card('First crack')).getByRole('button', { name: 'Approve First crack' }));
    expect(await screen.findByRole('button', { name: 'Undo' })).toBeInTheDocument();
    expect(patches(requests)).toHaveLength(0);
    act(() => leave());
    expect(patches(requests)).toHaveLength(1);
    expect(patches(requests)[0]!.init?.keepalive).toBe(true);
    // Its Undo is withdrawn: the decision is on its way.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument());
    vi.restoreAllMocks();
  });

  it('sends the previous decision at once when a newer one takes its toast (only the newest can be undone)', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin(THREE());
    const first = await card('First crack');
    act(() => first.focus());
    await user.keyboard('a');
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Second crack' })).toHaveFocus());
    expect(patches(requests)).toHaveLength(0);
    await user.keyboard('a');
    await waitFor(() => expect(patches(requests)).toHaveLength(1));
    expect(patches(requests)[0]!.url).toBe('/api/admin/photos/11/status');
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await card('Second crack')).toHaveFocus();
    expect(patches(requests)).toHaveLength(1);
  });

  it('undoes with Control+Z too, outside text fields', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin(THREE());
    await card('First crack').then((element) => act(() => element.focus()));
    await user.keyboard('a');
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Second crack' })).toHaveFocus());
    await user.keyboard('{Control>}z{/Control}');
    expect(await card('First crack')).toHaveFocus();
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Undo' })).not.toBeInTheDocument());
    expect(patches(requests)).toHaveLength(0);
  });

  it('counts a waiting decision in the stat cards, and uncounts it on Undo', async () => {
    const user = userEvent.setup();
    renderAdmin(THREE());
    await waitFor(() => expect(screen.getByTestId('stat-pending')).toHaveTextContent('3'));
    await user.click(within(await card('First crack')).getByRole('button', { name: 'Approve First crack' }));
    expect(screen.getByTestId('stat-pending')).toHaveTextContent('2');
    expect(screen.getByTestId('stat-approved-today')).toHaveTextContent('1');
    expect(screen.getByRole('heading', { level: 2, name: /Pending Reviews \(2\)/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(screen.getByTestId('stat-pending')).toHaveTextContent('3');
    expect(screen.getByTestId('stat-approved-today')).toHaveTextContent('0');
  });

  it('shows a decision waiting in the full list as made, with Undo', async () => {
    const user = userEvent.setup();
    renderAdmin(THREE());
    await card('First crack');
    await user.click(filterButton(/Total Photos/));
    const first = within(await card('First crack'));
    await user.click(first.getByRole('button', { name: 'Approve First crack' }));
    expect(first.getByText('Approved', { exact: true })).toBeInTheDocument();
    expect(first.queryByRole('button', { name: 'Approve First crack' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Undo' }));
    expect(await first.findByRole('button', { name: 'Approve First crack' })).toBeInTheDocument();
  });
});

describe('admin panel: the review view', () => {
  it('opens with Space on a card, moves with the arrows, approves with A and rejects with R, and Escape returns to the card', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin(THREE());
    await card('First crack').then((element) => act(() => element.focus()));
    await user.keyboard(' ');
    const view = await screen.findByRole('dialog', { name: 'First crack' });
    expect(within(view).getByRole('img', { name: 'First crack' })).toHaveAttribute('src', FIRST.displayUrl);
    expect(within(view).getByText(/1 of 3/)).toBeInTheDocument();
    expect(view).toHaveFocus();

    await user.keyboard('{ArrowRight}');
    expect(await screen.findByRole('dialog', { name: 'Second crack' })).toBeInTheDocument();
    await user.keyboard('{ArrowLeft}');
    expect(await screen.findByRole('dialog', { name: 'First crack' })).toBeInTheDocument();

    // A approves the photo shown and goes on to the next one.
    await user.keyboard('a');
    expect(await screen.findByRole('dialog', { name: 'Second crack' })).toBeInTheDocument();
    expect(await screen.findByText('The photo has been approved.')).toBeInTheDocument();

    // R asks for the reason, exactly as on the card; the view then shows the next photo, keys still working.
    await user.keyboard('r');
    const reject = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    await user.type(reject.getByLabelText('Reason for rejection'), 'Too dark');
    await user.click(reject.getByRole('button', { name: 'Reject Photo' }));
    expect(await screen.findByRole('dialog', { name: 'Third crack' })).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Reject Photo' })).not.toBeInTheDocument());
    await waitFor(() => expect(document.activeElement?.closest('[role="dialog"]')).toBe(screen.getByRole('dialog', { name: 'Third crack' })));

    await user.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByRole('listitem', { name: 'Third crack' })).toHaveFocus());
    // The first decision went when the second took its toast; the second still offers Undo.
    expect(patches(requests).map((r) => r.json)).toEqual([{ status: 'approved' }]);
  });

  it('opens with Enter or a click on the photo, and closes when the last photo is decided, focusing the list', async () => {
    const user = userEvent.setup();
    renderAdmin(reviewServer([FIRST]));
    const first = await card('First crack');
    act(() => first.focus());
    await user.keyboard('{Enter}');
    expect(await screen.findByRole('dialog', { name: 'First crack' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await waitFor(() => expect(first).toHaveFocus());

    await user.click(within(first).getByRole('button', { name: 'View First crack large' }));
    const view = within(await screen.findByRole('dialog', { name: 'First crack' }));
    await user.click(view.getByRole('button', { name: 'Approve' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByText('No photos are waiting for review.')).toHaveFocus());
  });
});

describe('admin panel: the whole photo in its card', () => {
  it.each([
    ['a 1200×1600 portrait', 1200, 1600, '56.25%'],
    ['a 1600×900 landscape', 1600, 900, '100%'],
    ['a 800×600 photo', 800, 600, '100%'],
  ])('reserves %s’s own box inside the 4:3 frame, never cropped', async (_name, width, height, boxWidth) => {
    renderAdmin({ 'GET /api/admin/photos/pending?page=1&limit=12': page([makePhoto({ id: 1, description: 'Framed', width, height })]) });
    const image = within(await card('Framed')).getByRole('img', { name: 'Framed' });
    // The image's box has the photo's own shape, so nothing of it is cut off, inside a 4:3 frame sized before it loads.
    expect(image.style.width).toBe(boxWidth);
    expect(image.style.aspectRatio).toBe(`${width} / ${height}`);
    expect(image.parentElement!.style.aspectRatio).toBe('4 / 3');
  });

  it('says “1 privacy bar” for one', async () => {
    renderAdmin({ 'GET /api/admin/photos/pending?page=1&limit=12': page([makePhoto({ id: 1, description: 'Barred', privacyBars: [{ x: 1, y: 1, width: 10, height: 10 }] })]) });
    expect(within(await card('Barred')).getByText('1 privacy bar')).toBeInTheDocument();
  });
});

describe('admin panel: reported photos', () => {
  const HELD = makePhoto({ id: 8, description: 'Held crack', status: 'pending', underReview: true });
  const reported = {
    photoId: 8,
    photo: HELD,
    reporters: 3,
    groups: [
      { category: 'personal_data', count: 2, notes: ['A face at the left'] },
      { category: 'offensive', count: 1, notes: [] },
    ],
    firstReportedAt: '2025-07-30T10:00:00.000Z',
    lastReportedAt: '2025-07-30T11:00:00.000Z',
  };
  const REPORTED = 'GET /api/admin/reports?order=newest&page=1&limit=10';

  it('counts reported photos on their tile and lists them grouped by category, newest or most reported first', async () => {
    const { requests } = renderAdmin({
      [REPORTED]: { body: { photos: [reported], total: 1, totalPages: 1 } },
      'GET /api/admin/reports?order=most-reported&page=1&limit=10': { body: { photos: [reported], total: 1, totalPages: 1 } },
    });
    expect(await screen.findByTestId('stat-reports')).toHaveTextContent('1');
    await userEvent.click(filterButton(/Reported Photos/));
    const item = await card('Held crack');
    expect(within(item).getByText('3 members reported it')).toBeInTheDocument();
    expect(within(item).getByText('Faces or personal data visible')).toBeInTheDocument();
    expect(within(item).getByText('“A face at the left”')).toBeInTheDocument();
    expect(within(item).getByText('Under review')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Most reported first' }));
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/reports?order=most-reported&page=1&limit=10')).toBe(1));
  });

  it('dismisses (restoring a held photo) and removes only with a reason', async () => {
    const { requests } = renderAdmin({
      [REPORTED]: { body: { photos: [reported], total: 1, totalPages: 1 } },
      'POST /api/admin/reports/8/decision': { body: { photo: { ...HELD, status: 'approved', underReview: false }, closed: 3 } },
    });
    await userEvent.click(await screen.findByRole('button', { name: /Reported Photos/ }));
    const item = await card('Held crack');
    await userEvent.click(within(item).getByRole('button', { name: 'Dismiss the reports of Held crack' }));
    expect(await screen.findByText('The photo is back in the gallery.')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([{ decision: 'dismiss' }]);

    await userEvent.click(within(item).getByRole('button', { name: 'Remove Held crack' }));
    const dialog = await screen.findByRole('dialog', { name: 'Remove Photo' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Photo' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Please provide a reason for removal.');
    await userEvent.type(within(dialog).getByLabelText('Reason for removal'), 'Shows a face');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove Photo' }));
    expect(await screen.findByText('Photo Removed')).toBeInTheDocument();
    expect(requests.filter((r) => r.method === 'POST').map((r) => r.json)).toEqual([{ decision: 'dismiss' }, { decision: 'remove', reason: 'Shows a face' }]);
  });
});

describe('admin panel: resubmissions', () => {
  it("shows a resubmitted photo's previous reason, the uploader's note and what changed", async () => {
    const resubmitted = makePhoto({
      id: 21,
      description: 'Crack, face hidden',
      privacyBars: [{ x: 1, y: 2, width: 10, height: 10 }],
      resubmission: {
        resubmittedAt: '2025-07-30T10:00:00.000Z',
        note: 'Hid the face',
        previousRejectionReason: 'A face is visible',
        descriptionBefore: 'Crack',
        privacyBarsBefore: [],
      },
    });
    renderAdmin({ 'GET /api/admin/photos/pending?page=1&limit=12': page([resubmitted]) });
    const item = await card('Crack, face hidden');
    const details = within(item).getByRole('region', { name: 'Resubmission' });
    expect(details).toHaveTextContent('Rejected because: “A face is visible”');
    expect(details).toHaveTextContent('The uploader says: “Hid the face”');
    expect(details).toHaveTextContent('“Crack” → “Crack, face hidden”');
    expect(details).toHaveTextContent('0 bars before → 1 bar now');
  });
});

describe('admin panel: upload allowance', () => {
  it('shows the allowances, refuses a larger one below the basic one, and saves whole numbers', async () => {
    const { requests } = renderAdmin({
      'GET /api/admin/upload-allowance': { body: { pendingLimit: 5, trustedAfter: 10, trustedPendingLimit: 15 } },
      'PUT /api/admin/upload-allowance': (request) => ({ body: request.json }),
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Upload Allowance' }));
    const dialog = await screen.findByRole('dialog', { name: 'Upload Allowance' });
    const first = await within(dialog).findByLabelText('Photos waiting at once');
    expect(first).toHaveValue('5');
    await userEvent.clear(first);
    await userEvent.type(first, '20');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(/the larger one at least the basic one/);
    await userEvent.clear(first);
    await userEvent.type(first, '3');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Upload Allowance Saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')?.json).toEqual({ pendingLimit: 3, trustedAfter: 10, trustedPendingLimit: 15 });
  });
});
