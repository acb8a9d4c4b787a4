import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { AppProviders } from '@/app';
import { createQueryClient } from '@/lib/query-client';
import { deferred, mockFetch, type MockResponse } from '@/test/fetch-mock';
import { PhotoVoteControl, type PhotoVoteControlProps } from './photo-vote-control';

function renderControl(props: Partial<PhotoVoteControlProps> = {}) {
  render(
    <AppProviders queryClient={createQueryClient()}>
      <PhotoVoteControl photoId={7} averageRating={4} isSignedIn isOwnPhoto={false} {...props} />
    </AppProviders>,
  );
}

describe('PhotoVoteControl', () => {
  it('asks a signed-out visitor to sign in instead of voting', async () => {
    const requests = mockFetch({});
    renderControl({ isSignedIn: false });
    await userEvent.click(screen.getByRole('radio', { name: '4 stars' }));
    expect(await screen.findByText('Sign In Required')).toBeInTheDocument();
    expect(screen.getByText('Please sign in to vote on photos.')).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('turns a 429 (the member’s vote limit) into the spec’s vote failure toast', async () => {
    mockFetch({
      'GET /api/photos/7/vote': { body: { rating: null } },
      'POST /api/photos/7/vote': { status: 429, body: { message: 'You are voting faster than allowed. Please wait a moment and try again.' } },
    });
    renderControl();
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(group).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(group).getByRole('radio', { name: '3 stars' }));
    expect(await screen.findByText('Failed to submit vote. Please try again.')).toBeInTheDocument();
    expect(screen.getByText('Error')).toBeInTheDocument();
    await waitFor(() => expect(group).not.toHaveAttribute('aria-disabled'));
  });

  it('is disabled while a vote is pending, showing the stars picked', async () => {
    const answer = deferred<MockResponse>();
    mockFetch({
      'GET /api/photos/7/vote': { body: { rating: null } },
      'POST /api/photos/7/vote': () => answer.promise,
    });
    renderControl();
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    await waitFor(() => expect(group).not.toHaveAttribute('aria-disabled'));
    await userEvent.click(within(group).getByRole('radio', { name: '2 stars' }));
    expect(group).toHaveAttribute('aria-disabled', 'true');
    expect(within(group).getByRole('radio', { name: '2 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText('Submitting your vote…')).toBeInTheDocument();

    answer.resolve({ body: { rating: 2, averageRating: 3, voteCount: 3 } });
    expect(await screen.findByText('Vote Submitted')).toBeInTheDocument();
    expect(group).not.toHaveAttribute('aria-disabled');
    expect(screen.getByText(/You rated this 2 stars/)).toBeInTheDocument();
  });

  it('takes a vote while the earlier rating is still loading, and keeps it when that answer comes late', async () => {
    const earlier = deferred<MockResponse>();
    const requests = mockFetch({
      'GET /api/photos/7/vote': () => earlier.promise,
      'POST /api/photos/7/vote': { body: { rating: 4, averageRating: 3.5, voteCount: 2 } },
    });
    renderControl();
    const group = screen.getByRole('radiogroup', { name: 'Your rating' });
    expect(group).not.toHaveAttribute('aria-disabled');
    await userEvent.click(within(group).getByRole('radio', { name: '4 stars' }));
    expect(await screen.findByText('Vote Submitted')).toBeInTheDocument();
    expect(requests.map((request) => `${request.method} ${request.url}`)).toContain('POST /api/photos/7/vote');

    earlier.resolve({ body: { rating: 2 } });
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(within(group).getByRole('radio', { name: '4 stars' })).toHaveAttribute('aria-checked', 'true');
    expect(screen.getByText(/You rated this 4 stars/)).toBeInTheDocument();
  });
});
