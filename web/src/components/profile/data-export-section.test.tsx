import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DATA_EXPORT } from '@snapcracks/http-contract';
import { mockFetch, type MockHandler } from '@/test/fetch-mock';
import { makeUser } from '@/test/fixtures';
import { cardOf, renderApp } from '@/test/render-app';
import type { DataExport } from '@/lib/types';

const exportOf = (overrides: Partial<DataExport>): DataExport => ({
  id: 'e1',
  status: 'queued',
  progress: 0,
  step: null,
  size: null,
  error: null,
  createdAt: '2026-11-29T10:00:00.000Z',
  finishedAt: null,
  expiresAt: null,
  downloadUrl: null,
  ...overrides,
});
const READY = exportOf({
  status: 'ready',
  progress: 100,
  size: 12_345_678,
  finishedAt: '2026-11-29T10:01:00.000Z',
  expiresAt: '2026-11-30T10:01:00.000Z',
  downloadUrl: '/api/user/data-export/download',
});

function renderSection(routes: Record<string, MockHandler>) {
  const requests = mockFetch({ 'GET /api/auth/user': { body: makeUser() }, ...routes });
  renderApp('/profile');
  return { requests, card: () => cardOf('Your Data') };
}

// The first render loads the lazy page; the progress is polled every 2 s.
describe('your data on the profile page', { timeout: 30_000 }, () => {
  it('asks for a copy, shows its progress and step while it is made, then the download with its size and expiry', async () => {
    const answers = [null, exportOf({ status: 'running', progress: 40, step: 'Copying photo 2 of 5' }), READY];
    let reads = 0;
    const { requests, card } = renderSection({
      'GET /api/user/data-export': () => ({ body: answers[Math.min(reads++, answers.length - 1)] }),
      'POST /api/user/data-export': { status: 202, body: exportOf({}) },
    });
    const section = await card();
    await userEvent.click(await within(section).findByRole('button', { name: 'Download your data' }));
    expect(requests.filter((r) => r.method === 'POST' && r.url === '/api/user/data-export')).toHaveLength(1);
    const bar = await within(section).findByRole('progressbar', { name: 'Preparing your data' });
    expect(within(section).getByText('Waiting to start…')).toBeInTheDocument();
    await waitFor(() => expect(bar).toHaveAttribute('aria-valuenow', '40'), { timeout: 5_000 });
    expect(within(section).getByText('Copying photo 2 of 5…')).toBeInTheDocument();
    expect(within(section).queryByRole('button', { name: 'Download your data' })).not.toBeInTheDocument();
    const link = await within(section).findByRole('link', { name: 'Download (12 MB)' }, { timeout: 5_000 });
    expect(link).toHaveAttribute('href', '/api/user/data-export/download');
    expect(within(section).getByText(/Your copy is ready \(12 MB\)\. You can download it until Nov 30, 2026/)).toBeInTheDocument();
    expect(within(section).queryByRole('progressbar')).not.toBeInTheDocument();
    // Done: no more polling.
    const polled = reads;
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    expect(reads).toBe(polled);
  });

  it('shows why a copy failed, and offers to try again', async () => {
    const { card } = renderSection({ 'GET /api/user/data-export': { body: exportOf({ status: 'failed', error: DATA_EXPORT.tooLarge }) } });
    const section = await card();
    expect(await within(section).findByRole('alert')).toHaveTextContent(DATA_EXPORT.tooLarge);
    expect(within(section).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });

  it('offers a new copy once the last one expired, and says why one cannot be made now', async () => {
    const { card } = renderSection({
      'GET /api/user/data-export': { body: exportOf({ status: 'expired', expiresAt: '2026-11-30T10:01:00.000Z', finishedAt: '2026-11-29T10:01:00.000Z' }) },
      'POST /api/user/data-export': { status: 429, body: { message: DATA_EXPORT.tooMany } },
    });
    const section = await card();
    expect(await within(section).findByText(/Your last copy has expired/)).toBeInTheDocument();
    await userEvent.click(within(section).getByRole('button', { name: 'Request a new copy' }));
    expect(await screen.findByText(DATA_EXPORT.tooMany)).toBeInTheDocument();
  });

  it('deletes a ready copy when asked, from the keyboard too', async () => {
    let deleted = false;
    const { requests, card } = renderSection({
      'GET /api/user/data-export': () => ({ body: deleted ? exportOf({ ...READY, status: 'expired', downloadUrl: null }) : READY }),
      'DELETE /api/user/data-export': () => {
        deleted = true;
        return { status: 204 };
      },
    });
    const section = await card();
    const remove = await within(section).findByRole('button', { name: 'Delete this copy' });
    remove.focus();
    await userEvent.keyboard('{Enter}');
    await waitFor(() => expect(requests.some((r) => r.method === 'DELETE')).toBe(true));
    expect(await within(section).findByRole('button', { name: 'Request a new copy' })).toBeInTheDocument();
  });
});
