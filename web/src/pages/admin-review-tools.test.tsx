import { DESK, REASON_TEMPLATES, REJECTION_REASON, REVERSAL } from '@snapcracks/http-contract';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resetReviewDecisions } from '@/components/admin/review-decisions';
import type { AdminPhoto, AdminPhotoPage, AdminStats, ReasonTemplate, ReviewFigures } from '@/lib/types';
import { mockFetch, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeAdminPhoto, makeReasonTemplate, makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

afterEach(() => {
  vi.useRealTimers();
  resetReviewDecisions();
});

const ADMIN = makeUser({ id: 'admin-1', isAdmin: true, displayName: 'Boss' });
const STATS: AdminStats = { pendingReviews: 2, approvedToday: 1, rejectedToday: 1, totalPhotos: 4 };
const PENDING = makeAdminPhoto({ id: 1, description: 'Pending crack' });
const SECOND = makeAdminPhoto({ id: 2, description: 'Second crack' });
const APPROVED = makeAdminPhoto({ id: 3, description: 'Approved crack', status: 'approved' });
const REJECTED = makeAdminPhoto({ id: 4, description: 'Rejected crack', status: 'rejected', rejectionReason: 'Blurry' });
const TEMPLATE = makeReasonTemplate({ id: '00000000-0000-4000-8000-000000000001', label: 'Not a crack', text: 'We could not find a crack in this photo.' });

const page = (photos: AdminPhoto[]): { body: AdminPhotoPage } => ({ body: { photos, total: photos.length, totalPages: 1 } });
const PENDING_URL = '/api/admin/photos/pending?page=1&limit=12';

function renderAdmin(routes: Record<string, MockHandler> = {}) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: ADMIN },
    'GET /api/admin/stats': { body: STATS },
    [`GET ${PENDING_URL}`]: page([PENDING, SECOND]),
    'GET /api/admin/photos/approved-today?page=1&limit=12': page([APPROVED]),
    'GET /api/admin/photos/rejected-today?page=1&limit=12': page([REJECTED]),
    'GET /api/admin/photos/all?page=1&limit=12': page([PENDING, SECOND, APPROVED, REJECTED]),
    'GET /api/admin/reason-templates': { body: { templates: [TEMPLATE] } },
    ...routes,
  });
  return { requests, ...renderApp('/admin') };
}

const count = (requests: RecordedRequest[], method: string, url: string) => requests.filter((r) => r.method === method && r.url === url).length;
const card = (name: string) => screen.findByRole('listitem', { name });
const filterButton = (name: RegExp) => within(screen.getByRole('group', { name: 'Photo filters' })).getByRole('button', { name });

describe('admin panel: the way to the review desk', () => {
  it('links to the desk with a primary "Review next"', async () => {
    renderAdmin();
    expect(await screen.findByRole('link', { name: 'Review next' })).toHaveAttribute('href', '/admin/desk');
  });
});

describe('admin panel: reason templates', () => {
  /** The templates as the server keeps them: added, changed and deleted for real. */
  function templateServer(initial: ReasonTemplate[]): Record<string, MockHandler> {
    let templates = [...initial];
    let nextId = 10;
    const routes: Record<string, MockHandler> = {
      'GET /api/admin/reason-templates': () => ({ body: { templates } }),
      'POST /api/admin/reason-templates': (request) => {
        const created = makeReasonTemplate({ id: `00000000-0000-4000-8000-0000000000${nextId++}`, ...(request.json as object) });
        templates = [...templates, created];
        return { status: 201, body: created };
      },
    };
    for (const template of initial) {
      routes[`PUT /api/admin/reason-templates/${template.id}`] = (request) => {
        templates = templates.map((t) => (t.id === template.id ? { ...t, ...(request.json as object) } : t));
        return { body: templates.find((t) => t.id === template.id) };
      };
      routes[`DELETE /api/admin/reason-templates/${template.id}`] = () => {
        templates = templates.filter((t) => t.id !== template.id);
        return { status: 204 };
      };
    }
    return routes;
  }

  it('lists, adds (checking the name and the reason first), changes and deletes templates', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin(templateServer([TEMPLATE]));
    await user.click(await screen.findByRole('button', { name: 'Reason Templates' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reason Templates' }));
    expect(await dialog.findByRole('listitem', { name: 'Not a crack' })).toHaveTextContent(TEMPLATE.text);

    // Add: both fields are required, the name at most 60 characters.
    await user.click(dialog.getByRole('button', { name: 'Add Template' }));
    expect(dialog.getByText(REASON_TEMPLATES.labelRequired)).toBeInTheDocument();
    expect(dialog.getByText(REJECTION_REASON.required)).toBeInTheDocument();
    await user.type(dialog.getByLabelText('Name'), 'x'.repeat(REASON_TEMPLATES.labelMaxLength + 1));
    await user.type(dialog.getByLabelText('Reason'), 'Too dark to see the crack.');
    await user.click(dialog.getByRole('button', { name: 'Add Template' }));
    expect(dialog.getByText(REASON_TEMPLATES.labelTooLong)).toBeInTheDocument();
    expect(count(requests, 'POST', '/api/admin/reason-templates')).toBe(0);
    await user.clear(dialog.getByLabelText('Name'));
    await user.type(dialog.getByLabelText('Name'), '  Too dark ');
    await user.click(dialog.getByRole('button', { name: 'Add Template' }));
    expect(await screen.findByText('Template Added')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.json).toEqual({ label: 'Too dark', text: 'Too dark to see the crack.' });
    expect(await dialog.findByRole('listitem', { name: 'Too dark' })).toBeInTheDocument();
    // A fresh form for the next one.
    expect(dialog.getByLabelText('Name')).toHaveValue('');

    // Change.
    await user.click(dialog.getByRole('button', { name: 'Edit Not a crack' }));
    const editing = within(dialog.getByRole('listitem', { name: 'Not a crack' }));
    await user.clear(editing.getByLabelText('Reason'));
    await user.type(editing.getByLabelText('Reason'), 'No crack here.');
    await user.click(editing.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Template Saved')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'PUT')).toMatchObject({ url: `/api/admin/reason-templates/${TEMPLATE.id}`, json: { label: 'Not a crack', text: 'No crack here.' } });
    expect(await dialog.findByText('No crack here.')).toBeInTheDocument();

    // Delete, after confirmation.
    await user.click(dialog.getByRole('button', { name: 'Delete Not a crack' }));
    await user.click(within(await screen.findByRole('alertdialog', { name: 'Delete this template?' })).getByRole('button', { name: 'Delete Template' }));
    expect(await screen.findByText('Template Deleted')).toBeInTheDocument();
    expect(count(requests, 'DELETE', `/api/admin/reason-templates/${TEMPLATE.id}`)).toBe(1);
    await waitFor(() => expect(dialog.queryByRole('listitem', { name: 'Not a crack' })).not.toBeInTheDocument());
  });

  it('shows the server’s refusal, keeping what was typed', async () => {
    const user = userEvent.setup();
    renderAdmin({ 'POST /api/admin/reason-templates': { status: 409, body: { message: REASON_TEMPLATES.limitReached } } });
    await user.click(await screen.findByRole('button', { name: 'Reason Templates' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reason Templates' }));
    await user.type(await dialog.findByLabelText('Name'), 'Another');
    await user.type(dialog.getByLabelText('Reason'), 'Another reason.');
    await user.click(dialog.getByRole('button', { name: 'Add Template' }));
    expect(await screen.findByText(REASON_TEMPLATES.limitReached)).toBeInTheDocument();
    expect(dialog.getByLabelText('Name')).toHaveValue('Another');
  });

  it('says when no more can be added', async () => {
    const user = userEvent.setup();
    const full = Array.from({ length: REASON_TEMPLATES.max }, (_, index) =>
      makeReasonTemplate({ id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`, label: `Reason ${index + 1}` }),
    );
    renderAdmin({ 'GET /api/admin/reason-templates': { body: { templates: full } } });
    await user.click(await screen.findByRole('button', { name: 'Reason Templates' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reason Templates' }));
    expect(await dialog.findByText(REASON_TEMPLATES.limitReached)).toBeInTheDocument();
    expect(dialog.getAllByRole('listitem')).toHaveLength(REASON_TEMPLATES.max);
    expect(dialog.queryByRole('button', { name: 'Add Template' })).not.toBeInTheDocument();
  });

  it('offers the templates as quick picks when rejecting from the list', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ 'PATCH /api/admin/photos/1/status': { body: { ...PENDING, status: 'rejected' } } });
    await user.click(within(await card('Pending crack')).getByRole('button', { name: 'Reject Pending crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Reject Photo' }));
    await user.click(await dialog.findByRole('button', { name: 'Not a crack' }));
    expect(dialog.getByLabelText('Reason for rejection')).toHaveValue(TEMPLATE.text);
    expect(dialog.getByLabelText('Reason for rejection')).toHaveFocus();
    await user.click(dialog.getByRole('button', { name: 'Reject Photo' }));
    expect(await screen.findByText('The photo has been rejected.')).toBeInTheDocument();
    await user.click(within(screen.getByText('The photo has been rejected.').closest('li')!).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(count(requests, 'PATCH', '/api/admin/photos/1/status')).toBe(1));
    expect(requests.find((r) => r.method === 'PATCH')?.json).toEqual({ status: 'rejected', rejectionReason: TEMPLATE.text });
  });
});

describe('admin panel: bulk approval', () => {
  it('approves the chosen photos at once, says which were not and why, and refreshes the lists and counters', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({
      'POST /api/admin/photos/approvals': { body: { approved: [1], failed: [{ photoId: 2, message: DESK.claimedByOther }] } },
    });
    const first = await card('Pending crack');
    const approve = screen.getByRole('button', { name: 'Approve selected (0)' });
    expect(approve).toBeDisabled();

    await user.click(within(first).getByRole('checkbox', { name: 'Select photo Pending crack' }));
    expect(screen.getByRole('button', { name: 'Approve selected (1)' })).toBeEnabled();
    const all = screen.getByRole('checkbox', { name: 'Select all on this page' });
    expect(all).toHaveAttribute('aria-checked', 'mixed');
    await user.click(all);
    expect(within(await card('Second crack')).getByRole('checkbox', { name: 'Select photo Second crack' })).toBeChecked();

    const listed = count(requests, 'GET', PENDING_URL);
    const stats = count(requests, 'GET', '/api/admin/stats');
    await user.click(screen.getByRole('button', { name: 'Approve selected (2)' }));
    await waitFor(() => expect(count(requests, 'POST', '/api/admin/photos/approvals')).toBe(1));
    expect(requests.find((r) => r.method === 'POST')?.json).toEqual({ photoIds: [1, 2] });
    expect(await screen.findByText('1 of 2 photos approved')).toBeInTheDocument();
    expect(screen.getByText(`Second crack: ${DESK.claimedByOther}`)).toBeInTheDocument();
    await waitFor(() => expect(count(requests, 'GET', PENDING_URL)).toBeGreaterThan(listed));
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/stats')).toBeGreaterThan(stats));
    expect(screen.getByRole('button', { name: 'Approve selected (0)' })).toBeDisabled();
  });

  it('toasts a clean success, and keeps the cards’ keys: Space on a checkbox chooses, A on the card approves', async () => {
    const user = userEvent.setup();
    renderAdmin({ 'POST /api/admin/photos/approvals': { body: { approved: [2], failed: [] } } });
    const second = await card('Second crack');
    const box = within(second).getByRole('checkbox', { name: 'Select photo Second crack' });
    act(() => box.focus());
    await user.keyboard(' ');
    expect(box).toBeChecked();
    // Space on the checkbox does not open the review view.
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Approve selected (1)' }));
    expect(await screen.findByText('1 photo approved.')).toBeInTheDocument();

    const first = await card('Pending crack');
    act(() => first.focus());
    await user.keyboard('a');
    expect(await screen.findByText('The photo has been approved.')).toBeInTheDocument();
  });

  it('offers no checkboxes outside the pending list', async () => {
    const user = userEvent.setup();
    renderAdmin();
    await card('Pending crack');
    await user.click(filterButton(/Approved Today/));
    await card('Approved crack');
    expect(screen.queryByRole('checkbox')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Approve selected/ })).not.toBeInTheDocument();
  });
});

describe('admin panel: taking a decision back', () => {
  it('removes an approved photo with a reason (templates offered), and refreshes the lists', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({ 'POST /api/admin/photos/3/reversal': { body: { ...APPROVED, status: 'rejected' } } });
    await card('Pending crack');
    await user.click(filterButton(/Approved Today/));
    await user.click(within(await card('Approved crack')).getByRole('button', { name: 'Remove Approved crack' }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Remove Photo' }));
    await user.click(dialog.getByRole('button', { name: 'Remove Photo' }));
    expect(dialog.getByRole('alert')).toHaveTextContent(REVERSAL.reasonRequired);
    expect(count(requests, 'POST', '/api/admin/photos/3/reversal')).toBe(0);

    await user.click(await dialog.findByRole('button', { name: 'Not a crack' }));
    const listed = count(requests, 'GET', '/api/admin/photos/approved-today?page=1&limit=12');
    await user.click(dialog.getByRole('button', { name: 'Remove Photo' }));
    expect(await screen.findByText('The photo has been removed from the gallery.')).toBeInTheDocument();
    expect(requests.find((r) => r.url === '/api/admin/photos/3/reversal')?.json).toEqual({ decision: 'remove', reason: TEMPLATE.text });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/photos/approved-today?page=1&limit=12')).toBeGreaterThan(listed));
  });

  it('approves a rejected photo again with a reason, and shows the server’s refusal', async () => {
    const user = userEvent.setup();
    let refuse = false;
    const { requests } = renderAdmin({
      'POST /api/admin/photos/4/reversal': () => (refuse ? { status: 409, body: { message: REVERSAL.notRejected } } : { body: { ...REJECTED, status: 'approved' } }),
    });
    await card('Pending crack');
    await user.click(filterButton(/Rejected Today/));
    const rejected = await card('Rejected crack');
    expect(within(rejected).queryByRole('button', { name: 'Remove Rejected crack' })).not.toBeInTheDocument();
    await user.click(within(rejected).getByRole('button', { name: 'Approve again Rejected crack' }));
    let dialog = within(await screen.findByRole('dialog', { name: 'Approve Photo Again' }));
    // No saved rejection reasons to approve with.
    expect(dialog.queryByRole('button', { name: 'Not a crack' })).not.toBeInTheDocument();
    await user.type(dialog.getByLabelText('Reason for approving again'), 'The crack is clear after all');
    await user.click(dialog.getByRole('button', { name: 'Approve Photo' }));
    expect(await screen.findByText('The photo has been approved again.')).toBeInTheDocument();
    expect(requests.find((r) => r.url === '/api/admin/photos/4/reversal')?.json).toEqual({ decision: 'approve', reason: 'The crack is clear after all' });

    refuse = true;
    await user.click(within(await card('Rejected crack')).getByRole('button', { name: 'Approve again Rejected crack' }));
    dialog = within(await screen.findByRole('dialog', { name: 'Approve Photo Again' }));
    await user.type(dialog.getByLabelText('Reason for approving again'), 'Again');
    await user.click(dialog.getByRole('button', { name: 'Approve Photo' }));
    expect(await screen.findByText(REVERSAL.notRejected)).toBeInTheDocument();
    // The dialog stays open: nothing changed.
    expect(screen.getByRole('dialog', { name: 'Approve Photo Again' })).toBeInTheDocument();
  });

  it('offers no reversal on a photo whose decision still waits for its Undo', async () => {
    const user = userEvent.setup();
    renderAdmin();
    await card('Pending crack');
    await user.click(filterButton(/Total Photos/));
    const pending = await card('Pending crack');
    await user.click(within(pending).getByRole('button', { name: 'Approve Pending crack' }));
    expect(within(pending).getByText('Approved', { exact: true })).toBeInTheDocument();
    expect(within(pending).queryByRole('button', { name: 'Remove Pending crack' })).not.toBeInTheDocument();
    expect(within(await card('Approved crack')).getByRole('button', { name: 'Remove Approved crack' })).toBeInTheDocument();
  });
});

describe('admin panel: reviewer figures', () => {
  const FIGURES: ReviewFigures = {
    days: 14,
    since: '2025-07-17T00:00:00.000Z',
    decisions: [
      {
        adminId: 'admin-1',
        name: 'Boss',
        total: 7,
        perDay: [
          { day: '2025-07-28', count: 3 },
          { day: '2025-07-29', count: 4 },
        ],
      },
      { adminId: 'admin-2', name: null, total: 1, perDay: [{ day: '2025-07-29', count: 1 }] },
    ],
    medianUploadToDecisionSeconds: 3 * 3600 + 12 * 60 + 5,
    measuredDecisions: 8,
    reportsByCategory: [
      { category: 'personal_data', total: 5, open: 1, dismissed: 3, removed: 1 },
      { category: 'spam', total: 0, open: 0, dismissed: 0, removed: 0 },
    ],
    reportersMostlyDismissed: [{ userId: 'user-9', name: 'Grumpy', decided: 4, dismissed: 3 }],
  };
  const EMPTY: ReviewFigures = {
    ...FIGURES,
    days: 7,
    decisions: [],
    medianUploadToDecisionSeconds: null,
    measuredDecisions: 0,
    reportsByCategory: [{ category: 'spam', total: 0, open: 0, dismissed: 0, removed: 0 }],
    reportersMostlyDismissed: [],
  };

  it('asks for nothing until opened, then shows the last 14 days; another period asks again', async () => {
    const user = userEvent.setup();
    const { requests } = renderAdmin({
      'GET /api/admin/review-figures?days=14': { body: FIGURES },
      'GET /api/admin/review-figures?days=7': { body: EMPTY },
    });
    const toggle = await screen.findByRole('button', { name: 'Reviewer figures' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    expect(requests.some((r) => r.url.startsWith('/api/admin/review-figures'))).toBe(false);

    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const decisions = await screen.findByRole('region', { name: 'Decisions per admin' });
    const boss = within(decisions).getByRole('row', { name: /Boss/ });
    expect(boss).toHaveTextContent('7');
    expect(within(boss).getByRole('list', { name: 'Boss by day' })).toHaveTextContent('Jul 28: 3Jul 29: 4');
    expect(within(decisions).getByRole('rowheader', { name: 'Deleted account' })).toBeInTheDocument();
    expect(screen.getByTestId('median-time')).toHaveTextContent('3 h 12 min');
    expect(screen.getByText('The median over 8 decisions.')).toBeInTheDocument();
    const reports = screen.getByRole('region', { name: 'Reports by category' });
    expect(within(reports).getByRole('row', { name: /Faces or personal data visible/ })).toHaveTextContent('5131');
    const reporters = screen.getByRole('region', { name: 'Reporters mostly dismissed' });
    expect(within(reporters).getByRole('row', { name: /Grumpy/ })).toHaveTextContent('4375%');

    await user.selectOptions(screen.getByLabelText('Period'), 'Last 7 days');
    await waitFor(() => expect(count(requests, 'GET', '/api/admin/review-figures?days=7')).toBe(1));
    expect(await screen.findByText('No decisions in these days.')).toBeInTheDocument();
    expect(screen.getByTestId('median-time')).toHaveTextContent('—');
    expect(screen.getByText('No reports in these days.')).toBeInTheDocument();
    expect(screen.getByText('No member’s reports were mostly dismissed.')).toBeInTheDocument();
  });

  it('says when the figures cannot be loaded, and tries again', async () => {
    const user = userEvent.setup();
    let fail = true;
    renderAdmin({ 'GET /api/admin/review-figures?days=14': () => (fail ? { status: 500, body: { message: 'Internal server error' } } : { body: FIGURES }) });
    await user.click(await screen.findByRole('button', { name: 'Reviewer figures' }));
    expect(await screen.findByText('The figures could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('region', { name: 'Decisions per admin' })).toBeInTheDocument();
  });
});
