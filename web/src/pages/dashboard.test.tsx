import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { PrivacyBar, UserPhoto } from '@/lib/types';
import { redirectTo } from '@/lib/browser';
import { mockFetch, deferred, type MockHandler, type RecordedRequest } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { renderApp } from '@/test/render-app';
import type { UserStats } from '@/lib/types';
import { adminPhotosQueryKey, adminStatsQueryKey } from '@/queries/admin';
import { contactFormsQueryKey } from '@/queries/contact';

// Each test loads a lazy page and waits on several requests: allow for a busy machine.
vi.setConfig({ testTimeout: 20_000 });

// The editor's drawing is tested with the editor; here it only has to hand bars back to the dialog.
vi.mock('@/components/privacy-bars/privacy-bar-editor', () => ({
  PrivacyBarEditor: ({
    imageUrl,
    bars,
    onChange,
    disabled,
  }: {
    imageUrl: string | null;
    bars: PrivacyBar[];
    onChange: (bars: PrivacyBar[]) => void;
    disabled?: boolean;
  }) => (
    <div data-testid="privacy-bar-editor" data-image-url={imageUrl ?? ''}>
      <span>{bars.length} bars</span>
      <button
        type="button"
        disabled={disabled}
        onClick={() => onChange([...bars, { x: 10, y: 20, width: 30, height: 5 }])}
      >
        Add test bar
      </button>
    </div>
  ),
}));

function makePhoto(overrides: Partial<UserPhoto> = {}): UserPhoto {
  const id = overrides.id ?? 1;
  return {
    id,
    userId: 'user-1',
    filename: `crack-${id}.jpg`,
    originalName: `IMG_${id}.jpg`,
    mimeType: 'image/jpeg',
    size: 1234,
    storageType: 'local',
    approvedBy: null,
    user: null,
    description: 'A crack in the pavement',
    altText: null,
    status: 'pending',
    underReview: false,
    resubmitUntil: null,
    resubmission: null,
    finalRejection: false,
    rejectionReason: null,
    privacyBars: [],
    averageRating: 0,
    voteCount: 0,
    createdAt: '2025-07-28T10:00:00.000Z',
    updatedAt: '2025-07-28T10:00:00.000Z',
    approvedAt: null,
    width: 1200,
    height: 900,
    imageVersion: 1,
    thumbnailUrl: `/api/uploads/thumb-${id}.webp`,
    mediumUrl: `/api/uploads/medium-${id}.webp`,
    displayUrl: `/api/uploads/display-${id}.webp`,
    originalUrl: `/api/uploads/original-${id}.jpg`,
    ...overrides,
  };
}

const PENDING = makePhoto({ id: 1, description: 'Pending crack', createdAt: '2025-07-30T10:00:00.000Z' });
const APPROVED = makePhoto({
  id: 2,
  description: 'Approved crack',
  status: 'approved',
  averageRating: 4.25,
  voteCount: 12,
  approvedAt: '2025-07-29T12:00:00.000Z',
  createdAt: '2025-07-29T10:00:00.000Z',
});
const REJECTED = makePhoto({
  id: 3,
  description: 'Rejected crack',
  status: 'rejected',
  rejectionReason: 'The crack is not visible.',
  createdAt: '2025-07-28T10:00:00.000Z',
});

const STATS: UserStats = {
  totalUploads: 3,
  approvedUploads: 2,
  pendingUploads: 1,
  rejectedUploads: 0,
  uploadsThisWeek: 1,
  averageRating: 4.25,
  recentAverageRating: 3.96,
  recentVoteCount: 12,
  totalVotes: 12,
  rankByUploads: 2,
  rankByAverageRating: null,
  totalActiveUsers: 7,
  highestRatedPhoto: { id: 2, filename: 'display-2.webp', description: 'Approved crack', averageRating: 4.25, voteCount: 12 },
  lowestRatedPhoto: { id: 5, filename: 'display-5.webp', description: 'A faint crack', averageRating: 2, voteCount: 1 },
  ratingDistribution: [1, 0, 2, 4, 5],
};

function renderDashboard(routes: Record<string, MockHandler> = {}, photos: UserPhoto[] = [PENDING, APPROVED, REJECTED]) {
  const requests = mockFetch({
    'GET /api/auth/user': { body: makeUser() },
    'GET /api/user/photos': { body: photos },
    'GET /api/user/stats': { body: STATS },
    ...routes,
  });
  const result = renderApp('/dashboard');
  return { requests, ...result };
}

function countRequests(requests: RecordedRequest[], method: string, url: string): number {
  return requests.filter((request) => request.method === method && request.url === url).length;
}

async function findCard(description: string): Promise<HTMLElement> {
  return screen.findByRole('listitem', { name: description });
}

describe('dashboard: My Uploads', () => {
  it('keeps the My Dashboard title and shows a skeleton while loading', async () => {
    const pending = deferred<{ body: UserPhoto[] }>();
    renderDashboard({ 'GET /api/user/photos': () => pending.promise });
    expect(await screen.findByRole('heading', { level: 1, name: 'My Dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'My Uploads' })).toBeInTheDocument();
    expect(screen.getByRole('status', { name: 'Loading your uploads' })).toBeInTheDocument();
    pending.resolve({ body: [PENDING] });
    expect(await findCard('Pending crack')).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading your uploads' })).not.toBeInTheDocument();
  });

  it('lists each photo with its status, and rating and votes only when approved', async () => {
    renderDashboard();
    const pendingCard = within(await findCard('Pending crack'));
    expect(pendingCard.getByText('Pending')).toBeInTheDocument();
    expect(pendingCard.queryByText(/votes?\)/)).not.toBeInTheDocument();
    expect(pendingCard.getByText('Jul 30, 2025')).toBeInTheDocument();

    const approvedCard = within(await findCard('Approved crack'));
    expect(approvedCard.getByText('Approved')).toBeInTheDocument();
    expect(approvedCard.getByText('4.3')).toBeInTheDocument();
    expect(approvedCard.getByText('(12 votes)')).toBeInTheDocument();
    expect(approvedCard.getByText('Jul 29, 2025')).toBeInTheDocument();
    expect(approvedCard.queryByText('Rejection reason')).not.toBeInTheDocument();

    const rejectedCard = within(await findCard('Rejected crack'));
    expect(rejectedCard.getByText('Rejected')).toBeInTheDocument();
    expect(rejectedCard.getByText('Rejection reason')).toBeInTheDocument();
    expect(rejectedCard.getByText('The crack is not visible.')).toBeInTheDocument();
    expect(rejectedCard.queryByText(/votes?\)/)).not.toBeInTheDocument();

    expect(screen.queryAllByText('Rejection reason')).toHaveLength(1);
  });

  it('shows lazy images sized to the photo, the browser choosing among its three sizes, newest first', async () => {
    renderDashboard();
    const image = within(await findCard('Approved crack')).getByRole('img', { name: 'Approved crack' });
    expect(image).toHaveAttribute('src', '/api/uploads/medium-2.webp');
    // A 1200 px photo: its display image is 1200 px wide, not 2048.
    expect(image).toHaveAttribute('srcset', '/api/uploads/thumb-2.webp 480w, /api/uploads/medium-2.webp 960w, /api/uploads/display-2.webp 1200w');
    expect(image.getAttribute('sizes')).toMatch(/min-resolution/);
    expect(image).toHaveAttribute('loading', 'lazy');
    expect(image).toHaveAttribute('width', '1200');
    expect(image).toHaveAttribute('height', '900');
    const names = within(screen.getByRole('list', { name: 'My uploads' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('h3')?.textContent);
    expect(names).toEqual(['Pending crack', 'Approved crack', 'Rejected crack']);
  });

  it('shows an empty state with a Snap a Crack button', async () => {
    renderDashboard({}, []);
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Snap a Crack' })).toHaveAttribute('href', '/upload');
  });

  it('shows an error with a retry that loads again', async () => {
    let calls = 0;
    renderDashboard({
      'GET /api/user/photos': () => {
        calls += 1;
        return calls === 1 ? { status: 500, text: 'boom' } : { body: [PENDING] };
      },
    });
    expect(await screen.findByText('Could not load your uploads')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await findCard('Pending crack')).toBeInTheDocument();
  });

  it('signs the user in again when the list answers 401', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    try {
      renderDashboard({ 'GET /api/user/photos': { status: 401, text: 'Unauthorized' } });
      expect(await screen.findByText('You are logged out. Logging in again...')).toBeInTheDocument();
      await vi.advanceTimersByTimeAsync(500);
      expect(redirectTo).toHaveBeenCalledWith('/api/login');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('dashboard: editing a photo', () => {
  async function openEditor(description = 'Approved crack') {
    const card = within(await findCard(description));
    await userEvent.click(card.getByRole('button', { name: `Edit ${description}` }));
    const dialog = within(await screen.findByRole('dialog', { name: 'Edit Photo' }));
    // The form's code loads when the dialog first opens.
    await dialog.findByLabelText('Description');
    return dialog;
  }

  it('shows the validation messages and sends nothing while invalid', async () => {
    const { requests } = renderDashboard();
    const dialog = await openEditor();
    const description = dialog.getByLabelText('Description');
    expect(description).toHaveValue('Approved crack');

    await userEvent.clear(description);
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText('Description is required')).toBeInTheDocument();
    expect(description).toHaveAttribute('aria-invalid', 'true');

    fireEvent.change(description, { target: { value: 'x'.repeat(501) } });
    expect(await dialog.findByText('Description must be 500 characters or less')).toBeInTheDocument();
    expect(dialog.getByText('501/500')).toBeInTheDocument();

    fireEvent.change(description, { target: { value: '   ' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText('Description is required')).toBeInTheDocument();

    expect(requests.some((request) => request.method !== 'GET')).toBe(false);
  });

  it('edits bars over the unredacted original and saves description and bars, then refreshes', async () => {
    const { requests, queryClient } = renderDashboard({
      'PATCH /api/photos/2': { body: { ...APPROVED, description: 'A better description' } },
      'POST /api/photos/2/privacy-bars': { body: { bars: [] } },
    });
    const dialog = await openEditor();
    queryClient.setQueryData(adminPhotosQueryKey('pending', 1), []);
    queryClient.setQueryData(adminPhotosQueryKey('all', 2), []);
    queryClient.setQueryData(adminStatsQueryKey, {});
    queryClient.setQueryData(contactFormsQueryKey, []);
    expect(dialog.getByTestId('privacy-bar-editor')).toHaveAttribute('data-image-url', '/api/uploads/original-2.jpg');

    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: '  A better description ' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Add test bar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByText('Success')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Photo' })).not.toBeInTheDocument());
    expect(requests.find((request) => request.method === 'PATCH')?.json).toEqual({ description: 'A better description' });
    expect(requests.find((request) => request.method === 'POST')?.json).toEqual({
      bars: [{ x: 10, y: 20, width: 30, height: 5 }],
    });
    expect(requests.find((request) => request.method === 'POST')?.url).toBe('/api/photos/2/privacy-bars');
    await waitFor(() => expect(countRequests(requests, 'GET', '/api/user/photos')).toBe(2));
    expect(queryClient.getQueryState(adminPhotosQueryKey('pending', 1))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(adminPhotosQueryKey('all', 2))?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(adminStatsQueryKey)?.isInvalidated).toBe(true);
    expect(queryClient.getQueryState(contactFormsQueryKey)?.isInvalidated).toBe(false);
  });

  it('prefills the alt text, with its hint and count, and sends it with the description when changed', async () => {
    const described = makePhoto({ ...APPROVED, altText: 'A thin crack across a grey pavement slab' });
    const { requests } = renderDashboard({ 'PATCH /api/photos/2': { body: described } }, [described]);
    // The card's image is read by its alt text; the card and its buttons keep the description as their name.
    expect(within(await findCard('Approved crack')).getByRole('img', { name: 'A thin crack across a grey pavement slab' })).toBeInTheDocument();
    const dialog = await openEditor();
    const altText = dialog.getByRole('textbox', { name: 'Alt text (optional)' });
    expect(altText).toHaveValue('A thin crack across a grey pavement slab');
    expect(altText).toHaveAccessibleDescription("Describe what the photo shows for people who can't see it. 40/1000");
    expect(dialog.getByLabelText('Description')).toHaveValue('Approved crack');

    fireEvent.change(altText, { target: { value: '  A thin crack across a wet pavement slab ' } });
    expect(dialog.getByText('42/1000')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your photo has been updated.')).toBeInTheDocument();
    // The description is required in every PATCH, so it goes along unchanged.
    expect(requests.find((request) => request.method === 'PATCH')?.json).toEqual({
      description: 'Approved crack',
      altText: 'A thin crack across a wet pavement slab',
    });
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it('sends a null alt text when it is cleared, and none when it is left as it was', async () => {
    const described = makePhoto({ ...APPROVED, altText: 'A thin crack' });
    const { requests } = renderDashboard({ 'PATCH /api/photos/2': { body: described } }, [described]);
    let dialog = await openEditor();
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'New words' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Your photo has been updated.')).toBeInTheDocument();
    expect(requests.filter((request) => request.method === 'PATCH').map((request) => request.json)).toEqual([{ description: 'New words' }]);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Photo' })).not.toBeInTheDocument());

    dialog = await openEditor();
    await userEvent.clear(dialog.getByLabelText('Alt text (optional)'));
    expect(dialog.getByText('0/1000')).toBeInTheDocument();
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(requests.filter((request) => request.method === 'PATCH')).toHaveLength(2));
    expect(requests.filter((request) => request.method === 'PATCH')[1]?.json).toEqual({ description: 'Approved crack', altText: null });
  });

  it('starts with an empty alt text when the photo has none, and refuses more than 1000 characters', async () => {
    const { requests } = renderDashboard();
    const dialog = await openEditor();
    const altText = dialog.getByLabelText('Alt text (optional)');
    expect(altText).toHaveValue('');
    expect(dialog.getByText('0/1000')).toBeInTheDocument();

    fireEvent.change(altText, { target: { value: 'x'.repeat(1001) } });
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await dialog.findByText('Alt text must be 1000 characters or less')).toBeInTheDocument();
    expect(altText).toHaveAttribute('aria-invalid', 'true');
    expect(requests.some((request) => request.method !== 'GET')).toBe(false);
  });

  it('sends only what changed', async () => {
    const { requests } = renderDashboard({ 'POST /api/photos/2/privacy-bars': { body: { bars: [] } } });
    const dialog = await openEditor();
    await userEvent.click(dialog.getByRole('button', { name: 'Add test bar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Success')).toBeInTheDocument();
    expect(requests.some((request) => request.method === 'PATCH')).toBe(false);
    expect(countRequests(requests, 'POST', '/api/photos/2/privacy-bars')).toBe(1);
  });

  it('toasts a failed description update and keeps the dialog open', async () => {
    const { requests } = renderDashboard({ 'PATCH /api/photos/2': { status: 500, text: 'boom' } });
    const dialog = await openEditor();
    fireEvent.change(dialog.getByLabelText('Description'), { target: { value: 'New words' } });
    await userEvent.click(dialog.getByRole('button', { name: 'Add test bar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to update photo. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Edit Photo' })).toBeInTheDocument();
    // The bars are not saved when the description could not be.
    expect(requests.some((request) => request.method === 'POST')).toBe(false);
  });

  it.each([
    [{ status: 400, body: { message: 'Bars must lie inside the image' } }, 'Bars must lie inside the image'],
    [{ status: 500, text: '<html>oops</html>' }, 'Please try again.'],
  ])('toasts Failed to Save Privacy Bars with the server message or a fallback (%#)', async (response, detail) => {
    renderDashboard({ 'POST /api/photos/2/privacy-bars': response });
    const dialog = await openEditor();
    await userEvent.click(dialog.getByRole('button', { name: 'Add test bar' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    expect(await screen.findByText('Failed to Save Privacy Bars')).toBeInTheDocument();
    expect(screen.getByText(detail)).toBeInTheDocument();
  });

  it('closes without a request when nothing changed', async () => {
    const { requests } = renderDashboard();
    const dialog = await openEditor();
    await userEvent.click(dialog.getByRole('button', { name: 'Save Changes' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Edit Photo' })).not.toBeInTheDocument());
    expect(requests.some((request) => request.method !== 'GET')).toBe(false);
  });
});

describe('dashboard: deleting a photo', () => {
  it('asks for confirmation, and Cancel deletes nothing', async () => {
    const { requests } = renderDashboard();
    await userEvent.click(within(await findCard('Pending crack')).getByRole('button', { name: 'Delete Pending crack' }));
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this photo?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(requests.some((request) => request.method === 'DELETE')).toBe(false);
  });

  it('deletes on confirmation and refreshes the list', async () => {
    let deleted = false;
    const { requests, queryClient } = renderDashboard({
      'GET /api/user/photos': () => ({ body: deleted ? [APPROVED, REJECTED] : [PENDING, APPROVED, REJECTED] }),
      'DELETE /api/photos/1': () => {
        deleted = true;
        return { status: 204 };
      },
    });
    await userEvent.click(within(await findCard('Pending crack')).getByRole('button', { name: 'Delete Pending crack' }));
    queryClient.setQueryData(adminPhotosQueryKey('pending', 1), []);
    const dialog = within(await screen.findByRole('alertdialog', { name: 'Delete this photo?' }));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete Photo' }));

    expect(await screen.findByText('Success')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Pending crack' })).not.toBeInTheDocument());
    expect(countRequests(requests, 'DELETE', '/api/photos/1')).toBe(1);
    expect(countRequests(requests, 'GET', '/api/user/photos')).toBe(2);
    expect(queryClient.getQueryState(adminPhotosQueryKey('pending', 1))?.isInvalidated).toBe(true);
    expect(screen.getByRole('listitem', { name: 'Approved crack' })).toBeInTheDocument();
  });

  it('toasts a failed delete and keeps the photo', async () => {
    renderDashboard({ 'DELETE /api/photos/1': { status: 500, text: 'boom' } });
    await userEvent.click(within(await findCard('Pending crack')).getByRole('button', { name: 'Delete Pending crack' }));
    const dialog = within(await screen.findByRole('alertdialog'));
    await userEvent.click(dialog.getByRole('button', { name: 'Delete Photo' }));
    expect(await screen.findByText('Failed to delete photo. Please try again.')).toBeInTheDocument();
    expect(screen.getByRole('listitem', { name: 'Pending crack' })).toBeInTheDocument();
  });
});

describe('dashboard: stats', () => {
  it('shows every section with its title and placeholders while the stats load', async () => {
    const pending = deferred<{ body: UserStats }>();
    renderDashboard({ 'GET /api/user/stats': () => pending.promise });
    expect(await screen.findByRole('status', { name: 'Loading your stats' })).toBeInTheDocument();
    const cards = within(screen.getByRole('region', { name: 'Your numbers' }));
    expect(cards.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
      'Total Uploads',
      'Approved',
      'Average Rating',
      'Total Votes',
    ]);
    for (const name of ['Rankings', 'Performance', 'Status Overview', 'Top Rated Photo', 'Lowest Rated Photo', 'Ratings Over Time', 'Star Distribution']) {
      expect(screen.getByRole('region', { name })).toBeInTheDocument();
    }
    pending.resolve({ body: STATS });
    expect(await screen.findByRole('listitem', { name: 'Total Uploads: 3' })).toBeInTheDocument();
    expect(screen.queryByRole('status', { name: 'Loading your stats' })).not.toBeInTheDocument();
  });

  it('shows the stat cards, rankings, performance and status overview', async () => {
    renderDashboard();
    expect(await screen.findByRole('listitem', { name: 'Total Uploads: 3' })).toHaveTextContent('1 this week');
    const cards = within(screen.getByRole('region', { name: 'Your numbers' }));
    expect(cards.getByRole('listitem', { name: 'Approved: 2' })).toBeInTheDocument();
    expect(cards.getByRole('listitem', { name: 'Average Rating: 4.3' })).toBeInTheDocument();
    expect(cards.getByRole('listitem', { name: 'Total Votes: 12' })).toBeInTheDocument();

    const rankings = within(screen.getByRole('region', { name: 'Rankings' }));
    expect(rankings.getByText('#2 of 7')).toBeInTheDocument();
    expect(rankings.getByText('Needs at least 3 votes on your photos.')).toBeInTheDocument();

    const performance = within(screen.getByRole('region', { name: 'Performance' }));
    // 2 approved of 3: 66.7 % rounds to 67 %.
    expect(performance.getByText('67%')).toBeInTheDocument();
    expect(performance.getByRole('progressbar', { name: 'Approval rate' })).toHaveAttribute('aria-valuenow', '67');
    expect(performance.getByText('4.0')).toBeInTheDocument();

    const status = within(screen.getByRole('region', { name: 'Status Overview' }));
    expect(status.getByRole('listitem', { name: 'Approved: 2' })).toBeInTheDocument();
    expect(status.getByRole('listitem', { name: 'Pending: 1' })).toBeInTheDocument();
    expect(status.getByRole('listitem', { name: 'Rejected: 0' })).toBeInTheDocument();
  });

  it('shows both ranks as #n of N', async () => {
    renderDashboard({ 'GET /api/user/stats': { body: { ...STATS, rankByAverageRating: 1 } } });
    expect(await screen.findByText('#1 of 7')).toBeInTheDocument();
    expect(screen.getByText('#2 of 7')).toBeInTheDocument();
  });

  it('says where a single upload stands in the singular', async () => {
    renderDashboard({ 'GET /api/user/stats': { body: { ...STATS, totalUploads: 1, approvedUploads: 1, rejectedUploads: 0, pendingUploads: 0 } } });
    expect(await screen.findByText('Where your 1 upload stands.')).toBeInTheDocument();
  });

  it('writes large counts with thousands separators, as the gallery does', async () => {
    renderDashboard({
      'GET /api/user/stats': {
        body: {
          ...STATS,
          totalUploads: 1500,
          approvedUploads: 1200,
          totalVotes: 1234,
          totalActiveUsers: 2500,
          ratingDistribution: [0, 0, 0, 234, 1000],
          highestRatedPhoto: { ...STATS.highestRatedPhoto!, voteCount: 1234 },
        },
      },
    });
    const cards = within(await screen.findByRole('region', { name: 'Your numbers' }));
    expect(await cards.findByRole('listitem', { name: 'Total Votes: 1,234' })).toBeInTheDocument();
    expect(cards.getByRole('listitem', { name: 'Total Uploads: 1,500' })).toBeInTheDocument();
    expect(screen.getByText('#2 of 2,500')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Top Rated Photo' })).getByText('1,234 votes')).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Star Distribution' })).getByText('The 1,234 votes your approved photos received, by stars given.')).toBeInTheDocument();
  });

  it('shows the top-rated and lowest-rated photos with one decimal', async () => {
    renderDashboard();
    const top = within(await screen.findByRole('region', { name: 'Top Rated Photo' }));
    expect(await top.findByRole('img', { name: 'Approved crack' })).toHaveAttribute('src', '/api/uploads/display-2.webp?size=thumb');
    expect(top.getByText('4.3')).toBeInTheDocument();
    expect(top.getByText('12 votes')).toBeInTheDocument();
    const lowest = within(screen.getByRole('region', { name: 'Lowest Rated Photo' }));
    expect(lowest.getByText('2.0')).toBeInTheDocument();
    expect(lowest.getByText('1 vote')).toBeInTheDocument();
  });

  it('says there are no rated photos, and shows dashes, for a newcomer', async () => {
    const none: UserStats = {
      ...STATS,
      totalUploads: 0,
      approvedUploads: 0,
      pendingUploads: 0,
      uploadsThisWeek: 0,
      averageRating: 0,
      recentAverageRating: 0,
      recentVoteCount: 0,
      totalVotes: 0,
      rankByUploads: null,
      highestRatedPhoto: null,
      lowestRatedPhoto: null,
      ratingDistribution: [0, 0, 0, 0, 0],
    };
    renderDashboard({ 'GET /api/user/stats': { body: none } }, []);
    expect(await screen.findByRole('listitem', { name: 'Average Rating: —' })).toBeInTheDocument();
    expect(screen.getAllByText('No rated photos yet.')).toHaveLength(2);
    expect(within(screen.getByRole('region', { name: 'Performance' })).getByText('0%')).toBeInTheDocument();
    expect(screen.getByText('Get a photo approved to be ranked.')).toBeInTheDocument();
    // No rated photo and no vote: the plots say so, at their usual size.
    expect(within(screen.getByRole('region', { name: 'Ratings Over Time' })).getByText(/Once your approved photos get votes/)).toBeInTheDocument();
    expect(within(screen.getByRole('region', { name: 'Star Distribution' })).getByText('No votes on your approved photos yet.')).toBeInTheDocument();
    expect(screen.getByText('Where your 0 uploads stand.')).toBeInTheDocument();
  });

  it('plots the approved photos’ ratings over time, and the votes received per star, with text alternatives', async () => {
    const older = makePhoto({ id: 7, description: 'Older crack', status: 'approved', averageRating: 1.6, voteCount: 5, approvedAt: '2025-07-01T12:00:00.000Z' });
    renderDashboard({}, [PENDING, APPROVED, REJECTED, older]);
    const overTime = within(await screen.findByRole('region', { name: 'Ratings Over Time' }));
    expect(await overTime.findByRole('img', { name: 'Average rating of 2 photos by approval date' })).toBeInTheDocument();
    const rows = overTime.getAllByRole('row').slice(1).map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['Jul 1, 2025', 'Older crack', '1.6', '5'],
      ['Jul 29, 2025', 'Approved crack', '4.3', '12'],
    ]);
    // Every vote at the stars it gave (GET /api/user/stats), not the photos' rounded averages.
    const stars = within(await screen.findByRole('region', { name: 'Star Distribution' }));
    expect(await stars.findByText('The 12 votes your approved photos received, by stars given.')).toBeInTheDocument();
    expect(stars.getAllByRole('listitem').map((item) => item.getAttribute('aria-label'))).toEqual([
      '5 stars: 5 votes (42%)',
      '4 stars: 4 votes (33%)',
      '3 stars: 2 votes (17%)',
      '2 stars: 0 votes (0%)',
      '1 star: 1 vote (8%)',
    ]);
  });

  it('plots the votes per star even before any photo list has loaded a rated photo', async () => {
    renderDashboard({ 'GET /api/user/stats': { body: { ...STATS, ratingDistribution: [0, 0, 0, 1, 0] } } }, [PENDING]);
    const stars = within(await screen.findByRole('region', { name: 'Star Distribution' }));
    expect(await stars.findByRole('listitem', { name: '4 stars: 1 vote (100%)' })).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Ratings Over Time' })).findByText(/Once your approved photos get votes/)).toBeInTheDocument();
  });

  it('shows an error with a retry that loads the stats again, leaving My Uploads alone', async () => {
    let calls = 0;
    renderDashboard({
      'GET /api/user/stats': () => {
        calls += 1;
        return calls === 1 ? { status: 500, text: 'boom' } : { body: STATS };
      },
    });
    expect(await screen.findByText('Could not load your stats')).toBeInTheDocument();
    expect(await findCard('Pending crack')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try Again' }));
    expect(await screen.findByRole('listitem', { name: 'Total Uploads: 3' })).toBeInTheDocument();
  });
});

describe('dashboard: reports', () => {
  const report = (id: string, status: 'open' | 'dismissed' | 'removed', photoDescription: string | null) => ({
    id,
    photoId: 40,
    category: 'personal_data',
    note: null,
    status,
    createdAt: '2025-07-28T10:00:00.000Z',
    decidedAt: status === 'open' ? null : '2025-07-29T10:00:00.000Z',
    photoDescription,
  });

  it("shows a photo under review as such, with why, and the member's reports with their outcomes", async () => {
    renderDashboard(
      {
        'GET /api/user/reports?page=1&limit=10': {
          body: { reports: [report('a', 'open', 'Crack by the road'), report('b', 'dismissed', null), report('c', 'removed', 'Cracked mirror')], total: 3, totalPages: 1 },
        },
      },
      [makePhoto({ id: 9, description: 'Reported crack', status: 'pending', underReview: true, approvedAt: '2025-07-20T10:00:00.000Z' })],
    );
    const card = await findCard('Reported crack');
    expect(within(card).getByText('Under review', { selector: 'span' })).toBeInTheDocument();
    expect(within(card).getByText(/Members reported this photo/)).toBeInTheDocument();

    const list = await screen.findByRole('list', { name: 'Your reports' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows).toHaveLength(3);
    expect(rows[0]).toHaveTextContent('Crack by the road');
    expect(rows[0]).toHaveTextContent('Faces or personal data visible');
    expect(rows[0]).toHaveTextContent('Open');
    expect(rows[1]).toHaveTextContent('No description');
    expect(rows[1]).toHaveTextContent('Dismissed');
    expect(rows[2]).toHaveTextContent('Removed');
  });

  it('leaves the section out for a member who has reported nothing', async () => {
    const { requests } = renderDashboard({ 'GET /api/user/reports?page=1&limit=10': { body: { reports: [], total: 0, totalPages: 0 } } });
    expect(await findCard('Pending crack')).toBeInTheDocument();
    await waitFor(() => expect(requests.some((r) => r.url === '/api/user/reports?page=1&limit=10')).toBe(true));
    expect(screen.queryByRole('heading', { name: 'Your reports' })).not.toBeInTheDocument();
  });
});

describe('dashboard: fix and resubmit', () => {
  it('offers a rejected photo for resubmission until its deadline, sends the note, and says when a rejection is final', async () => {
    const fixable = makePhoto({ id: 11, description: 'Fixable crack', status: 'rejected', rejectionReason: 'A face is visible', resubmitUntil: '2025-08-27T10:00:00.000Z' });
    const final = makePhoto({ id: 12, description: 'Final crack', status: 'rejected', rejectionReason: 'Still blurry', finalRejection: true });
    const { requests } = renderDashboard(
      { 'POST /api/photos/11/resubmission': { body: { ...fixable, status: 'pending', resubmitUntil: null } } },
      [fixable, final],
    );
    const card = await findCard('Fixable crack');
    expect(within(card).getByText(/resubmit it once, until/)).toBeInTheDocument();
    const finalCard = await findCard('Final crack');
    expect(within(finalCard).getByText(/this decision is final/)).toBeInTheDocument();
    expect(within(finalCard).queryByRole('button', { name: /resubmit/i })).not.toBeInTheDocument();

    await userEvent.click(within(card).getByRole('button', { name: 'Fix and resubmit Fixable crack' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resubmit Photo' });
    expect(within(dialog).getByText('A face is visible')).toBeInTheDocument();
    await userEvent.type(within(dialog).getByLabelText('What did you change? (optional)'), ' Added a bar ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Resubmit Photo' }));
    expect(await screen.findByText('Photo Resubmitted')).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.json).toEqual({ note: 'Added a bar' });
  });
});

describe('dashboard: upload allowance', () => {
  it('says how many photos may wait for review, how many do and why, and warns when the queue is full', async () => {
    renderDashboard({
      'GET /api/user/upload-allowance': { body: { limit: 4, pending: 4, trusted: false, reasons: ['Members may have 5 photos waiting for review at once.', '1 rejection or removal in the last 30 days lowers it by 1.'] } },
    });
    const note = await screen.findByRole('region', { name: 'Upload allowance' });
    expect(note).toHaveTextContent('Your 4 places in the review queue are taken');
    expect(note).toHaveTextContent('1 rejection or removal in the last 30 days lowers it by 1.');
  });
});
