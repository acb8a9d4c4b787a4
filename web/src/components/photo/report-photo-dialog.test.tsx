import { REPORTS } from '@snapcracks/http-contract';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app';
import { createQueryClient } from '@/lib/query-client';
import { mockFetch } from '@/test/fetch-mock';
import { ReportPhotoButton } from './report-photo-dialog';

const REPORT = { id: 'r1', photoId: 7, category: 'personal_data', note: 'A face', status: 'open', createdAt: '2026-11-28T10:00:00.000Z', decidedAt: null, photoDescription: null };

function renderButton() {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <ReportPhotoButton photoId={7} />
    </AppProviders>,
  );
}

describe('reporting a photo', () => {
  it('asks for a category before sending, then sends it with the trimmed note and says what happens next', async () => {
    const requests = mockFetch({ 'POST /api/photos/7/reports': { status: 201, body: { report: REPORT, photoHeld: false } } });
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report' }));
    expect(screen.getByRole('dialog', { name: 'Report Photo' })).toBeInTheDocument();
    for (const label of Object.values(REPORTS.labels)) expect(screen.getByRole('radio', { name: label })).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Send Report' }));
    expect(screen.getByRole('alert')).toHaveTextContent(REPORTS.categoryInvalid);
    expect(requests).toHaveLength(0);

    await userEvent.click(screen.getByRole('radio', { name: 'Faces or personal data visible' }));
    await userEvent.type(screen.getByLabelText('Details (optional)'), '  A face  ');
    await userEvent.click(screen.getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText('Report Sent')).toBeInTheDocument();
    expect(screen.getByText(/An admin will look at this photo/)).toBeInTheDocument();
    expect(requests.find((r) => r.method === 'POST')?.json).toEqual({ category: 'personal_data', note: 'A face' });
    expect(screen.queryByRole('dialog', { name: 'Report Photo' })).not.toBeInTheDocument();
  });

  it("shows the server's refusal (a report already open) and keeps the form", async () => {
    mockFetch({ 'POST /api/photos/7/reports': { status: 409, body: { message: REPORTS.alreadyReported } } });
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Spam or duplicate' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText(REPORTS.alreadyReported)).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Report Photo' })).toBeInTheDocument();
  });

  it('says when the report took the photo out of the gallery', async () => {
    mockFetch({ 'POST /api/photos/7/reports': { status: 201, body: { report: REPORT, photoHeld: true } } });
    renderButton();
    await userEvent.click(screen.getByRole('button', { name: 'Report' }));
    await userEvent.click(screen.getByRole('radio', { name: 'Not a crack' }));
    await userEvent.click(screen.getByRole('button', { name: 'Send Report' }));
    expect(await screen.findByText(/hidden from the gallery until an admin decides/)).toBeInTheDocument();
  });
});
